import type { TAdminProductRow, TAdminReference } from '@storefront/shared';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { adminRead } from '../../components/admin/admin-api.server.ts';
import { AdminPage, FilterBar, inputClass, Pagination, SortHeader, StatusBadge, taka } from '../../components/admin/admin-ui.tsx';
import type { Route } from './+types/products';
import { may, useAdminSession } from './layout.tsx';

// The product list (docs/decisions/0031): paged, sorted, filtered and searched by the
// server; the page's address holds the whole view, so it can be shared and reloaded.

export function meta() {
  return [{ title: 'Products · Back office' }];
}

const KEEP = ['q', 'categoryId', 'status', 'stock', 'sort', 'dir', 'page', 'size'];

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const query = new URLSearchParams();
  for (const k of KEEP) {
    const v = url.searchParams.get(k);
    if (v) query.set(k, v);
  }
  const [page, reference] = await Promise.all([
    adminRead<{ items: TAdminProductRow[]; total: number; page: number; size: number }>(context, request, `/api/admin/products?${query}`),
    adminRead<TAdminReference>(context, request, '/api/admin/reference'),
  ]);
  return { page, categories: reference.categories };
}

export default function AdminProducts({ loaderData }: Route.ComponentProps) {
  const { page, categories } = loaderData;
  const [params] = useSearchParams();
  const session = useAdminSession();
  // Products chosen for a bulk price change, on this page.
  const [chosen, setChosen] = useState<Set<number>>(new Set());
  const canPrice = may(session, 'prices.write');
  const toggle = (id: number, on: boolean) =>
    setChosen((c) => {
      const next = new Set(c);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  return (
    <AdminPage
      title="Products"
      description={`${page.total.toLocaleString('en-US')} products`}
      actions={
        may(session, 'catalogue.write') && (
          <Link
            to="/admin/products/new"
            className="inline-flex h-10 items-center rounded-lg bg-brand-700 px-4 text-sm font-semibold text-white hover:bg-brand-800"
          >
            New product
          </Link>
        )
      }
    >
      <FilterBar>
        <label className="flex min-w-56 flex-1 flex-col gap-1 text-sm font-medium">
          Search
          <input className={inputClass} type="search" name="q" defaultValue={params.get('q') ?? ''} placeholder="Title, model or sku code" />
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          Category
          <select className={inputClass} name="categoryId" defaultValue={params.get('categoryId') ?? ''}>
            <option value="">All categories</option>
            {categories.map((c) => (
              <option key={c.id} value={c.id}>
                {`${'\u2003'.repeat(c.depth)}${c.name}`}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          Status
          <select className={inputClass} name="status" defaultValue={params.get('status') ?? ''}>
            <option value="">Any status</option>
            <option value="published">Published</option>
            <option value="draft">Draft</option>
            <option value="archived">Archived</option>
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          Stock
          <select className={inputClass} name="stock" defaultValue={params.get('stock') ?? ''}>
            <option value="">Any stock</option>
            <option value="in">In stock</option>
            <option value="low">Low stock</option>
            <option value="out">Out of stock</option>
          </select>
        </label>
        {params.get('sort') && <input type="hidden" name="sort" value={params.get('sort') ?? ''} />}
        {params.get('dir') && <input type="hidden" name="dir" value={params.get('dir') ?? ''} />}
      </FilterBar>

      {canPrice && chosen.size > 0 && (
        <div className="mb-3 flex flex-wrap items-center gap-3 rounded-lg border border-brand-100 bg-brand-50 px-4 py-2 text-sm" role="status">
          <span>
            {chosen.size} {chosen.size === 1 ? 'product' : 'products'} chosen
          </span>
          <Link to={`/admin/prices?ids=${[...chosen].join(',')}`} className="font-semibold text-brand-700 underline">
            Change their prices
          </Link>
          <button type="button" className="text-ink-muted underline" onClick={() => setChosen(new Set())}>
            Clear
          </button>
        </div>
      )}
      <div className="overflow-x-auto rounded-card border border-sand-200 bg-paper">
        <table className="w-full min-w-[40rem] border-collapse text-sm">
          <caption className="sr-only">Products, sorted by the column marked as sorted</caption>
          <thead className="border-b border-sand-200 bg-sand-50">
            <tr>
              {canPrice && (
                <th scope="col" className="w-10 px-3 py-2">
                  <span className="sr-only">Choose</span>
                </th>
              )}
              <th scope="col" className="w-14 px-3 py-2">
                <span className="sr-only">Picture</span>
              </th>
              <SortHeader column="title" label="Product" />
              <th scope="col" className="hidden px-3 py-2 text-left font-semibold lg:table-cell">
                Category
              </th>
              <th scope="col" className="px-3 py-2 text-left font-semibold">
                Status
              </th>
              <SortHeader column="price" label="Price from" className="text-right" />
              <SortHeader column="stock" label="Stock" className="text-right" />
              <SortHeader column="updated" label="Changed" />
            </tr>
          </thead>
          <tbody>
            {page.items.map((p) => (
              <tr key={p.id} className="border-b border-sand-100 last:border-0 hover:bg-sand-50">
                {canPrice && (
                  <td className="px-3 py-2">
                    <input
                      type="checkbox"
                      className="h-4 w-4 accent-brand-700"
                      aria-label={`Choose ${p.title}`}
                      checked={chosen.has(p.id)}
                      onChange={(e) => toggle(p.id, e.target.checked)}
                    />
                  </td>
                )}
                <td className="px-3 py-2">
                  {p.imageUrl ? (
                    <img src={p.imageUrl} alt="" width={40} height={40} className="h-10 w-10 rounded-md border border-sand-200 object-cover" loading="lazy" />
                  ) : (
                    <span className="block h-10 w-10 rounded-md bg-sand-100" />
                  )}
                </td>
                <td className="px-3 py-2">
                  <Link to={`/admin/products/${p.id}`} className="font-medium text-brand-700 hover:underline">
                    {p.title}
                  </Link>
                  <p className="text-xs text-ink-muted">
                    {p.modelCode ?? 'No model code'} · {p.skuCount} {p.skuCount === 1 ? 'sku' : 'skus'}
                    <span className="lg:hidden"> · {p.category}</span>
                  </p>
                </td>
                <td className="hidden px-3 py-2 lg:table-cell">{p.category}</td>
                <td className="px-3 py-2">
                  <StatusBadge status={p.status} />
                </td>
                <td className="px-3 py-2 text-right tabular-nums">{taka(p.price)}</td>
                <td className={`px-3 py-2 text-right tabular-nums ${p.stock === 0 ? 'font-semibold text-danger-600' : ''}`}>{p.stock}</td>
                <td className="whitespace-nowrap px-3 py-2 text-ink-muted">
                  {new Date(p.updatedAt).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'Asia/Dhaka' })}
                </td>
              </tr>
            ))}
            {!page.items.length && (
              <tr>
                <td colSpan={canPrice ? 8 : 7} className="px-3 py-10 text-center text-ink-muted">
                  No products match these filters.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      <Pagination page={page.page} size={page.size} total={page.total} />
    </AdminPage>
  );
}
