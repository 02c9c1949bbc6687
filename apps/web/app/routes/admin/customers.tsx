import type { TAdminCustomerRow } from '@storefront/shared';
import { Link, useSearchParams } from 'react-router';
import { adminRead } from '../../components/admin/admin-api.server.ts';
import { AdminPage, FilterBar, inputClass, Pagination, EmptyRow } from '../../components/admin/admin-ui.tsx';
import type { Route } from './+types/customers';

// The customer list (docs/decisions/0032): searched, filtered and paged by the server; the
// page's address holds the whole view, so it can be shared and reloaded.

export function meta() {
  return [{ title: 'Customers · Back office' }];
}

const KEEP = ['q', 'blocked', 'sort', 'page', 'size'];

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const query = new URLSearchParams();
  for (const k of KEEP) {
    const v = url.searchParams.get(k);
    if (v) query.set(k, v);
  }
  return adminRead<{ items: TAdminCustomerRow[]; total: number; page: number; size: number }>(context, request, `/api/admin/customers?${query}`);
}

const dhakaDate = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'Asia/Dhaka' });

function BlockedBadge() {
  return <span className="inline-block rounded-full bg-red-50 px-2 py-0.5 text-xs font-semibold text-danger-600">Blocked</span>;
}

export default function AdminCustomers({ loaderData: page }: Route.ComponentProps) {
  const [params] = useSearchParams();
  return (
    <AdminPage title="Customers" description={`${page.total.toLocaleString('en-US')} customer accounts`}>
      <FilterBar>
        <label className="flex min-w-56 flex-1 flex-col gap-1 text-sm font-medium">
          Search
          <input className={inputClass} type="search" name="q" defaultValue={params.get('q') ?? ''} placeholder="Name, email or mobile" />
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          Sign-in
          <select className={inputClass} name="blocked" defaultValue={params.get('blocked') ?? ''}>
            <option value="">Everyone</option>
            <option value="true">Blocked</option>
            <option value="false">Not blocked</option>
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          Sort
          <select className={inputClass} name="sort" defaultValue={params.get('sort') ?? 'newest'}>
            <option value="newest">Newest first</option>
            <option value="name">Name</option>
          </select>
        </label>
      </FilterBar>

      <div className="overflow-x-auto rounded-card border border-sand-200 bg-paper">
        <table className="w-full min-w-[48rem] border-collapse text-sm">
          <caption className="sr-only">Customer accounts</caption>
          <thead className="border-b border-sand-200 bg-sand-50">
            <tr>
              <th scope="col" className="px-3 py-2 text-left font-semibold">
                Name
              </th>
              <th scope="col" className="px-3 py-2 text-left font-semibold">
                Email
              </th>
              <th scope="col" className="px-3 py-2 text-left font-semibold">
                Mobile
              </th>
              <th scope="col" className="px-3 py-2 text-right font-semibold">
                Orders
              </th>
              <th scope="col" className="px-3 py-2 text-left font-semibold">
                Joined
              </th>
            </tr>
          </thead>
          <tbody>
            {page.items.map((c) => (
              <tr key={c.id} className="border-b border-sand-100 last:border-0 hover:bg-sand-50">
                <td className="px-3 py-2">
                  <Link to={`/admin/customers/${c.id}`} className="font-medium text-brand-700 hover:underline">
                    {c.fullName}
                  </Link>
                  {c.blocked && (
                    <span className="ml-2">
                      <BlockedBadge />
                    </span>
                  )}
                </td>
                <td className="break-all px-3 py-2">{c.email}</td>
                <td className="whitespace-nowrap px-3 py-2 tabular-nums">{c.mobile}</td>
                <td className="px-3 py-2 text-right tabular-nums">{c.orderCount}</td>
                <td className="whitespace-nowrap px-3 py-2 text-ink-muted">{dhakaDate(c.createdAt)}</td>
              </tr>
            ))}
            {!page.items.length && (
              <EmptyRow colSpan={5}>{params.get('q') || params.get('blocked') ? 'No customers match this search.' : 'No customer has signed up yet.'}</EmptyRow>
            )}
          </tbody>
        </table>
      </div>
      <Pagination page={page.page} size={page.size} total={page.total} />
    </AdminPage>
  );
}
