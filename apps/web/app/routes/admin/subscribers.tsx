import type { TAdminSubscriber } from '@storefront/shared';
import { useState } from 'react';
import { useRevalidator, useSearchParams } from 'react-router';
import { adminRead } from '../../components/admin/admin-api.server.ts';
import { AdminPage, FilterBar, inputClass, Notice, Pagination } from '../../components/admin/admin-ui.tsx';
import { apiFetch } from '../../lib/api-client.ts';
import type { Route } from './+types/subscribers';
import { may, useAdminSession } from './layout.tsx';

// The newsletter's subscribers (docs/decisions/0036): searched and paged by the server, the
// list as CSV, and unsubscribing an address on its owner's word (the row stays as a record).

export function meta() {
  return [{ title: 'Subscribers · Back office' }];
}

const KEEP = ['q', 'state', 'page', 'size'];

function kept(url: URL): URLSearchParams {
  const query = new URLSearchParams();
  for (const k of KEEP) {
    const v = url.searchParams.get(k);
    if (v) query.set(k, v);
  }
  return query;
}

export async function loader({ context, request }: Route.LoaderArgs) {
  return adminRead<{ items: TAdminSubscriber[]; total: number; page: number; size: number }>(
    context,
    request,
    `/api/admin/subscribers?${kept(new URL(request.url))}`,
  );
}

const dhakaDate = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'Asia/Dhaka' });

function Unsubscribe({ s, onDone }: { s: TAdminSubscriber; onDone: (message: string, ok: boolean) => void }) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const go = async () => {
    setBusy(true);
    const res = await apiFetch<TAdminSubscriber>(`/api/admin/subscribers/${s.id}/unsubscribe`, { method: 'POST' });
    setBusy(false);
    setAsking(false);
    onDone(res.ok ? `${s.email} is unsubscribed.` : (res.error?.message ?? 'The address was not unsubscribed'), res.ok);
  };
  if (!asking) {
    return (
      <button type="button" onClick={() => setAsking(true)} className="rounded-lg border border-sand-300 px-2 py-1 text-xs font-semibold hover:bg-sand-100">
        Unsubscribe
      </button>
    );
  }
  return (
    <span className="inline-flex gap-1">
      <button
        type="button"
        onClick={go}
        disabled={busy}
        className="rounded-lg border border-danger-600 px-2 py-1 text-xs font-semibold text-danger-600 hover:bg-red-50 disabled:opacity-60"
        aria-label={`Confirm: unsubscribe ${s.email}`}
      >
        {busy ? 'Saving…' : 'Confirm'}
      </button>
      <button type="button" onClick={() => setAsking(false)} className="rounded-lg border border-sand-300 px-2 py-1 text-xs hover:bg-sand-100">
        Cancel
      </button>
    </span>
  );
}

export default function AdminSubscribers({ loaderData: page }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const session = useAdminSession();
  const canChange = may(session, 'customers.manage');
  const revalidator = useRevalidator();
  const [notice, setNotice] = useState<{ text: string; ok: boolean } | null>(null);
  const csv = new URLSearchParams();
  for (const k of ['q', 'state']) {
    const v = params.get(k);
    if (v) csv.set(k, v);
  }
  return (
    <AdminPage
      title="Subscribers"
      description={`${page.total.toLocaleString('en-US')} newsletter addresses`}
      actions={
        <a
          href={`/admin/subscribers.csv?${csv}`}
          className="rounded-lg border border-sand-300 bg-paper px-3 py-2 text-sm font-semibold hover:bg-sand-100"
          download
        >
          Download CSV
        </a>
      }
    >
      {notice && (
        <div className="mb-4">
          <Notice tone={notice.ok ? 'success' : 'error'}>{notice.text}</Notice>
        </div>
      )}
      <FilterBar>
        <label className="flex min-w-56 flex-1 flex-col gap-1 text-sm font-medium">
          Search
          <input className={inputClass} type="search" name="q" defaultValue={params.get('q') ?? ''} placeholder="A part of the address" />
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          State
          <select className={inputClass} name="state" defaultValue={params.get('state') ?? ''}>
            <option value="">All</option>
            <option value="subscribed">Subscribed</option>
            <option value="unsubscribed">Unsubscribed</option>
          </select>
        </label>
      </FilterBar>

      <div className="overflow-x-auto rounded-card border border-sand-200 bg-paper">
        <table className="w-full min-w-[48rem] border-collapse text-sm">
          <caption className="sr-only">Newsletter subscribers</caption>
          <thead className="border-b border-sand-200 bg-sand-50">
            <tr>
              <th scope="col" className="px-3 py-2 text-left font-semibold">
                Email
              </th>
              <th scope="col" className="px-3 py-2 text-left font-semibold">
                State
              </th>
              <th scope="col" className="px-3 py-2 text-left font-semibold">
                Offer
              </th>
              <th scope="col" className="px-3 py-2 text-left font-semibold">
                Subscribed
              </th>
              {canChange && (
                <th scope="col" className="px-3 py-2 text-left font-semibold">
                  <span className="sr-only">Actions</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {page.items.map((s) => (
              <tr key={s.id} className="border-b border-sand-100 last:border-0 hover:bg-sand-50">
                <td className="break-all px-3 py-2">
                  {s.email}
                  {s.customerId != null && <span className="ml-2 text-xs text-ink-muted">(customer account)</span>}
                </td>
                <td className="whitespace-nowrap px-3 py-2">
                  {s.unsubscribedAt ? (
                    <span className="inline-block rounded-full bg-sand-200 px-2 py-0.5 text-xs font-semibold text-ink-muted">
                      Unsubscribed {dhakaDate(s.unsubscribedAt)}
                      {s.unsubscribedBy === 'staff' ? ' by staff' : ' by link'}
                    </span>
                  ) : (
                    <span className="inline-block rounded-full bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-800">Subscribed</span>
                  )}
                </td>
                <td className="px-3 py-2 text-ink-muted">{s.offer || '—'}</td>
                <td className="whitespace-nowrap px-3 py-2 text-ink-muted">{dhakaDate(s.createdAt)}</td>
                {canChange && (
                  <td className="whitespace-nowrap px-3 py-2 text-right">
                    {!s.unsubscribedAt && (
                      <Unsubscribe
                        s={s}
                        onDone={(text, ok) => {
                          setNotice({ text, ok });
                          revalidator.revalidate();
                        }}
                      />
                    )}
                  </td>
                )}
              </tr>
            ))}
            {!page.items.length && (
              <tr>
                <td colSpan={canChange ? 5 : 4} className="px-3 py-10 text-center text-ink-muted">
                  {params.get('q') || params.get('state') ? 'No subscribers match this search.' : 'Nobody has subscribed yet.'}
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
