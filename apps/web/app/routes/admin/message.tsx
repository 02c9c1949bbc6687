import { MAIL_STATE_LABELS, type TAdminMessage, validateContactReply } from '@storefront/shared';
import { useState } from 'react';
import { Link, useRevalidator } from 'react-router';
import { adminRead } from '../../components/admin/admin-api.server.ts';
import { AdminPage, Card, describedBy, Field, Notice } from '../../components/admin/admin-ui.tsx';
import { apiFetch } from '../../lib/api-client.ts';
import type { Route } from './+types/message';
import { may, useAdminSession } from './layout.tsx';
import { MessageStateBadge } from './messages.tsx';

// One contact message (docs/decisions/0036): opening it marks it read; those who manage
// customers answer it by mail (the shop's branded mail, Reply-To the support address), and
// the answers show under it with who wrote them.

export function meta({ data }: Route.MetaArgs) {
  return [{ title: `${data?.subject ?? 'Message'} · Back office` }];
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  return adminRead<TAdminMessage>(context, request, `/api/admin/messages/${encodeURIComponent(params.id)}`);
}

const dhakaTime = (iso: string) =>
  new Date(iso).toLocaleString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', hour: 'numeric', minute: '2-digit', timeZone: 'Asia/Dhaka' });

function ReplyForm({ m, onSent }: { m: TAdminMessage; onSent: () => void }) {
  const [body, setBody] = useState('');
  const [error, setError] = useState<{ message: string; fields: Record<string, string> } | null>(null);
  const [busy, setBusy] = useState(false);
  const send = async (e: React.FormEvent) => {
    e.preventDefault();
    const problem = validateContactReply(body);
    if (problem) {
      setError({ message: problem, fields: { body: problem } });
      return;
    }
    setBusy(true);
    const res = await apiFetch<TAdminMessage>(`/api/admin/messages/${m.id}/replies`, { method: 'POST', body: { body } });
    setBusy(false);
    if (!res.ok) {
      // What was typed stays, with the reason next to it.
      setError({ message: res.error?.message ?? 'The answer was not sent', fields: res.error?.fields ?? {} });
      return;
    }
    setError(null);
    setBody('');
    onSent();
  };
  return (
    <form onSubmit={send} noValidate className="flex flex-col gap-3">
      {error && !error.fields.body && <Notice tone="error">{error.message}</Notice>}
      <Field
        id="reply-body"
        label={`Your answer to ${m.name}`}
        hint={`Sent to ${m.email} as the shop’s mail; replies to it reach the support address.`}
        error={error?.fields.body}
      >
        <textarea
          className="min-h-40 w-full rounded-lg border border-sand-300 bg-paper px-3 py-2 text-sm text-ink focus:border-brand-600 aria-[invalid=true]:border-danger-600"
          value={body}
          onChange={(e) => setBody(e.target.value)}
          {...describedBy('reply-body', error?.fields.body)}
        />
      </Field>
      <div>
        <button
          type="submit"
          disabled={busy}
          className="h-10 rounded-lg bg-brand-700 px-4 text-sm font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
        >
          {busy ? 'Sending…' : 'Send the answer'}
        </button>
      </div>
    </form>
  );
}

export default function AdminMessage({ loaderData: m }: Route.ComponentProps) {
  const session = useAdminSession();
  const revalidator = useRevalidator();
  const [sent, setSent] = useState(false);
  return (
    <AdminPage
      title={m.subject}
      description={
        <>
          From {m.name} &lt;{m.email}&gt; · {dhakaTime(m.createdAt)} · <MessageStateBadge state={m.state} />
        </>
      }
      actions={
        <Link to="/admin/messages" className="rounded-lg border border-sand-300 bg-paper px-3 py-2 text-sm font-semibold hover:bg-sand-100">
          All messages
        </Link>
      }
    >
      <div className="flex flex-col gap-6">
        <Card title="The message">
          <p className="whitespace-pre-wrap break-words text-sm leading-relaxed">{m.message}</p>
          {m.customerId != null && (
            <p className="mt-3 text-sm">
              <Link to={`/admin/customers/${m.customerId}`} className="text-brand-700 hover:underline">
                Sent while signed in: open the customer
              </Link>
            </p>
          )}
        </Card>
        {m.replies.length > 0 && (
          <Card title="Answers">
            <ol className="flex flex-col gap-4">
              {m.replies.map((r) => (
                <li key={r.id} className="rounded-lg border border-sand-200 p-3">
                  <p className="mb-2 text-xs text-ink-muted">
                    {r.staffName} · {dhakaTime(r.createdAt)}
                    {r.mailState && ` · mail ${MAIL_STATE_LABELS[r.mailState].toLowerCase()}`}
                  </p>
                  <p className="whitespace-pre-wrap break-words text-sm">{r.body}</p>
                </li>
              ))}
            </ol>
          </Card>
        )}
        {sent && <Notice tone="success">Your answer is on its way to {m.email}.</Notice>}
        {may(session, 'customers.manage') && (
          <Card title="Answer">
            <ReplyForm
              m={m}
              onSent={() => {
                setSent(true);
                revalidator.revalidate();
              }}
            />
          </Card>
        )}
      </div>
    </AdminPage>
  );
}
