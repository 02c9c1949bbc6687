import { isCombinationAvailable, type TCmsItem, type TSkuOption } from '@storefront/shared';
import { useT } from '../../lib/i18n.tsx';

/**
 * The sku choice by attribute (spec §3: Size, Color): one radio group per attribute. A
 * value that does not exist with the other choices is still offered (choosing it switches
 * to the nearest sku that has it) and says so.
 */
export function SkuPicker({
  options,
  selection,
  skus,
  onChoose,
  helpTexts,
}: {
  options: TSkuOption[];
  selection: Record<string, string>;
  skus: Parameters<typeof isCombinationAvailable>[0];
  onChoose(name: string, value: string): void;
  helpTexts: TCmsItem[];
}) {
  const { t } = useT();
  return (
    <div className="space-y-5">
      {options.map((o) => {
        const current = o.values.find((v) => v.value === selection[o.name]);
        const help = helpTexts.find((h) => h.slug === o.name);
        const isColor = o.name === 'color';
        return (
          <fieldset key={o.name}>
            <legend className="mb-2 text-sm font-semibold">
              {o.displayLabel}: <span className="font-normal text-ink-muted">{current?.displayLabel ?? t('choose one')}</span>
            </legend>
            <div className="flex flex-wrap gap-2" role="presentation">
              {o.values.map((v) => {
                const checked = selection[o.name] === v.value;
                const available = isCombinationAvailable(skus, selection, o.name, v.value);
                return (
                  <span key={v.value}>
                    <label className="relative inline-block cursor-pointer">
                      <input
                        type="radio"
                        name={`sku-${o.name}`}
                        value={v.value}
                        checked={checked}
                        onChange={() => onChoose(o.name, v.value)}
                        className="peer absolute inset-0 h-full w-full cursor-pointer appearance-none rounded-lg opacity-0"
                        aria-describedby={available ? undefined : `na-${o.name}-${v.value}`}
                      />
                      <span
                        className={`inline-flex min-h-11 items-center gap-2 rounded-lg border px-3 text-sm font-medium peer-focus-visible:outline peer-focus-visible:outline-3 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-600 ${
                          checked ? 'border-brand-700 bg-brand-50 text-brand-800 ring-1 ring-brand-700' : 'border-sand-300 bg-paper hover:border-ink-muted'
                        } ${available ? '' : 'border-dashed text-ink-muted'}`}
                      >
                        {isColor && /^[0-9a-f]{6}$/i.test(v.value) && (
                          <span aria-hidden="true" className="h-5 w-5 rounded-full ring-1 ring-sand-300" style={{ background: `#${v.value}` }} />
                        )}
                        {v.displayLabel}
                      </span>
                    </label>
                    {!available && (
                      <span id={`na-${o.name}-${v.value}`} className="sr-only">
                        {t('not available with the other choices')}
                      </span>
                    )}
                  </span>
                );
              })}
            </div>
            {help && (
              <details className="mt-2 text-sm text-ink-muted">
                <summary className="cursor-pointer font-medium text-brand-700">{help.title}</summary>
                <p className="mt-1">{help.body}</p>
              </details>
            )}
          </fieldset>
        );
      })}
    </div>
  );
}
