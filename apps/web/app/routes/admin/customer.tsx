import { PAYMENT_STATUS_LABELS, SALE_STATUS_LABELS, type TAdminCustomer } from '@storefront/shared';
import { useState } from 'react';
import { Link, useRevalidator } from 'react-router';
import { adminRead } from '../../components/admin/admin-api.server.ts';
import { AdminPage, Card, describedBy, Field, inputClass, Notice, taka } from '../../components/admin/admin-ui.tsx';
import { apiFetch } from '../../lib/api-client.ts';
import type { Route } from './+types/customer';
import { may, useAdminSession } from './layout.tsx';

// One customer (docs/decisions/0032): profile, orders and bookings, saved addresses,
// newsletter, and for those who manage customers, blocking their sign-in and mailing them a
// password-reset link. Opening this page is written to the audit log: it shows personal data.

export function meta({ data }: Route.MetaArgs) {
  return [{ title: `${data?.fullName ?? 'Customer'} · Back office` }];
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  return adminRead<TAdminCustomer>(context, request, `/api/admin/customers/${encodeURIComponent(params.id)}`);
}

/** The API's bound on a block's reason (BLOCK_REASON_MAX; kept here so the shop's shared code stays as it is). */
const REASON_MAX = 200;

const dhakaDate = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'Asia/Dhaka' });
const dhakaTime = (iso: string) =>
  new Date(iso).toLocaleString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZone: 'Asia/Dhaka' });

function Detail({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="contents">
      <dt className="font-medium">{label}</dt>
      <dd className="min-w-0 break-words text-ink">{children}</dd>
    </div>
  );
}

export default function AdminCustomer({ loaderData: c }: Route.ComponentProps) {
  const session = useAdminSession();
  const revalidator = useRevalidator();
  const canManage = may(session, 'customers.manage');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<{ message: string; fields: Record<string, string> } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState<'block' | 'reset' | null>(null);

  const setBlocked = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy('block');
    setNotice(null);
    const blocked = !c.blocked;
    const res = await apiFetch<{ revokedSessions: number }>(`/api/admin/customers/${c.id}`, {
      method: 'PATCH',
      body: blocked ? { blocked, reason: reason.trim() || undefined } : { blocked },
    });
    setBusy(null);
    if (res.ok) {
      setError(null);
      setReason('');
      setNotice(
        blocked
          ? `${c.fullName} can no longer sign in${res.data.revokedSessions ? `; ${res.data.revokedSessions} signed-in ${res.data.revokedSessions === 1 ? 'device was' : 'devices were'} signed out` : ''}.`
          : `${c.fullName} can sign in again.`,
      );
      revalidator.revalidate();
    } else setError({ message: res.error?.message ?? 'The change was not saved', fields: res.error?.fields ?? {} });
  };

  const sendReset = async () => {
    setBusy('reset');
    setNotice(null);
    const res = await apiFetch<{ message: string }>(`/api/admin/customers/${c.id}/password-reset`, { method: 'POST', body: {} });
    setBusy(null);
    if (res.ok) {
      setError(null);
      setNotice(`A password-reset link is on its way to ${c.email}. It works once, for one hour.`);
    } else setError({ message: res.error?.message ?? 'The mail could not be sent', fields: {} });
  };

  return (
    <AdminPage
      title={c.fullName}
      description={
        <>
          <Link to="/admin/customers" className="text-brand-700 hover:underline">
            Customers
          </Link>{' '}
          · customer since {dhakaDate(c.createdAt)}
        </>
      }
    >
      <div className="flex flex-col gap-6">
        {error && <Notice tone="error">{error.message}</Notice>}
        {notice && <Notice tone="success">{notice}</Notice>}
        {c.blocked && (
          <Notice tone="error">
            Blocked{c.blockedAt ? ` since ${dhakaTime(c.blockedAt)}` : ''}: this customer cannot sign in.
            {c.blockedReason ? ` Reason: ${c.blockedReason}` : ''}
          </Notice>
        )}

        <div className="grid gap-6 lg:grid-cols-2">
          <Card title="Profile">
            <dl className="grid gap-x-4 gap-y-2 text-sm sm:grid-cols-[9rem_minmax(0,1fr)]">
              <Detail label="Name">{c.fullName}</Detail>
              <Detail label="Email">
                <a href={`mailto:${c.email}`} className="text-brand-700 hover:underline">
                  {c.email}
                </a>
              </Detail>
              <Detail label="Mobile">
                <a href={`tel:${c.mobile}`} className="tabular-nums text-brand-700 hover:underline">
                  {c.mobile}
                </a>
              </Detail>
              <Detail label="Joined">{dhakaTime(c.createdAt)}</Detail>
              <Detail label="Newsletter">{c.subscribed ? 'Subscribed' : 'Not subscribed'}</Detail>
              <Detail label="Signed in on">
                {c.activeSessions} {c.activeSessions === 1 ? 'device' : 'devices'}
              </Detail>
              <Detail label="Sign-in">{c.blocked ? 'Blocked' : 'Allowed'}</Detail>
              <Detail label="Customer id">
                <span className="font-mono text-xs">{c.userId}</span>
              </Detail>
            </dl>
          </Card>

          {canManage && (
            <Card title="Account">
              <div className="flex flex-col gap-5">
                <form onSubmit={setBlocked} noValidate className="flex flex-col gap-3">
                  {!c.blocked && (
                    <Field
                      id="block-reason"
                      label="Reason (kept in the audit log)"
                      error={error?.fields.reason}
                      hint={`Optional, up to ${REASON_MAX} characters. Blocking signs them out everywhere; their orders stay.`}
                    >
                      <input
                        className={inputClass}
                        value={reason}
                        maxLength={REASON_MAX}
                        onChange={(e) => setReason(e.target.value)}
                        {...describedBy('block-reason', error?.fields.reason)}
                      />
                    </Field>
                  )}
                  <div>
                    <button
                      type="submit"
                      disabled={busy !== null}
                      className={`h-10 rounded-lg border px-4 text-sm font-semibold disabled:opacity-60 ${
                        c.blocked ? 'border-brand-600 text-brand-700 hover:bg-brand-50' : 'border-danger-600 text-danger-600 hover:bg-red-50'
                      }`}
                    >
                      {busy === 'block' ? 'Saving…' : c.blocked ? 'Unblock sign-in' : 'Block sign-in'}
                    </button>
                  </div>
                </form>
                <div className="border-t border-sand-200 pt-4">
                  <p className="mb-2 text-sm text-ink-muted">Mails the shop’s own reset link to {c.email}. It does not lift a block.</p>
                  <button
                    type="button"
                    onClick={sendReset}
                    disabled={busy !== null}
                    className="h-10 rounded-lg bg-brand-700 px-4 text-sm font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
                  >
                    {busy === 'reset' ? 'Sending…' : 'Send password reset mail'}
                  </button>
                </div>
              </div>
            </Card>
          )}
        </div>

        <Card title={`Orders and bookings (${c.orderCount})`}>
          {c.orders.length ? (
            <div className="overflow-x-auto">
              <table className="w-full min-w-[40rem] border-collapse text-sm">
                <caption className="sr-only">Orders and bookings of {c.fullName}, newest first</caption>
                <thead className="border-b border-sand-200 bg-sand-50">
                  <tr>
                    <th scope="col" className="px-3 py-2 text-left font-semibold">
                      Invoice
                    </th>
                    <th scope="col" className="px-3 py-2 text-left font-semibold">
                      Kind
                    </th>
                    <th scope="col" className="px-3 py-2 text-left font-semibold">
                      Status
                    </th>
                    <th scope="col" className="px-3 py-2 text-left font-semibold">
                      Payment
                    </th>
                    <th scope="col" className="px-3 py-2 text-right font-semibold">
                      Total
                    </th>
                    <th scope="col" className="px-3 py-2 text-left font-semibold">
                      Placed
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {c.orders.map((o) => (
                    <tr key={o.id} className="border-b border-sand-100 last:border-0 hover:bg-sand-50">
                      <td className="px-3 py-2">
                        <Link to={`/admin/orders/${o.id}`} className="font-medium text-brand-700 hover:underline">
                          {o.invoiceId}
                        </Link>
                      </td>
                      <td className="px-3 py-2 capitalize">{o.kind}</td>
                      <td className="px-3 py-2">{SALE_STATUS_LABELS[o.status] ?? o.status}</td>
                      <td className="px-3 py-2">{PAYMENT_STATUS_LABELS[o.paymentStatus] ?? o.paymentStatus}</td>
                      <td className="px-3 py-2 text-right tabular-nums">{taka(o.total)}</td>
                      <td className="whitespace-nowrap px-3 py-2 text-ink-muted">{dhakaDate(o.createdAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {c.orderCount > c.orders.length && (
                <p className="mt-3 text-sm text-ink-muted">
                  The newest {c.orders.length} are shown.{' '}
                  <Link to={`/admin/orders?q=${encodeURIComponent(c.email)}`} className="text-brand-700 hover:underline">
                    Find all of their orders
                  </Link>
                </p>
              )}
            </div>
          ) : (
            <p className="text-sm text-ink-muted">No orders or bookings yet.</p>
          )}
        </Card>

        <Card title="Saved addresses">
          {c.addresses.length ? (
            <ul className="grid gap-3 md:grid-cols-2">
              {c.addresses.map((a) => (
                <li key={a.id} className="rounded-lg border border-sand-200 p-3 text-sm">
                  <p className="font-medium">
                    {a.label || a.fullName}
                    {a.isDefault && <span className="ml-2 rounded-full bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-800">Default</span>}
                  </p>
                  {a.label && <p>{a.fullName}</p>}
                  <p>{a.addressLine}</p>
                  <p>
                    {a.area}, {a.district}, {a.division}
                  </p>
                  <p className="tabular-nums text-ink-muted">{a.phone}</p>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-ink-muted">No saved addresses.</p>
          )}
        </Card>
      </div>
    </AdminPage>
  );
}
