import { MAIL_STATE_LABELS, type TAdminMail, type TAdminMailRow, type TAdminMailStatus, type TMailState } from '@storefront/shared';
import { useState } from 'react';
import { Link, useRevalidator, useSearchParams } from 'react-router';
import { adminRead } from '../../components/admin/admin-api.server.ts';
import { AdminPage, Card, describedBy, Field, FilterBar, inputClass, Notice, Pagination, EmptyRow } from '../../components/admin/admin-ui.tsx';
import { apiFetch } from '../../lib/api-client.ts';
import type { Route } from './+types/mail';
import { useAdminSession } from './layout.tsx';

// The mail outbox (docs/decisions/0036): every mail the shop sent or is sending, the SMTP
// server's last error for one that failed, putting a failed mail back, and a test mail.
// Owners only: mails carry reset and order links (their secrets are hidden here anyway).

export function meta() {
  return [{ title: 'Mail · Back office' }];
}

const KEEP = ['q', 'state', 'page', 'size'];

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const query = new URLSearchParams();
  for (const k of KEEP) {
    const v = url.searchParams.get(k);
    if (v) query.set(k, v);
  }
  const open = url.searchParams.get('open');
  const [status, page, mail] = await Promise.all([
    adminRead<TAdminMailStatus>(context, request, '/api/admin/mail/status'),
    adminRead<{ items: TAdminMailRow[]; total: number; page: number; size: number }>(context, request, `/api/admin/mail?${query}`),
    open && /^\d{1,10}$/.test(open) ? adminRead<TAdminMail>(context, request, `/api/admin/mail/${open}`) : Promise.resolve(null),
  ]);
  return { status, page, mail };
}

const dhakaTime = (iso: string) =>
  new Date(iso).toLocaleString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: 'numeric', minute: '2-digit', timeZone: 'Asia/Dhaka' });

const STATE_STYLE: Record<TMailState, string> = {
  waiting: 'bg-amber-100 text-amber-900',
  sent: 'bg-green-50 text-success-600',
  failed: 'bg-red-50 text-danger-600',
};

function MailStateBadge({ state }: { state: TMailState }) {
  return (
    <span className={`inline-block whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-semibold ${STATE_STYLE[state]}`}>{MAIL_STATE_LABELS[state]}</span>
  );
}

function TestMail({ ownEmail, onSent }: { ownEmail: string; onSent: (m: TAdminMail) => void }) {
  const [to, setTo] = useState(ownEmail);
  const [error, setError] = useState<{ message: string; fields: Record<string, string> } | null>(null);
  const [busy, setBusy] = useState(false);
  const send = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    const res = await apiFetch<TAdminMail>('/api/admin/mail/test', { method: 'POST', body: { to } });
    setBusy(false);
    if (!res.ok) {
      setError({ message: res.error?.message ?? 'The test mail was not sent', fields: res.error?.fields ?? {} });
      return;
    }
    setError(null);
    onSent(res.data);
  };
  return (
    <form onSubmit={send} noValidate className="flex flex-wrap items-end gap-3">
      {error && !error.fields.to && <Notice tone="error">{error.message}</Notice>}
      <div className="min-w-64 flex-1">
        <Field id="test-to" label="Send a test mail to" hint="Your own address unless you change it" error={error?.fields.to}>
          <input className={inputClass} type="email" value={to} onChange={(e) => setTo(e.target.value)} {...describedBy('test-to', error?.fields.to)} />
        </Field>
      </div>
      <button
        type="submit"
        disabled={busy}
        className="h-10 rounded-lg bg-brand-700 px-4 text-sm font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
      >
        {busy ? 'Sending…' : 'Send a test mail'}
      </button>
    </form>
  );
}

function OpenMail({ mail, onRetried }: { mail: TAdminMail; onRetried: (m: TAdminMail | null, error?: string) => void }) {
  const [view, setView] = useState<'html' | 'text'>(mail.html ? 'html' : 'text');
  const [busy, setBusy] = useState(false);
  const [params] = useSearchParams();
  const close = new URLSearchParams(params);
  close.delete('open');
  const retry = async () => {
    setBusy(true);
    const res = await apiFetch<TAdminMail>(`/api/admin/mail/${mail.id}/retry`, { method: 'POST' });
    setBusy(false);
    onRetried(res.ok ? res.data : null, res.ok ? undefined : (res.error?.message ?? 'The mail was not put back'));
  };
  return (
    <Card
      title={mail.subject}
      actions={
        <Link to={`?${close}`} className="text-sm text-brand-700 hover:underline" preventScrollReset>
          Close
        </Link>
      }
    >
      <dl className="mb-4 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
        <dt className="text-ink-muted">To</dt>
        <dd className="break-all">{mail.to}</dd>
        {mail.replyTo && (
          <>
            <dt className="text-ink-muted">Reply-To</dt>
            <dd className="break-all">{mail.replyTo}</dd>
          </>
        )}
        <dt className="text-ink-muted">State</dt>
        <dd>
          <MailStateBadge state={mail.state} /> {mail.attempts} attempt{mail.attempts === 1 ? '' : 's'}
          {mail.sentAt ? `, sent ${dhakaTime(mail.sentAt)}` : ''}
        </dd>
        {mail.lastError && mail.state !== 'sent' && (
          <>
            <dt className="text-ink-muted">Last error</dt>
            <dd className="break-words font-mono text-xs text-danger-600">{mail.lastError}</dd>
          </>
        )}
      </dl>
      {mail.state !== 'sent' && (
        <button
          type="button"
          onClick={retry}
          disabled={busy}
          className="mb-4 h-10 rounded-lg border border-brand-600 px-4 text-sm font-semibold text-brand-700 hover:bg-brand-50 disabled:opacity-60"
        >
          {busy ? 'Trying…' : 'Try again now'}
        </button>
      )}
      {mail.redacted && (
        <p className="mb-3 text-xs text-ink-muted">
          A link in this mail carries a secret (a reset or order key): it is shown as [hidden]. The mail itself has it.
        </p>
      )}
      {mail.html && (
        <div role="group" aria-label="Show the mail as" className="mb-3 flex gap-2">
          {(['html', 'text'] as const).map((v) => (
            <button
              key={v}
              type="button"
              aria-pressed={view === v}
              onClick={() => setView(v)}
              className="rounded-lg border border-sand-300 px-3 py-1 text-sm aria-pressed:bg-sand-200"
            >
              {v === 'html' ? 'As the reader sees it' : 'Text'}
            </button>
          ))}
        </div>
      )}
      {view === 'html' && mail.html ? (
        // sandbox with no permissions: no script, no form, no navigation, another origin.
        <iframe title={`The mail “${mail.subject}”`} sandbox="" srcDoc={mail.html} className="h-[32rem] w-full rounded-lg border border-sand-200 bg-white" />
      ) : (
        <pre className="max-h-[32rem] overflow-auto whitespace-pre-wrap break-words rounded-lg border border-sand-200 bg-sand-50 p-3 text-sm">{mail.text}</pre>
      )}
    </Card>
  );
}

export default function AdminMail({ loaderData }: Route.ComponentProps) {
  const { status, page, mail } = loaderData;
  const session = useAdminSession();
  const [params, setParams] = useSearchParams();
  const revalidator = useRevalidator();
  const [notice, setNotice] = useState<{ text: string; ok: boolean } | null>(null);
  const openLink = (id: number) => {
    const next = new URLSearchParams(params);
    next.set('open', String(id));
    return `?${next}`;
  };
  return (
    <AdminPage title="Mail" description="Every mail the shop sends goes through this outbox first, so nothing is lost while the mail server is down.">
      <div className="flex flex-col gap-6">
        {notice && <Notice tone={notice.ok ? 'success' : 'error'}>{notice.text}</Notice>}
        <Card title="Sending">
          <p className="mb-4 text-sm">
            {status.smtpConfigured ? (
              <>
                Mail is delivered through the SMTP server set in the environment (SMTP_URL), from <strong>{status.from}</strong>.
              </>
            ) : (
              <>
                <strong>No SMTP server is configured</strong> (SMTP_URL is not set): mail is kept in the outbox only, and goes once a server is set.
              </>
            )}{' '}
            {status.waiting.toLocaleString('en-US')} waiting, {status.failed.toLocaleString('en-US')} failed (given up after {status.maxAttempts} attempts).
          </p>
          <TestMail
            ownEmail={session.staff.email}
            onSent={(m) => {
              setNotice({
                text: `Test mail to ${m.to}: ${MAIL_STATE_LABELS[m.state].toLowerCase()}${m.lastError && m.state !== 'sent' ? ` (${m.lastError})` : ''}.`,
                ok: m.state !== 'failed',
              });
              setParams((p) => {
                p.set('open', String(m.id));
                return p;
              });
            }}
          />
        </Card>

        {mail && (
          <OpenMail
            key={`${mail.id}-${mail.attempts}-${mail.state}`}
            mail={mail}
            onRetried={(m, error) => {
              setNotice(m ? { text: `The mail to ${m.to} is ${MAIL_STATE_LABELS[m.state].toLowerCase()}.`, ok: true } : { text: error ?? '', ok: false });
              revalidator.revalidate();
            }}
          />
        )}

        <div>
          <FilterBar>
            <label className="flex min-w-56 flex-1 flex-col gap-1 text-sm font-medium">
              Recipient
              <input className={inputClass} type="search" name="q" defaultValue={params.get('q') ?? ''} placeholder="A part of the address" />
            </label>
            <label className="flex flex-col gap-1 text-sm font-medium">
              State
              <select className={inputClass} name="state" defaultValue={params.get('state') ?? ''}>
                <option value="">All</option>
                <option value="waiting">Waiting</option>
                <option value="sent">Sent</option>
                <option value="failed">Failed</option>
              </select>
            </label>
          </FilterBar>
          <div className="overflow-x-auto rounded-card border border-sand-200 bg-paper">
            <table className="w-full min-w-[48rem] border-collapse text-sm">
              <caption className="sr-only">The mail outbox</caption>
              <thead className="border-b border-sand-200 bg-sand-50">
                <tr>
                  <th scope="col" className="px-3 py-2 text-left font-semibold">
                    To
                  </th>
                  <th scope="col" className="px-3 py-2 text-left font-semibold">
                    Subject
                  </th>
                  <th scope="col" className="px-3 py-2 text-left font-semibold">
                    State
                  </th>
                  <th scope="col" className="px-3 py-2 text-left font-semibold">
                    Written
                  </th>
                </tr>
              </thead>
              <tbody>
                {page.items.map((m) => (
                  <tr key={m.id} className="border-b border-sand-100 last:border-0 hover:bg-sand-50">
                    <td className="break-all px-3 py-2">{m.to}</td>
                    <td className="px-3 py-2">
                      <Link to={openLink(m.id)} className="text-brand-700 hover:underline" preventScrollReset>
                        {m.subject}
                      </Link>
                    </td>
                    <td className="px-3 py-2">
                      <MailStateBadge state={m.state} />
                      {m.lastError && m.state !== 'sent' && <span className="block max-w-sm break-words text-xs text-danger-600">{m.lastError}</span>}
                    </td>
                    <td className="whitespace-nowrap px-3 py-2 text-ink-muted">{dhakaTime(m.createdAt)}</td>
                  </tr>
                ))}
                {!page.items.length && (
                  <EmptyRow colSpan={4}>
                    {params.get('q') || params.get('state') ? 'No mail matches this search.' : 'The shop has not sent any mail yet.'}
                  </EmptyRow>
                )}
              </tbody>
            </table>
          </div>
          <Pagination page={page.page} size={page.size} total={page.total} />
        </div>
      </div>
    </AdminPage>
  );
}
