import { parseTaka, type TAdminReference, type TBulkPricePreview } from '@storefront/shared';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { adminRead } from '../../components/admin/admin-api.server.ts';
import { AdminPage, Card, describedBy, Field, inputClass, Notice, taka } from '../../components/admin/admin-ui.tsx';
import { apiFetch } from '../../lib/api-client.ts';
import type { Route } from './+types/prices';

// Bulk price change (docs/decisions/0031): a category or the products chosen in the list, by
// a percentage or an amount; every sku's old and new price is shown before anything changes,
// and applying checks the selection is still the one previewed.

export function meta() {
  return [{ title: 'Change prices · Back office' }];
}

export async function loader({ context, request }: Route.LoaderArgs) {
  return adminRead<TAdminReference>(context, request, '/api/admin/reference');
}

type Rule = { categoryId?: number; productIds?: number[]; kind: 'percent' | 'amount'; value: number; roundTo: number; alsoDiscounted: boolean };

export default function Prices({ loaderData: reference }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const chosen = (params.get('ids') ?? '')
    .split(',')
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0);
  const [categoryId, setCategoryId] = useState(params.get('categoryId') ?? '');
  const [kind, setKind] = useState<'percent' | 'amount'>('percent');
  const [value, setValue] = useState('');
  const [direction, setDirection] = useState<'up' | 'down'>('up');
  const [roundTo, setRoundTo] = useState('100');
  const [alsoDiscounted, setAlsoDiscounted] = useState(true);
  const [preview, setPreview] = useState<{ rule: Rule; result: TBulkPricePreview } | null>(null);
  const [error, setError] = useState<{ message: string; fields: Record<string, string> } | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const rule = (): Rule | null => {
    const sign = direction === 'down' ? -1 : 1;
    let amount: number | null;
    if (kind === 'percent') amount = value.trim() && Number.isFinite(Number(value)) ? Number(value) : null;
    else amount = parseTaka(value);
    if (amount == null || amount <= 0) {
      setError({
        message: 'Enter how much to change prices by',
        fields: { value: kind === 'percent' ? 'Enter a percentage, for example 7.5' : 'Enter an amount in taka, for example 500' },
      });
      return null;
    }
    const scope = chosen.length ? { productIds: chosen } : { categoryId: Number(categoryId) || undefined };
    return { ...scope, kind, value: sign * amount, roundTo: Number(roundTo), alsoDiscounted };
  };

  const show = async (e: React.FormEvent) => {
    e.preventDefault();
    setDone(null);
    const r = rule();
    if (!r) return;
    setBusy(true);
    const res = await apiFetch<TBulkPricePreview>('/api/admin/prices/preview', { method: 'POST', body: r });
    setBusy(false);
    if (res.ok) {
      setError(null);
      setPreview({ rule: r, result: res.data });
    } else {
      setPreview(null);
      setError({ message: res.error?.message ?? 'The preview failed', fields: res.error?.fields ?? {} });
    }
  };

  const apply = async () => {
    if (!preview) return;
    setBusy(true);
    const res = await apiFetch<TBulkPricePreview>('/api/admin/prices/apply', { method: 'POST', body: { ...preview.rule, expectedSkus: preview.result.skus } });
    setBusy(false);
    if (res.ok) {
      setPreview(null);
      setDone(`New prices saved for ${res.data.skus} skus of ${res.data.products} products. The shop shows them now.`);
    } else setError({ message: res.error?.message ?? 'The prices were not changed', fields: {} });
  };

  return (
    <AdminPage
      title="Change prices"
      description="Raise or lower the prices of a category or of chosen products. You see every new price before anything changes."
    >
      <div className="flex flex-col gap-6">
        {done && <Notice tone="success">{done}</Notice>}
        {error && <Notice tone="error">{error.message}</Notice>}
        <Card title="Which prices, and by how much">
          <form onSubmit={show} noValidate className="grid gap-4 md:grid-cols-2">
            {chosen.length ? (
              <p className="text-sm md:col-span-2">
                The {chosen.length} products chosen in the{' '}
                <Link className="text-brand-700 underline" to="/admin/products">
                  product list
                </Link>
                .
              </p>
            ) : (
              <Field id="category" label="Category" error={error?.fields.categoryId} hint="With its sub-categories.">
                <select
                  id="category"
                  className={inputClass}
                  value={categoryId}
                  onChange={(e) => setCategoryId(e.target.value)}
                  aria-describedby="category-hint"
                >
                  <option value="">Choose a category</option>
                  {reference.categories.map((c) => (
                    <option key={c.id} value={c.id}>
                      {`${'\u2003'.repeat(c.depth)}${c.name}`}
                    </option>
                  ))}
                </select>
              </Field>
            )}
            <fieldset className="flex flex-col gap-1">
              <legend className="text-sm font-medium">Change</legend>
              <div className="flex flex-wrap gap-2">
                <select
                  aria-label="Up or down"
                  className={`${inputClass} max-w-32`}
                  value={direction}
                  onChange={(e) => setDirection(e.target.value as 'up' | 'down')}
                >
                  <option value="up">Raise by</option>
                  <option value="down">Lower by</option>
                </select>
                <input
                  aria-label="How much"
                  className={`${inputClass} max-w-32`}
                  inputMode="decimal"
                  value={value}
                  onChange={(e) => setValue(e.target.value)}
                  aria-invalid={error?.fields.value ? true : undefined}
                  aria-describedby={error?.fields.value ? 'value-error' : undefined}
                />
                <select
                  aria-label="Percent or taka"
                  className={`${inputClass} max-w-32`}
                  value={kind}
                  onChange={(e) => setKind(e.target.value as 'percent' | 'amount')}
                >
                  <option value="percent">percent</option>
                  <option value="amount">taka</option>
                </select>
              </div>
              {error?.fields.value && (
                <p id="value-error" className="text-xs font-medium text-danger-600">
                  {error.fields.value}
                </p>
              )}
            </fieldset>
            <Field id="round" label="Round new prices to">
              <select className={inputClass} value={roundTo} onChange={(e) => setRoundTo(e.target.value)} {...describedBy('round')}>
                <option value="1">the poisha</option>
                <option value="100">whole taka</option>
                <option value="1000">10 taka</option>
                <option value="10000">100 taka</option>
              </select>
            </Field>
            <label className="flex items-center gap-2 self-end text-sm">
              <input type="checkbox" className="h-4 w-4 accent-brand-700" checked={alsoDiscounted} onChange={(e) => setAlsoDiscounted(e.target.checked)} />
              Change discounted prices the same way
            </label>
            <div className="md:col-span-2">
              <button
                type="submit"
                disabled={busy}
                className="h-10 rounded-lg bg-brand-700 px-4 text-sm font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
              >
                {busy && !preview ? 'Working…' : 'Show the new prices'}
              </button>
            </div>
          </form>
        </Card>

        {preview && (
          <Card
            title={`${preview.result.skus} skus of ${preview.result.products} products`}
            actions={
              <button
                type="button"
                disabled={busy || !preview.result.skus}
                onClick={apply}
                className="h-10 rounded-lg bg-brand-700 px-4 text-sm font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
              >
                {busy ? 'Saving…' : 'Apply these prices'}
              </button>
            }
          >
            {preview.result.lines.length < preview.result.skus && (
              <p className="mb-3 text-sm text-ink-muted">The first {preview.result.lines.length} are shown; the same rule applies to all.</p>
            )}
            <div className="overflow-x-auto">
              <table className="w-full min-w-[36rem] border-collapse text-sm">
                <caption className="sr-only">Old and new prices</caption>
                <thead>
                  <tr className="border-b border-sand-200 text-left">
                    <th scope="col" className="py-2 pr-3 font-semibold">
                      Sku
                    </th>
                    <th scope="col" className="px-3 py-2 text-right font-semibold">
                      Price now
                    </th>
                    <th scope="col" className="px-3 py-2 text-right font-semibold">
                      New price
                    </th>
                    <th scope="col" className="px-3 py-2 text-right font-semibold">
                      Discounted now
                    </th>
                    <th scope="col" className="px-3 py-2 text-right font-semibold">
                      New discounted
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {preview.result.lines.map((l) => (
                    <tr key={l.skuId} className="border-b border-sand-100">
                      <th scope="row" className="py-1.5 pr-3 text-left font-normal">
                        <span className="font-medium">{l.code}</span> <span className="text-ink-muted">{l.title}</span>
                      </th>
                      <td className="px-3 py-1.5 text-right tabular-nums text-ink-muted">{taka(l.oldPrice)}</td>
                      <td className="px-3 py-1.5 text-right font-semibold tabular-nums">{taka(l.newPrice)}</td>
                      <td className="px-3 py-1.5 text-right tabular-nums text-ink-muted">{taka(l.oldDiscounted)}</td>
                      <td className="px-3 py-1.5 text-right tabular-nums">{taka(l.newDiscounted)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </Card>
        )}
      </div>
    </AdminPage>
  );
}
