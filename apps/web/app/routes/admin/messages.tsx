import { MESSAGE_STATE_LABELS, type TAdminMessageRow, type TMessageState } from '@storefront/shared';
import { Link, useSearchParams } from 'react-router';
import { adminRead } from '../../components/admin/admin-api.server.ts';
import { AdminPage, FilterBar, inputClass, Pagination, EmptyRow } from '../../components/admin/admin-ui.tsx';
import type { Route } from './+types/messages';

// The contact inbox (docs/decisions/0036): what shoppers wrote through the contact form,
// unread first, filtered by state and searched by the server.

export function meta() {
  return [{ title: 'Messages · Back office' }];
}

const KEEP = ['q', 'state', 'sort', 'page', 'size'];

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const query = new URLSearchParams();
  for (const k of KEEP) {
    const v = url.searchParams.get(k);
    if (v) query.set(k, v);
  }
  return adminRead<{ items: TAdminMessageRow[]; total: number; page: number; size: number }>(context, request, `/api/admin/messages?${query}`);
}

const dhakaTime = (iso: string) =>
  new Date(iso).toLocaleString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: 'numeric', minute: '2-digit', timeZone: 'Asia/Dhaka' });

const STATE_STYLE: Record<TMessageState, string> = {
  new: 'bg-amber-100 text-amber-900',
  read: 'bg-sand-100 text-ink',
  answered: 'bg-green-50 text-success-600',
};

export function MessageStateBadge({ state }: { state: TMessageState }) {
  return (
    <span className={`inline-block whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-semibold ${STATE_STYLE[state]}`}>{MESSAGE_STATE_LABELS[state]}</span>
  );
}

export default function AdminMessages({ loaderData: page }: Route.ComponentProps) {
  const [params] = useSearchParams();
  return (
    <AdminPage title="Messages" description={`${page.total.toLocaleString('en-US')} messages from the contact form`}>
      <FilterBar>
        <label className="flex min-w-56 flex-1 flex-col gap-1 text-sm font-medium">
          Search
          <input
            className={inputClass}
            type="search"
            name="q"
            defaultValue={params.get('q') ?? ''}
            placeholder="Name, email, subject or words of the message"
          />
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          State
          <select className={inputClass} name="state" defaultValue={params.get('state') ?? ''}>
            <option value="">All</option>
            <option value="new">New</option>
            <option value="read">Read</option>
            <option value="answered">Answered</option>
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          Order
          <select className={inputClass} name="sort" defaultValue={params.get('sort') ?? 'unread'}>
            <option value="unread">Unread first</option>
            <option value="newest">Newest first</option>
          </select>
        </label>
      </FilterBar>

      <div className="overflow-x-auto rounded-card border border-sand-200 bg-paper">
        <table className="w-full min-w-[48rem] border-collapse text-sm">
          <caption className="sr-only">Contact messages</caption>
          <thead className="border-b border-sand-200 bg-sand-50">
            <tr>
              <th scope="col" className="px-3 py-2 text-left font-semibold">
                From
              </th>
              <th scope="col" className="px-3 py-2 text-left font-semibold">
                Subject
              </th>
              <th scope="col" className="px-3 py-2 text-left font-semibold">
                State
              </th>
              <th scope="col" className="px-3 py-2 text-left font-semibold">
                Received
              </th>
            </tr>
          </thead>
          <tbody>
            {page.items.map((m) => (
              <tr key={m.id} className={`border-b border-sand-100 last:border-0 hover:bg-sand-50 ${m.state === 'new' ? 'font-semibold' : ''}`}>
                <td className="px-3 py-2">
                  {m.name}
                  <span className="block break-all text-xs font-normal text-ink-muted">{m.email}</span>
                </td>
                <td className="px-3 py-2">
                  <Link to={`/admin/messages/${m.id}`} className="text-brand-700 hover:underline">
                    {m.subject}
                  </Link>
                  <span className="block text-xs font-normal text-ink-muted">{m.preview}</span>
                </td>
                <td className="px-3 py-2">
                  <MessageStateBadge state={m.state} />
                </td>
                <td className="whitespace-nowrap px-3 py-2 font-normal text-ink-muted">{dhakaTime(m.createdAt)}</td>
              </tr>
            ))}
            {!page.items.length && (
              <EmptyRow colSpan={4}>{params.get('q') || params.get('state') ? 'No messages match this search.' : 'No message has come in yet.'}</EmptyRow>
            )}
          </tbody>
        </table>
      </div>
      <Pagination page={page.page} size={page.size} total={page.total} />
    </AdminPage>
  );
}
