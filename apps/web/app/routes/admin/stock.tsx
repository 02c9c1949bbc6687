import type { TAdminReference, TLowStockRow } from '@storefront/shared';
import { Link } from 'react-router';
import { adminRead } from '../../components/admin/admin-api.server.ts';
import { AdminPage, Pagination, StatusBadge } from '../../components/admin/admin-ui.tsx';
import type { Route } from './+types/stock';

// Low stock (docs/decisions/0031): skus at or below their threshold (their own, or the
// shop's default of 3) in all branches together, the emptiest first.

export function meta() {
  return [{ title: 'Low stock · Back office' }];
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const page = new URL(request.url).searchParams.get('page') ?? '1';
  const [low, reference] = await Promise.all([
    adminRead<{ items: TLowStockRow[]; total: number; page: number; size: number }>(
      context,
      request,
      `/api/admin/stock/low?size=50&page=${encodeURIComponent(page)}`,
    ),
    adminRead<TAdminReference>(context, request, '/api/admin/reference'),
  ]);
  return { low, branches: reference.branches };
}

export default function LowStock({ loaderData }: Route.ComponentProps) {
  const { low, branches } = loaderData;
  return (
    <AdminPage title="Low stock" description={`${low.total} skus at or below their low-stock level`}>
      <div className="overflow-x-auto rounded-card border border-sand-200 bg-paper">
        <table className="w-full min-w-[40rem] border-collapse text-sm">
          <caption className="sr-only">Skus low on stock, emptiest first</caption>
          <thead className="border-b border-sand-200 bg-sand-50">
            <tr>
              <th scope="col" className="px-3 py-2 text-left font-semibold">
                Sku
              </th>
              {branches.map((b) => (
                <th key={b.id} scope="col" className="px-3 py-2 text-right font-semibold">
                  {b.name}
                </th>
              ))}
              <th scope="col" className="px-3 py-2 text-right font-semibold">
                In all
              </th>
              <th scope="col" className="px-3 py-2 text-right font-semibold">
                Low at
              </th>
            </tr>
          </thead>
          <tbody>
            {low.items.map((r) => (
              <tr key={r.skuId} className="border-b border-sand-100 last:border-0">
                <th scope="row" className="min-w-56 px-3 py-2 text-left font-normal">
                  <Link to={`/admin/products/${r.productId}`} className="font-medium text-brand-700 hover:underline">
                    {r.code}
                  </Link>
                  <span className="block text-xs text-ink-muted">
                    {r.title} {r.status !== 'published' && <StatusBadge status={r.status} />}
                  </span>
                </th>
                {branches.map((b) => (
                  <td key={b.id} className="px-3 py-2 text-right tabular-nums">
                    {r.byBranch.find((x) => x.branchId === b.id)?.quantity ?? 0}
                  </td>
                ))}
                <td className={`px-3 py-2 text-right font-semibold tabular-nums ${r.total === 0 ? 'text-danger-600' : ''}`}>{r.total}</td>
                <td className="px-3 py-2 text-right tabular-nums text-ink-muted">{r.threshold}</td>
              </tr>
            ))}
            {!low.items.length && (
              <tr>
                <td colSpan={branches.length + 3} className="px-3 py-10 text-center text-ink-muted">
                  Nothing is low on stock.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      <Pagination page={low.page} size={low.size} total={low.total} />
    </AdminPage>
  );
}
