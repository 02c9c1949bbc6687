import { DISCOUNT_STATES, type TAdminCoupon } from '@storefront/shared';
import { Link, useSearchParams } from 'react-router';
import { adminRead } from '../../components/admin/admin-api.server.ts';
import { AdminPage, FilterBar, inputClass, Pagination, taka, EmptyRow } from '../../components/admin/admin-ui.tsx';
import { PromotionStateBadge, STATE_LABELS, valueText, windowText } from '../../components/admin/promotion-parts.tsx';
import type { Route } from './+types/coupons';
import { may, useAdminSession } from './layout.tsx';

// Coupons (docs/decisions/0034): every code with its terms, state and uses, searched and
// paged by the server; the address holds the view.

export function meta() {
  return [{ title: 'Coupons · Back office' }];
}

const KEEP = ['q', 'state', 'page', 'size'];

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const query = new URLSearchParams();
  for (const k of KEEP) {
    const v = url.searchParams.get(k);
    if (v) query.set(k, v);
  }
  return adminRead<{ items: TAdminCoupon[]; total: number; page: number; size: number }>(context, request, `/api/admin/promotions/coupons?${query}`);
}

export default function AdminCoupons({ loaderData: page }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const session = useAdminSession();
  return (
    <AdminPage
      title="Coupons"
      description="Codes shoppers type at checkout. One coupon per order, taken after the discounts."
      actions={
        may(session, 'promotions.write') ? (
          <Link
            to="/admin/coupons/new"
            className="inline-flex h-10 items-center rounded-lg bg-brand-700 px-4 text-sm font-semibold text-white hover:bg-brand-800"
          >
            New coupon
          </Link>
        ) : undefined
      }
    >
      <FilterBar>
        <label className="flex min-w-56 flex-1 flex-col gap-1 text-sm font-medium">
          Search
          <input className={inputClass} type="search" name="q" defaultValue={params.get('q') ?? ''} placeholder="Code or title" />
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          State
          <select className={inputClass} name="state" defaultValue={params.get('state') ?? ''}>
            <option value="">Any</option>
            {DISCOUNT_STATES.map((s) => (
              <option key={s} value={s}>
                {STATE_LABELS[s]}
              </option>
            ))}
          </select>
        </label>
      </FilterBar>

      <div className="overflow-x-auto rounded-card border border-sand-200 bg-paper">
        <table className="w-full min-w-[52rem] border-collapse text-sm">
          <caption className="sr-only">Coupons</caption>
          <thead className="border-b border-sand-200 bg-sand-50">
            <tr>
              <th scope="col" className="px-3 py-2 text-left font-semibold">
                Code
              </th>
              <th scope="col" className="px-3 py-2 text-left font-semibold">
                Title
              </th>
              <th scope="col" className="px-3 py-2 text-left font-semibold">
                Discount
              </th>
              <th scope="col" className="px-3 py-2 text-right font-semibold">
                Minimum order
              </th>
              <th scope="col" className="px-3 py-2 text-right font-semibold">
                Uses
              </th>
              <th scope="col" className="px-3 py-2 text-left font-semibold">
                When
              </th>
              <th scope="col" className="px-3 py-2 text-left font-semibold">
                State
              </th>
            </tr>
          </thead>
          <tbody>
            {page.items.map((c) => (
              <tr key={c.id} className="border-b border-sand-100 last:border-0 hover:bg-sand-50">
                <td className="px-3 py-2">
                  <Link to={`/admin/coupons/${c.id}`} className="font-mono font-medium text-brand-700 hover:underline">
                    {c.code}
                  </Link>
                  {!c.isPublic && <span className="ml-2 text-xs text-ink-muted">private</span>}
                </td>
                <td className="px-3 py-2">{c.title}</td>
                <td className="whitespace-nowrap px-3 py-2 tabular-nums">
                  {valueText(c.discountType, c.value)}
                  {c.maxAmount != null && <span className="text-ink-muted"> (at most {taka(c.maxAmount)})</span>}
                </td>
                <td className="px-3 py-2 text-right tabular-nums">{c.minimumOrder != null ? taka(c.minimumOrder) : '—'}</td>
                <td className="px-3 py-2 text-right tabular-nums">
                  {c.uses}
                  {c.usageLimit != null ? ` / ${c.usageLimit}` : ''}
                </td>
                <td className="px-3 py-2 text-ink-muted">{windowText(c.startsAt, c.endsAt)}</td>
                <td className="px-3 py-2">
                  <PromotionStateBadge state={c.state} />
                </td>
              </tr>
            ))}
            {!page.items.length && (
              <EmptyRow colSpan={7}>{params.get('q') || params.get('state') ? 'No coupons match this search.' : 'No coupons yet.'}</EmptyRow>
            )}
          </tbody>
        </table>
      </div>
      <Pagination page={page.page} size={page.size} total={page.total} />
    </AdminPage>
  );
}
