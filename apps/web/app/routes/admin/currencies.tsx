import { BASE_CURRENCY, MAX_CURRENCY_RATE, type TAdminCurrency } from '@storefront/shared';
import { type FormEvent, useState } from 'react';
import { adminRead } from '../../components/admin/admin-api.server.ts';
import { AdminPage, Card, describedBy, Field, inputClass, Notice, useSavedNotice } from '../../components/admin/admin-ui.tsx';
import { apiFetch } from '../../lib/api-client.ts';
import type { Route } from './+types/currencies';
import { may, useAdminSession } from './layout.tsx';

// The display currencies (spec §3; docs/decisions/0014 and 0037): the rate in taka per unit
// that the storefront divides prices by, and whether shoppers may choose the currency. BDT,
// the currency the shop charges in, stays on at rate 1.

export function meta() {
  return [{ title: 'Currencies · Back office' }];
}

export async function loader({ context, request }: Route.LoaderArgs) {
  return adminRead<{ items: TAdminCurrency[] }>(context, request, '/api/admin/currencies');
}

type Problem = { message: string; fields: Record<string, string> } | null;

const when = (iso: string | null) =>
  iso
    ? new Date(iso).toLocaleString('en-GB', { timeZone: 'Asia/Dhaka', day: 'numeric', month: 'short', year: 'numeric', hour: 'numeric', minute: '2-digit' })
    : '—';

/** A rate as staff type it: digits and one decimal point; null when it is not a number. */
function parseRate(text: string): number | null {
  const t = text.trim().replace(/,/g, '');
  if (!/^\d+(\.\d+)?$/.test(t)) return null;
  return Number(t);
}

function CurrencyRow({ c, canWrite, onSaved }: { c: TAdminCurrency; canWrite: boolean; onSaved(message: string): void }) {
  const [rate, setRate] = useState(String(c.rate));
  const [problem, setProblem] = useState<Problem>(null);
  const [busy, setBusy] = useState(false);
  const base = c.code === BASE_CURRENCY;
  const id = `rate-${c.code}`;
  const send = async (body: Record<string, unknown>, done: string) => {
    setBusy(true);
    const res = await apiFetch<TAdminCurrency>(`/api/admin/currencies/${c.code}`, { method: 'PATCH', body: { ...body, version: c.version } });
    setBusy(false);
    if (!res.ok) {
      setProblem({ message: res.error?.message ?? 'The currency was not saved', fields: res.error?.fields ?? {} });
      return;
    }
    setProblem(null);
    onSaved(done);
  };
  const saveRate = (e: FormEvent) => {
    e.preventDefault();
    const n = parseRate(rate);
    if (n === null) return setProblem({ message: '', fields: { rate: 'Type the rate as a number, e.g. 121.50' } });
    void send({ rate: n }, `${c.code}: 1 ${c.code} is now ৳${n}. The shop uses it from the next page.`);
  };
  const error = problem?.fields.rate ?? (problem && !Object.keys(problem.fields).length ? problem.message : undefined);
  return (
    <tr className="border-b border-sand-200 align-top">
      <th scope="row" className="py-3 pr-3 text-left">
        <span className="flex items-center gap-2 font-semibold">
          <img src={c.imageUrl} alt="" width={30} height={20} className="h-5 w-[30px] rounded-sm border border-sand-200" />
          {c.code}
        </span>
        <span className="text-sm font-normal capitalize text-ink-muted">{c.country}</span>
      </th>
      <td className="py-3 pr-3">
        {base || !canWrite ? (
          <span className="tabular-nums">৳{c.rate}</span>
        ) : (
          <form onSubmit={saveRate} noValidate className="flex items-start gap-2">
            <div className="w-36">
              <Field id={id} label={`Taka per ${c.code}`} error={error}>
                <input className={inputClass} inputMode="decimal" value={rate} onChange={(e) => setRate(e.target.value)} {...describedBy(id, error)} />
              </Field>
            </div>
            <button
              type="submit"
              disabled={busy}
              className="mt-6 h-10 rounded-lg border border-sand-300 px-3 text-sm font-semibold hover:bg-sand-100 disabled:opacity-60"
            >
              Save rate
            </button>
          </form>
        )}
        {base && <p className="text-xs text-ink-muted">The shop charges in taka: always 1.</p>}
        {(base || !canWrite) && problem && <p className="text-xs font-medium text-danger-600">{problem.message}</p>}
      </td>
      <td className="py-3 pr-3">
        <span className={c.enabled ? 'font-medium text-success-600' : 'text-ink-muted'}>{c.enabled ? 'Offered' : 'Hidden'}</span>
        {canWrite && !base && (
          <button
            type="button"
            disabled={busy}
            onClick={() => send({ enabled: !c.enabled }, c.enabled ? `${c.code} is hidden from shoppers.` : `${c.code} is offered to shoppers again.`)}
            className="ml-3 h-9 rounded-lg border border-sand-300 px-3 text-sm hover:bg-sand-100 disabled:opacity-60"
          >
            {c.enabled ? `Hide ${c.code}` : `Offer ${c.code}`}
          </button>
        )}
      </td>
      <td className="py-3 text-sm text-ink-muted">
        {when(c.updatedAt)}
        {c.updatedBy && <span className="block">{c.updatedBy}</span>}
      </td>
    </tr>
  );
}

function AddCurrency({ onSaved }: { onSaved(message: string): void }) {
  const empty = { code: '', country: '', rate: '', numCode: '' };
  const [draft, setDraft] = useState(empty);
  const [problem, setProblem] = useState<Problem>(null);
  const [busy, setBusy] = useState(false);
  const rate = parseRate(draft.rate);
  const fields: Record<string, string | undefined> = {
    ...problem?.fields,
    ...(draft.rate && rate === null ? { rate: 'Type the rate as a number, e.g. 32.50' } : {}),
  };
  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (rate === null) return setProblem({ message: '', fields: { rate: 'Type the rate as a number, e.g. 32.50' } });
    setBusy(true);
    const res = await apiFetch<TAdminCurrency>('/api/admin/currencies', { method: 'POST', body: { ...draft, rate } });
    setBusy(false);
    if (!res.ok) {
      setProblem({ message: res.error?.message ?? 'The currency was not added', fields: res.error?.fields ?? {} });
      return;
    }
    setProblem(null);
    setDraft(empty);
    onSaved(`${res.data.code} added: shoppers can choose it from the next page.`);
  };
  const input = (key: keyof typeof empty, label: string, hint?: string, extra: Record<string, unknown> = {}) => (
    <Field id={`new-${key}`} label={label} hint={hint} error={fields[key]}>
      <input
        className={inputClass}
        value={draft[key]}
        onChange={(e) => setDraft({ ...draft, [key]: e.target.value })}
        {...describedBy(`new-${key}`, fields[key])}
        {...extra}
      />
    </Field>
  );
  return (
    <form onSubmit={save} noValidate className="grid gap-4 md:grid-cols-5">
      {problem && !Object.keys(problem.fields).length && (
        <div className="md:col-span-5">
          <Notice tone="error">{problem.message}</Notice>
        </div>
      )}
      {input('code', 'Code', 'ISO 4217, e.g. SAR', { maxLength: 3, autoCapitalize: 'characters' })}
      {input('country', 'Country')}
      {input('rate', 'Taka per unit', `More than 0, at most ${MAX_CURRENCY_RATE.toLocaleString('en-US')}`, { inputMode: 'decimal' })}
      {input('numCode', 'Calling code', 'e.g. +966; may be empty')}
      <div className="flex items-end">
        <button
          type="submit"
          disabled={busy}
          className="h-10 rounded-lg bg-brand-700 px-4 text-sm font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
        >
          Add the currency
        </button>
      </div>
    </form>
  );
}

export default function AdminCurrencies({ loaderData }: Route.ComponentProps) {
  const session = useAdminSession();
  const canWrite = may(session, 'content.write');
  const { notice, saved } = useSavedNotice();
  return (
    <AdminPage
      title="Currencies"
      description="Shoppers may see prices in these currencies; a price shown is the taka amount divided by the rate. The shop always charges in taka."
    >
      <div className="flex flex-col gap-6">
        {notice && <Notice tone="success">{notice}</Notice>}
        <Card>
          <div className="overflow-x-auto">
            <table className="w-full text-sm">
              <caption className="sr-only">Display currencies</caption>
              <thead>
                <tr className="border-b border-sand-300 text-left">
                  <th scope="col" className="py-2 pr-3">
                    Currency
                  </th>
                  <th scope="col" className="py-2 pr-3">
                    Rate (taka per unit)
                  </th>
                  <th scope="col" className="py-2 pr-3">
                    Shown to shoppers
                  </th>
                  <th scope="col" className="py-2">
                    Last changed
                  </th>
                </tr>
              </thead>
              <tbody>
                {loaderData.items.map((c) => (
                  <CurrencyRow key={`${c.code}-${c.version}`} c={c} canWrite={canWrite} onSaved={saved} />
                ))}
              </tbody>
            </table>
          </div>
        </Card>
        {canWrite && (
          <Card title="Add a currency">
            <AddCurrency onSaved={saved} />
          </Card>
        )}
      </div>
    </AdminPage>
  );
}
