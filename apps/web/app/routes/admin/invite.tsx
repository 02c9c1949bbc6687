import { STAFF_PASSWORD_MIN } from '@storefront/shared';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import adminCss from '../../admin.css?url';
import { describedBy, Field, inputClass, Notice } from '../../components/admin/admin-ui.tsx';
import { apiFetch } from '../../lib/api-client.ts';
import type { Route } from './+types/invite';

// A staff invitation's link (docs/decisions/0031): the member chooses their own password,
// once, then signs in. What was typed stays when the server refuses it.

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: adminCss }];

/** The address carries a one-use token: never kept by a browser or a proxy, never indexed, never sent on. */
export function headers() {
  return { 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex', 'Referrer-Policy': 'no-referrer' };
}

export function meta() {
  return [{ title: 'Choose your password · Back office' }];
}

export default function AdminInvite() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const [error, setError] = useState<{ message: string; fields: Record<string, string> } | null>(null);
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (password !== repeat) {
      setError({ message: 'The two passwords are not the same', fields: { repeat: 'The two passwords are not the same' } });
      return;
    }
    setBusy(true);
    const res = await apiFetch('/api/admin/invite', { method: 'POST', body: { token, password } });
    setBusy(false);
    if (res.ok) {
      setError(null);
      setDone(true);
      return;
    }
    setError({ message: res.error?.message ?? 'The password was not saved', fields: res.error?.fields ?? {} });
  };

  return (
    <div data-admin-shell className="flex min-h-screen items-center justify-center bg-sand-50 px-4 py-10">
      <div className="w-full max-w-sm rounded-card border border-sand-200 bg-paper p-6 shadow-card">
        <h1 className="text-xl font-semibold">Choose your password</h1>
        {done ? (
          <div className="mt-4 flex flex-col gap-4">
            <Notice tone="success">Your password is saved. Sign in with your email and it.</Notice>
            <Link to="/admin/sign-in" className="h-10 rounded-lg bg-brand-700 px-4 py-2 text-center text-sm font-semibold text-white hover:bg-brand-800">
              Sign in
            </Link>
          </div>
        ) : (
          <>
            <p className="mb-5 mt-1 text-sm text-ink-muted">For your back-office account. At least {STAFF_PASSWORD_MIN} characters.</p>
            <form onSubmit={submit} className="flex flex-col gap-4" noValidate data-ready={ready ? 'true' : undefined}>
              {error && (error.fields.token || !Object.keys(error.fields).length) && <Notice tone="error">{error.message}</Notice>}
              <Field id="password" label="New password" error={error?.fields.password}>
                <input
                  className={inputClass}
                  type="password"
                  autoComplete="new-password"
                  required
                  value={password}
                  onChange={(e) => setPassword(e.target.value)}
                  {...describedBy('password', error?.fields.password)}
                />
              </Field>
              <Field id="repeat" label="The same password again" error={error?.fields.repeat}>
                <input
                  className={inputClass}
                  type="password"
                  autoComplete="new-password"
                  required
                  value={repeat}
                  onChange={(e) => setRepeat(e.target.value)}
                  {...describedBy('repeat', error?.fields.repeat)}
                />
              </Field>
              <button
                type="submit"
                disabled={busy || !ready}
                className="h-10 rounded-lg bg-brand-700 px-4 text-sm font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
              >
                {busy ? 'Saving…' : 'Save the password'}
              </button>
            </form>
          </>
        )}
      </div>
    </div>
  );
}
