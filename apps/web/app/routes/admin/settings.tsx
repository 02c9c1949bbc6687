import { BRAND_COLOURS, LOGO_MAX_BYTES, LOGO_MAX_SIDE, PAYMENT_LOGO_LABELS, PAYMENT_LOGOS, type TAdminSettings, type TSettingsGroup } from '@storefront/shared';
import { type FormEvent, type ReactNode, useState } from 'react';
import { adminRead } from '../../components/admin/admin-api.server.ts';
import { AdminPage, Card, describedBy, Field, inputClass, Notice, useSavedNotice } from '../../components/admin/admin-ui.tsx';
import { FileUploadField } from '../../components/files/file-upload-field.tsx';
import { apiFetch } from '../../lib/api-client.ts';
import type { Route } from './+types/settings';
import { may, useAdminSession } from './layout.tsx';

// The shop's settings (docs/decisions/0037): one form per group, each saved on its own with
// the version it was read at. The storefront, the mails and the invoices show a change on
// their next page or message.

export function meta() {
  return [{ title: 'Settings · Back office' }];
}

export async function loader({ context, request }: Route.LoaderArgs) {
  return adminRead<TAdminSettings>(context, request, '/api/admin/settings');
}

type Problem = { message: string; fields: Record<string, string> } | null;

const GROUP_LABELS: Record<TSettingsGroup, string> = {
  brand: 'Brand',
  contact: 'Contact',
  social: 'Social links',
  company: 'Company',
  payments: 'Payment logos',
};

/** The path of an uploaded file on this shop (the stored logo is the path, whatever host served it). */
function localPath(url: string): string {
  try {
    return new URL(url, window.location.origin).pathname;
  } catch {
    return url;
  }
}

const when = (iso: string | null) =>
  iso
    ? new Date(iso).toLocaleString('en-GB', { timeZone: 'Asia/Dhaka', day: 'numeric', month: 'short', year: 'numeric', hour: 'numeric', minute: '2-digit' })
    : null;

function LastChange({ at, by }: { at: string | null; by: string | null }) {
  const w = when(at);
  return <p className="text-sm text-ink-muted">{w ? `Last changed ${w}${by ? ` by ${by}` : ''}` : 'Not changed yet'}</p>;
}

/** One group's form: its own Save button, its own errors, its own version. */
function GroupForm<V extends Record<string, unknown>>({
  group,
  initial,
  version,
  canWrite,
  onSaved,
  children,
}: {
  group: TSettingsGroup;
  initial: V;
  version: number;
  canWrite: boolean;
  onSaved(message: string): void;
  children(draft: V, set: (patch: Partial<V>) => void, errors: Record<string, string | undefined>): ReactNode;
}) {
  const [draft, setDraft] = useState<V>(initial);
  const [problem, setProblem] = useState<Problem>(null);
  const [busy, setBusy] = useState(false);
  const save = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    const res = await apiFetch(`/api/admin/settings/${group}`, { method: 'PUT', body: { ...draft, version } });
    setBusy(false);
    if (!res.ok) {
      // What was typed stays; the messages go beside their fields.
      setProblem({ message: res.error?.message ?? 'The settings were not saved', fields: res.error?.fields ?? {} });
      return;
    }
    setProblem(null);
    onSaved(`${GROUP_LABELS[group]}: saved at ${new Date().toLocaleTimeString('en-GB')}. The shop shows it from the next page.`);
  };
  return (
    <form onSubmit={save} noValidate aria-label={`${group} settings`} className="flex flex-col gap-4">
      {problem && <Notice tone="error">{Object.keys(problem.fields).length ? 'Please correct the fields marked below.' : problem.message}</Notice>}
      <fieldset disabled={!canWrite} className="contents">
        {children(draft, (patch) => setDraft({ ...draft, ...patch }), problem?.fields ?? {})}
      </fieldset>
      {canWrite && (
        <div>
          <button
            type="submit"
            disabled={busy}
            className="h-10 rounded-lg bg-brand-700 px-4 text-sm font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
          >
            Save
          </button>
        </div>
      )}
    </form>
  );
}

function TextField({
  id,
  label,
  value,
  onChange,
  error,
  hint,
  type = 'text',
  ...rest
}: {
  id: string;
  label: string;
  value: string;
  onChange(v: string): void;
  error?: string;
  hint?: string;
  type?: string;
  inputMode?: 'tel' | 'email' | 'url' | 'text';
  autoComplete?: string;
}) {
  return (
    <Field id={id} label={label} hint={hint} error={error}>
      <input className={inputClass} type={type} value={value} onChange={(e) => onChange(e.target.value)} {...describedBy(id, error)} {...rest} />
    </Field>
  );
}

export default function AdminSettings({ loaderData: s }: Route.ComponentProps) {
  const session = useAdminSession();
  const canWrite = may(session, 'content.write');
  const { notice, saved } = useSavedNotice();
  const strip = <T extends { version: number; updatedAt: string | null; updatedBy: string | null }>(g: T) => {
    const { version: _v, updatedAt: _a, updatedBy: _b, ...values } = g;
    return values;
  };
  const { logoWidth: _w, logoHeight: _h, ...brand } = strip(s.brand);

  return (
    <AdminPage
      title="Settings"
      description="What the shop’s pages, mails and invoices say about the shop. Each part is saved on its own; the shop shows a change from the next page."
    >
      <div className="flex flex-col gap-6">
        {notice && <Notice tone="success">{notice}</Notice>}
        {!canWrite && <Notice>You can see the settings; a manager or the owner can change them.</Notice>}

        <Card title="Brand" actions={<LastChange at={s.brand.updatedAt} by={s.brand.updatedBy} />}>
          <GroupForm key={`brand-${s.brand.version}`} group="brand" initial={brand} version={s.brand.version} canWrite={canWrite} onSaved={saved}>
            {(d, set, e) => (
              <div className="grid gap-4 md:grid-cols-2">
                <TextField id="brand-name" label="Shop name" value={d.name} onChange={(name) => set({ name })} error={e.name} />
                <TextField id="brand-tagline" label="Tagline" value={d.tagline} onChange={(tagline) => set({ tagline })} error={e.tagline} />
                <div className="flex flex-col gap-3 md:col-span-2">
                  <p className="text-sm font-medium" id="brand-logo-label">
                    Logo
                  </p>
                  <div className="flex flex-wrap items-center gap-4">
                    <div className="flex h-16 min-w-40 items-center rounded-lg border border-sand-200 bg-paper px-3" aria-live="polite">
                      {d.logo ? (
                        <img
                          src={d.logo}
                          alt={`Logo preview: ${d.name}`}
                          height={40}
                          className="h-10 w-auto max-w-[200px] object-contain"
                          data-testid="logo-preview"
                        />
                      ) : (
                        <span className="text-sm text-ink-muted">No logo: the shop’s name is shown</span>
                      )}
                    </div>
                    {d.logo && (
                      <button type="button" className="h-10 rounded-lg border border-sand-300 px-3 text-sm" onClick={() => set({ logo: '' })}>
                        Remove the logo
                      </button>
                    )}
                  </div>
                  {e.logo && (
                    <p id="brand-logo-error" className="text-xs font-medium text-danger-600">
                      {e.logo}
                    </p>
                  )}
                  {canWrite && (
                    <FileUploadField
                      label="Upload a logo"
                      type="image"
                      maxBytes={LOGO_MAX_BYTES}
                      maxSide={LOGO_MAX_SIDE}
                      buttonText="Choose a logo"
                      accept={{ types: ['image/png', 'image/jpeg', 'image/webp'], names: 'PNG, JPEG or WebP' }}
                      onUploaded={(file) => set({ logo: localPath(file.cdnUrl) })}
                    />
                  )}
                  <p className="text-xs text-ink-muted">
                    A PNG, JPEG or WebP picture of at most 1 MB and {LOGO_MAX_SIDE} pixels wide and high, shown 40 pixels high; a wide logo on a light or
                    transparent background reads best. Save to use it.
                  </p>
                </div>
                <fieldset className="md:col-span-2" aria-describedby="brand-colour-hint">
                  <legend className="text-sm font-medium">Brand colour</legend>
                  <p id="brand-colour-hint" className="text-xs text-ink-muted">
                    Used by the mails and the invoices. Each colour keeps white text readable.
                  </p>
                  <div className="mt-2 flex flex-wrap gap-2">
                    {BRAND_COLOURS.map((c) => (
                      <label
                        key={c.value}
                        className={`flex cursor-pointer items-center gap-2 rounded-lg border px-3 py-2 text-sm has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-600 ${d.colour.toLowerCase() === c.value ? 'border-ink bg-sand-100 font-semibold ring-2 ring-ink' : 'border-sand-300 bg-paper hover:bg-sand-50'}`}
                      >
                        <input
                          type="radio"
                          name="brand-colour"
                          value={c.value}
                          checked={d.colour.toLowerCase() === c.value}
                          onChange={() => set({ colour: c.value })}
                          className="sr-only"
                        />
                        <span aria-hidden="true" className="h-6 w-6 rounded-full border border-sand-300" style={{ background: c.value }} />
                        {c.label}
                      </label>
                    ))}
                  </div>
                  {e.colour && <p className="mt-1 text-xs font-medium text-danger-600">{e.colour}</p>}
                </fieldset>
              </div>
            )}
          </GroupForm>
        </Card>

        <Card title="Contact" actions={<LastChange at={s.contact.updatedAt} by={s.contact.updatedBy} />}>
          <GroupForm
            key={`contact-${s.contact.version}`}
            group="contact"
            initial={strip(s.contact)}
            version={s.contact.version}
            canWrite={canWrite}
            onSaved={saved}
          >
            {(d, set, e) => (
              <div className="grid gap-4 md:grid-cols-2">
                <TextField
                  id="contact-hotline"
                  label="Hotline"
                  type="tel"
                  value={d.hotline}
                  onChange={(hotline) => set({ hotline })}
                  error={e.hotline}
                  hint="A short code such as 16770, or a number such as 09612 016770"
                />
                <TextField
                  id="contact-international"
                  label="Hotline from abroad"
                  type="tel"
                  value={d.hotlineInternational}
                  onChange={(hotlineInternational) => set({ hotlineInternational })}
                  error={e.hotlineInternational}
                  hint="With the country code, such as +880 9612 016770; empty to hide it"
                />
                <div className="md:col-span-2">
                  <TextField id="contact-address" label="Address" value={d.address} onChange={(address) => set({ address })} error={e.address} />
                </div>
                <TextField
                  id="contact-support"
                  label="Support email"
                  type="email"
                  value={d.supportEmail}
                  onChange={(supportEmail) => set({ supportEmail })}
                  error={e.supportEmail}
                />
                <TextField
                  id="contact-orders"
                  label="Order email"
                  type="email"
                  value={d.orderEmail}
                  onChange={(orderEmail) => set({ orderEmail })}
                  error={e.orderEmail}
                  hint="Hears of every new order; empty: nobody"
                />
              </div>
            )}
          </GroupForm>
        </Card>

        <Card title="Social links" actions={<LastChange at={s.social.updatedAt} by={s.social.updatedBy} />}>
          <GroupForm key={`social-${s.social.version}`} group="social" initial={strip(s.social)} version={s.social.version} canWrite={canWrite} onSaved={saved}>
            {(d, set, e) => (
              <div className="grid gap-4 md:grid-cols-2">
                {(
                  [
                    ['facebook', 'Facebook'],
                    ['instagram', 'Instagram'],
                    ['youtube', 'YouTube'],
                    ['linkedin', 'LinkedIn'],
                  ] as const
                ).map(([k, label]) => (
                  <TextField
                    key={k}
                    id={`social-${k}`}
                    label={label}
                    type="url"
                    value={d[k]}
                    onChange={(v) => set({ [k]: v })}
                    error={e[k]}
                    hint="An https:// address; empty hides it"
                  />
                ))}
              </div>
            )}
          </GroupForm>
        </Card>

        <Card title="Company" actions={<LastChange at={s.company.updatedAt} by={s.company.updatedBy} />}>
          <GroupForm
            key={`company-${s.company.version}`}
            group="company"
            initial={strip(s.company)}
            version={s.company.version}
            canWrite={canWrite}
            onSaved={saved}
          >
            {(d, set, e) => (
              <div className="grid gap-4 md:grid-cols-3">
                <TextField id="company-tin" label="TIN" value={d.tin} onChange={(tin) => set({ tin })} error={e.tin} hint="As printed, e.g. TIN 482915736104" />
                <TextField
                  id="company-bin"
                  label="BIN"
                  value={d.bin}
                  onChange={(bin) => set({ bin })}
                  error={e.bin}
                  hint="As printed, e.g. BIN 004518273-0101"
                />
                <TextField
                  id="company-licence"
                  label="Trade licence"
                  value={d.tradeLicence}
                  onChange={(tradeLicence) => set({ tradeLicence })}
                  error={e.tradeLicence}
                />
              </div>
            )}
          </GroupForm>
        </Card>

        <Card title="Payment logos" actions={<LastChange at={s.payments.updatedAt} by={s.payments.updatedBy} />}>
          <GroupForm
            key={`payments-${s.payments.version}`}
            group="payments"
            initial={strip(s.payments)}
            version={s.payments.version}
            canWrite={canWrite}
            onSaved={saved}
          >
            {(d, set, e) => (
              <div className="flex flex-col gap-3">
                <fieldset>
                  <legend className="text-sm font-medium">Shown in the footer under “We accept”</legend>
                  <div className="mt-2 flex flex-wrap gap-4">
                    {PAYMENT_LOGOS.map((l) => (
                      <label key={l} className="flex items-center gap-2 text-sm">
                        <input
                          type="checkbox"
                          className="h-4 w-4"
                          checked={d.logos.includes(l)}
                          onChange={(ev) => set({ logos: ev.target.checked ? [...d.logos, l] : d.logos.filter((x) => x !== l) })}
                        />
                        {PAYMENT_LOGO_LABELS[l]}
                      </label>
                    ))}
                  </div>
                  {e.logos && <p className="mt-1 text-xs font-medium text-danger-600">{e.logos}</p>}
                </fieldset>
                <label className="flex items-center gap-2 text-sm">
                  <input type="checkbox" className="h-4 w-4" checked={d.sslLogo} onChange={(ev) => set({ sslLogo: ev.target.checked })} />
                  Show the “Secured by SSLCOMMERZ” badge
                </label>
              </div>
            )}
          </GroupForm>
        </Card>
      </div>
    </AdminPage>
  );
}
