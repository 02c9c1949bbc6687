import { DISCOUNT_STATES, type TAdminDiscountRow } from '@storefront/shared';
import { Link, useSearchParams } from 'react-router';
import { adminRead } from '../../components/admin/admin-api.server.ts';
import { AdminPage, FilterBar, inputClass, Pagination, EmptyRow } from '../../components/admin/admin-ui.tsx';
import { PromotionStateBadge, STATE_LABELS, valueText, windowText } from '../../components/admin/promotion-parts.tsx';
import type { Route } from './+types/discounts';
import { may, useAdminSession } from './layout.tsx';

// Global discounts (docs/decisions/0034): every discount with where it stands now, searched
// and paged by the server; the address holds the view.

export function meta() {
  return [{ title: 'Discounts · Back office' }];
}

const KEEP = ['q', 'state', 'page', 'size'];

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const query = new URLSearchParams();
  for (const k of KEEP) {
    const v = url.searchParams.get(k);
    if (v) query.set(k, v);
  }
  return adminRead<{ items: TAdminDiscountRow[]; total: number; page: number; size: number }>(context, request, `/api/admin/promotions/discounts?${query}`);
}

const KIND_LABELS = { FIXED_CATEGORY: 'Categories', FIXED_PRODUCT: 'Products' } as const;

export default function AdminDiscounts({ loaderData: page }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const session = useAdminSession();
  return (
    <AdminPage
      title="Discounts"
      description="Shop-wide discounts on categories or products. Where several reach a product, the largest saving wins; they never add up."
      actions={
        may(session, 'promotions.write') ? (
          <Link
            to="/admin/discounts/new"
            className="inline-flex h-10 items-center rounded-lg bg-brand-700 px-4 text-sm font-semibold text-white hover:bg-brand-800"
          >
            New discount
          </Link>
        ) : undefined
      }
    >
      <FilterBar>
        <label className="flex min-w-56 flex-1 flex-col gap-1 text-sm font-medium">
          Search
          <input className={inputClass} type="search" name="q" defaultValue={params.get('q') ?? ''} placeholder="Title" />
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
        <table className="w-full min-w-[48rem] border-collapse text-sm">
          <caption className="sr-only">Global discounts</caption>
          <thead className="border-b border-sand-200 bg-sand-50">
            <tr>
              <th scope="col" className="px-3 py-2 text-left font-semibold">
                Title
              </th>
              <th scope="col" className="px-3 py-2 text-left font-semibold">
                Discount
              </th>
              <th scope="col" className="px-3 py-2 text-left font-semibold">
                On
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
            {page.items.map((d) => (
              <tr key={d.id} className="border-b border-sand-100 last:border-0 hover:bg-sand-50">
                <td className="px-3 py-2">
                  <Link to={`/admin/discounts/${d.id}`} className="font-medium text-brand-700 hover:underline">
                    {d.title}
                  </Link>
                </td>
                <td className="whitespace-nowrap px-3 py-2 tabular-nums">{valueText(d.discountType, d.value)}</td>
                <td className="whitespace-nowrap px-3 py-2">
                  {d.targets} {KIND_LABELS[d.type].toLowerCase()}
                </td>
                <td className="px-3 py-2 text-ink-muted">{windowText(d.startsAt, d.endsAt)}</td>
                <td className="px-3 py-2">
                  <PromotionStateBadge state={d.state} />
                </td>
              </tr>
            ))}
            {!page.items.length && (
              <EmptyRow colSpan={5}>{params.get('q') || params.get('state') ? 'No discounts match this search.' : 'No discounts yet.'}</EmptyRow>
            )}
          </tbody>
        </table>
      </div>
      <Pagination page={page.page} size={page.size} total={page.total} />
    </AdminPage>
  );
}
