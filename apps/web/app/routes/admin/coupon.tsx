import { parseTaka, type TAdminCoupon, type TCouponUsages, takaInput } from '@storefront/shared';
import { useState } from 'react';
import { Link, useNavigate, useRevalidator } from 'react-router';
import { adminRead } from '../../components/admin/admin-api.server.ts';
import { AdminPage, Card, describedBy, Field, inputClass, Notice, Pagination, taka } from '../../components/admin/admin-ui.tsx';
import {
  fromDhakaInput,
  OnOffSwitch,
  PERCENT_HINT,
  PromotionStateBadge,
  toDhakaInput,
  valueText,
  windowText,
} from '../../components/admin/promotion-parts.tsx';
import { apiFetch } from '../../lib/api-client.ts';
import type { Route } from './+types/coupon';
import { may, useAdminSession } from './layout.tsx';

// One coupon (docs/decisions/0034): its terms, its switch, and the orders that used it with
// what it gave. Checkout reads coupons afresh, so a change applies to the next quote.

export function meta({ data }: Route.MetaArgs) {
  return [{ title: `${data?.coupon?.code ?? 'New coupon'} · Back office` }];
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const id = (params as { id?: string }).id;
  if (!id) return { coupon: null, usages: null };
  const page = new URL(request.url).searchParams.get('page') ?? '1';
  const [coupon, usages] = await Promise.all([
    adminRead<TAdminCoupon>(context, request, `/api/admin/promotions/coupons/${encodeURIComponent(id)}`),
    adminRead<TCouponUsages>(context, request, `/api/admin/promotions/coupons/${encodeURIComponent(id)}/usages?size=25&page=${encodeURIComponent(page)}`),
  ]);
  return { coupon, usages };
}

type Draft = {
  code: string;
  title: string;
  discountType: 'PERCENTAGE' | 'AMOUNT';
  value: string;
  maxAmount: string;
  minimumOrder: string;
  startsAt: string;
  endsAt: string;
  usageLimit: string;
  perCustomerLimit: string;
  isPublic: boolean;
  active: boolean;
};

const draftOf = (c: TAdminCoupon | null): Draft => ({
  code: c?.code ?? '',
  title: c?.title ?? '',
  discountType: c?.discountType ?? 'AMOUNT',
  value: c ? (c.discountType === 'PERCENTAGE' ? String(c.value) : takaInput(c.value)) : '',
  maxAmount: c?.maxAmount != null ? takaInput(c.maxAmount) : '',
  minimumOrder: c?.minimumOrder != null ? takaInput(c.minimumOrder) : '',
  startsAt: toDhakaInput(c?.startsAt ?? null),
  endsAt: toDhakaInput(c?.endsAt ?? null),
  usageLimit: c?.usageLimit != null ? String(c.usageLimit) : '',
  perCustomerLimit: c?.perCustomerLimit != null ? String(c.perCustomerLimit) : '',
  isPublic: c?.isPublic ?? false,
  active: c?.active ?? true,
});

/** The draft as the API takes it, or the fields the browser can already tell are wrong. */
function bodyOf(d: Draft): { body?: Record<string, unknown>; fields: Record<string, string> } {
  const fields: Record<string, string> = {};
  const money = (key: keyof Draft, text: string) => {
    if (!text.trim()) return null;
    const v = parseTaka(text);
    if (v === null) fields[key] = 'Type an amount in taka, or leave it empty';
    return v;
  };
  const count = (key: keyof Draft, text: string) => {
    if (!text.trim()) return null;
    if (!/^\d{1,8}$/.test(text.trim())) fields[key] = 'Type a whole number, or leave it empty';
    return Number(text.trim());
  };
  let value: number | null;
  if (d.discountType === 'PERCENTAGE') {
    value = /^\d{1,3}$/.test(d.value.trim()) ? Number(d.value.trim()) : null;
    if (value === null) fields.value = 'Type a whole number of per cent';
  } else {
    value = parseTaka(d.value);
    if (value === null) fields.value = 'Type an amount in taka';
  }
  const startsAt = fromDhakaInput(d.startsAt);
  const endsAt = fromDhakaInput(d.endsAt);
  if (startsAt === undefined) fields.startsAt = 'Pick a date and time';
  if (endsAt === undefined) fields.endsAt = 'Pick a date and time';
  const body = {
    code: d.code,
    title: d.title,
    discountType: d.discountType,
    value,
    maxAmount: d.discountType === 'PERCENTAGE' ? money('maxAmount', d.maxAmount) : null,
    minimumOrder: money('minimumOrder', d.minimumOrder),
    startsAt,
    endsAt,
    usageLimit: count('usageLimit', d.usageLimit),
    perCustomerLimit: count('perCustomerLimit', d.perCustomerLimit),
    isPublic: d.isPublic,
    active: d.active,
  };
  return Object.keys(fields).length ? { fields } : { body, fields };
}

const WHEN = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZone: 'Asia/Dhaka' });

function Usages({ usages }: { usages: TCouponUsages }) {
  return (
    <div>
      <dl className="mb-4 flex flex-wrap gap-6 text-sm">
        <div>
          <dt className="text-ink-muted">Uses</dt>
          <dd className="text-lg font-semibold tabular-nums">{usages.totals.uses.toLocaleString('en-US')}</dd>
        </div>
        <div>
          <dt className="text-ink-muted">Given in all</dt>
          <dd className="text-lg font-semibold tabular-nums">{taka(usages.totals.amount)}</dd>
        </div>
      </dl>
      <div className="overflow-x-auto rounded-card border border-sand-200">
        <table className="w-full min-w-[36rem] border-collapse text-sm">
          <caption className="sr-only">Orders that used this coupon</caption>
          <thead className="border-b border-sand-200 bg-sand-50">
            <tr>
              <th scope="col" className="px-3 py-2 text-left font-semibold">
                Order
              </th>
              <th scope="col" className="px-3 py-2 text-left font-semibold">
                Date
              </th>
              <th scope="col" className="px-3 py-2 text-left font-semibold">
                Customer
              </th>
              <th scope="col" className="px-3 py-2 text-right font-semibold">
                Amount given
              </th>
            </tr>
          </thead>
          <tbody>
            {usages.items.map((u) => (
              <tr key={u.id} className="border-b border-sand-100 last:border-0">
                <td className="px-3 py-2">
                  {u.saleId != null ? (
                    <Link to={`/admin/orders/${u.saleId}`} className="font-mono font-medium text-brand-700 hover:underline">
                      {u.invoiceId}
                    </Link>
                  ) : (
                    <span className="text-ink-muted">—</span>
                  )}
                </td>
                <td className="whitespace-nowrap px-3 py-2">{WHEN.format(new Date(u.usedAt))}</td>
                <td className="px-3 py-2">
                  {u.customerId != null ? (
                    <Link to={`/admin/customers/${u.customerId}`} className="text-brand-700 hover:underline">
                      {u.name ?? 'Customer'}
                    </Link>
                  ) : (
                    <>
                      {u.name ?? '—'} <span className="text-xs text-ink-muted">(guest)</span>
                    </>
                  )}
                </td>
                <td className="px-3 py-2 text-right tabular-nums">{taka(u.amount)}</td>
              </tr>
            ))}
            {!usages.items.length && (
              <tr>
                <td colSpan={4} className="px-3 py-6 text-center text-ink-muted">
                  No order has used this coupon yet.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      {usages.total > usages.size && <Pagination page={usages.page} size={usages.size} total={usages.total} />}
    </div>
  );
}

export default function AdminCoupon({ loaderData }: Route.ComponentProps) {
  const { coupon, usages } = loaderData;
  const session = useAdminSession();
  const canWrite = may(session, 'promotions.write');
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const [draft, setDraft] = useState<Draft>(() => draftOf(coupon));
  const [problem, setProblem] = useState<{ message: string; fields: Record<string, string> } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const fields = problem?.fields ?? {};

  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    const { body, fields: local } = bodyOf(draft);
    if (!body) return setProblem({ message: 'Please check the marked fields', fields: local });
    setBusy(true);
    const res = await apiFetch<TAdminCoupon>(coupon ? `/api/admin/promotions/coupons/${coupon.id}` : '/api/admin/promotions/coupons', {
      method: coupon ? 'PUT' : 'POST',
      body: coupon ? { ...body, active: coupon.active, version: coupon.version } : body,
    });
    setBusy(false);
    if (!res.ok) return setProblem({ message: res.error?.message ?? 'The coupon was not saved', fields: res.error?.fields ?? {} });
    setProblem(null);
    if (!coupon) {
      navigate(`/admin/coupons/${res.data.id}`);
      return;
    }
    setDraft(draftOf(res.data));
    setNotice('Saved. The next checkout uses the new terms.');
    revalidator.revalidate();
  };

  const toggle = async () => {
    if (!coupon) return;
    setBusy(true);
    const res = await apiFetch<TAdminCoupon>(`/api/admin/promotions/coupons/${coupon.id}`, {
      method: 'PATCH',
      body: { active: !coupon.active, version: coupon.version },
    });
    setBusy(false);
    if (!res.ok) return setProblem({ message: res.error?.message ?? 'The coupon was not switched', fields: {} });
    setProblem(null);
    setNotice(res.data.active ? 'Switched on.' : 'Switched off. Checkout no longer takes this code.');
    revalidator.revalidate();
  };

  const input = (key: Exclude<keyof Draft, 'discountType' | 'isPublic' | 'active'>, label: string, hint?: string, extra: Record<string, unknown> = {}) => (
    <Field id={`coupon-${key}`} label={label} hint={hint} error={fields[key]}>
      <input
        className={inputClass}
        value={draft[key]}
        disabled={!canWrite}
        onChange={(e) => setDraft({ ...draft, [key]: e.target.value })}
        {...describedBy(`coupon-${key}`, fields[key])}
        {...extra}
      />
    </Field>
  );

  return (
    <AdminPage
      title={coupon ? coupon.code : 'New coupon'}
      description={
        coupon ? (
          <span className="inline-flex flex-wrap items-center gap-2">
            <PromotionStateBadge state={coupon.state} /> {coupon.title} · {valueText(coupon.discountType, coupon.value)} ·{' '}
            {windowText(coupon.startsAt, coupon.endsAt)}
          </span>
        ) : (
          'A code shoppers type at checkout.'
        )
      }
      actions={
        <Link to="/admin/coupons" className="inline-flex h-10 items-center rounded-lg border border-sand-300 px-4 text-sm font-semibold hover:bg-sand-100">
          All coupons
        </Link>
      }
    >
      <div className="flex flex-col gap-6">
        {notice && <Notice tone="success">{notice}</Notice>}
        {problem && !Object.keys(problem.fields).length && <Notice tone="error">{problem.message}</Notice>}

        {coupon && (
          <Card title="At checkout">
            <div className="flex flex-wrap items-center gap-4">
              <OnOffSwitch on={coupon.active} label="Coupon at checkout" disabled={!canWrite || busy} onToggle={toggle} />
              <p className="text-sm text-ink-muted">Switched off, the code is refused like one that never existed.</p>
            </div>
          </Card>
        )}

        <Card title="Terms">
          <form onSubmit={save} noValidate className="grid gap-4 md:grid-cols-6" aria-label="Coupon terms">
            <div className="md:col-span-2">
              {input('code', 'Code', '3 to 32 letters, digits, - or _; the same whatever the case', { autoCapitalize: 'characters', spellCheck: false })}
            </div>
            <div className="md:col-span-4">{input('title', 'Title', 'Shown to the shopper when the code applies')}</div>
            <fieldset className="md:col-span-2">
              <legend className="text-sm font-medium">Kind</legend>
              <div className="mt-2 flex gap-4 text-sm">
                {(
                  [
                    ['AMOUNT', 'Amount in taka'],
                    ['PERCENTAGE', 'Percentage'],
                  ] as const
                ).map(([v, label]) => (
                  <label key={v} className="inline-flex items-center gap-2">
                    <input
                      type="radio"
                      name="discountType"
                      value={v}
                      checked={draft.discountType === v}
                      disabled={!canWrite}
                      onChange={() => setDraft({ ...draft, discountType: v })}
                    />
                    {label}
                  </label>
                ))}
              </div>
            </fieldset>
            <div className="md:col-span-2">
              {draft.discountType === 'PERCENTAGE'
                ? input('value', 'Per cent off', PERCENT_HINT, { inputMode: 'numeric' })
                : input('value', 'Taka off (৳)', undefined, { inputMode: 'decimal' })}
            </div>
            <div className="md:col-span-2">
              {draft.discountType === 'PERCENTAGE' && input('maxAmount', 'At most (৳)', 'Empty: no cap', { inputMode: 'decimal' })}
            </div>
            <div className="md:col-span-2">{input('minimumOrder', 'Minimum order (৳)', 'After discounts; empty: none', { inputMode: 'decimal' })}</div>
            <div className="md:col-span-2">{input('startsAt', 'Starts (Dhaka time)', 'Empty: at once', { type: 'datetime-local' })}</div>
            <div className="md:col-span-2">{input('endsAt', 'Ends (Dhaka time)', 'Empty: no end', { type: 'datetime-local' })}</div>
            <div className="md:col-span-2">{input('usageLimit', 'Uses in all', 'Empty: no limit', { inputMode: 'numeric' })}</div>
            <div className="md:col-span-2">
              {input('perCustomerLimit', 'Uses per customer', 'Set: only signed-in customers can use it', { inputMode: 'numeric' })}
            </div>
            <label className="inline-flex items-center gap-2 self-end text-sm md:col-span-2">
              <input type="checkbox" checked={draft.isPublic} disabled={!canWrite} onChange={(e) => setDraft({ ...draft, isPublic: e.target.checked })} />
              Public (listed to shoppers)
            </label>
            {!coupon && canWrite && (
              <label className="inline-flex items-center gap-2 text-sm md:col-span-6">
                <input type="checkbox" checked={draft.active} onChange={(e) => setDraft({ ...draft, active: e.target.checked })} />
                Switched on
              </label>
            )}
            {canWrite && (
              <div className="md:col-span-6">
                <button
                  type="submit"
                  disabled={busy}
                  className="h-10 rounded-lg bg-brand-700 px-4 text-sm font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
                >
                  {coupon ? 'Save' : 'Save the coupon'}
                </button>
              </div>
            )}
          </form>
        </Card>

        {usages && (
          <Card title="Orders that used it">
            <Usages usages={usages} />
          </Card>
        )}
      </div>
    </AdminPage>
  );
}
