import type { TAdminSession } from '@storefront/shared';
import { useEffect, useState } from 'react';
import { redirect, useNavigate, useSearchParams } from 'react-router';
import adminCss from '../../admin.css?url';
import { describedBy, Field, inputClass, Notice } from '../../components/admin/admin-ui.tsx';
import { apiFetch } from '../../lib/api-client.ts';
import { safeRedirect } from '../../lib/safe-redirect.ts';
import type { Route } from './+types/sign-in';

// Staff sign-in (docs/decisions/0031): email and password, then the authenticator's code
// when two-factor is on (or a recovery code). What was typed stays when the server refuses.

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: adminCss }];

/** Back-office pages hold staff data: never kept by a browser or a proxy, never indexed. */
export function headers() {
  return { 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' };
}

export function meta() {
  return [{ title: 'Sign in · Back office' }];
}

/** Already signed in: straight to the back office. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const res = await context.api('/api/admin/session');
  if (res.ok) throw redirect(backTo(new URL(request.url).searchParams.get('next')));
  return null;
}

/**
 * The same sign-in without the page's script (sent before it loaded, or with scripts off):
 * the form posts here, and the session cookie comes back with the redirect; a refusal comes
 * back as the reason's code in the address (never what was typed).
 */
export async function action({ context, request }: Route.ActionArgs) {
  const form = await request.formData();
  const text = (k: string) => String(form.get(k) ?? '');
  const body = { email: text('email'), password: text('password'), ...(text('code') ? { code: text('code') } : {}) };
  const res = await context.api('/api/admin/session', { method: 'POST', body });
  const next = new URL(request.url).searchParams.get('next');
  if (res.ok) {
    const headers = new Headers();
    for (const c of res.headers.getSetCookie()) headers.append('set-cookie', c);
    throw redirect(backTo(next), { headers });
  }
  const json = (await res.json().catch(() => null)) as { error?: { code?: string } } | null;
  const q = new URLSearchParams({ failed: json?.error?.code ?? 'error', ...(next ? { next } : {}) });
  throw redirect(`/admin/sign-in?${q}`);
}

/** What a refusal in the address means (the no-script sign-in above). */
const FAILED: Record<string, string> = {
  invalid_credentials: 'The email or password is not right',
  invalid_two_factor_code: 'That code is not right. Codes change every 30 seconds.',
  rate_limited:
    'Too many sign-in attempts. To sign in now, enter your password with the code from your authenticator app; otherwise try again in a few minutes.',
};

function backTo(next: string | null): string {
  const to = safeRedirect(next, { fallback: '/admin/products' });
  return to.startsWith('/admin') && !to.startsWith('/admin/sign-in') ? to : '/admin/products';
}

export default function AdminSignIn() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const failed = params.get('failed');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [useRecovery, setUseRecovery] = useState(false);
  // An account guessed at too often still takes the password with a code (docs/decisions/0049).
  const [needsCode, setNeedsCode] = useState(failed === 'two_factor_required' || failed === 'invalid_two_factor_code' || failed === 'rate_limited');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; fields: Record<string, string> } | null>(
    failed && failed !== 'two_factor_required' ? { message: FAILED[failed] ?? 'Sign-in failed. Please try again.', fields: {} } : null,
  );
  // Set once the page's script runs: until then the form posts to the action above.
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const body = { email, password, ...(needsCode ? (useRecovery ? { recoveryCode: code } : { code }) : {}) };
    const res = await apiFetch<TAdminSession>('/api/admin/session', { method: 'POST', body });
    setBusy(false);
    if (res.ok) {
      navigate(res.data.mustEnrolTwoFactor ? '/admin/account' : backTo(params.get('next')), { replace: true });
      return;
    }
    if (res.ok === false && res.error?.code === 'two_factor_required') {
      setNeedsCode(true);
      return;
    }
    if (res.ok === false && res.error?.code === 'rate_limited' && res.error.fields?.code) setNeedsCode(true);
    setError({
      message:
        res.ok === false && res.networkError
          ? 'The back office cannot be reached. Check the connection and try again.'
          : (res.error?.message ?? 'Sign-in failed'),
      fields: (!res.ok && res.error?.fields) || {},
    });
  };

  return (
    <div data-admin-shell className="flex min-h-screen items-center justify-center bg-sand-50 px-4 py-10">
      <div className="w-full max-w-sm rounded-card border border-sand-200 bg-paper p-6 shadow-card">
        <h1 className="text-xl font-semibold">Back office</h1>
        <p className="mb-5 mt-1 text-sm text-ink-muted">Sign in with your staff account.</p>
        <form method="post" onSubmit={submit} className="flex flex-col gap-4" noValidate data-ready={ready ? 'true' : undefined}>
          {error && <Notice tone="error">{error.message}</Notice>}
          <Field id="email" label="Email">
            <input
              className={inputClass}
              type="email"
              name="email"
              autoComplete="username"
              required
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              {...describedBy('email')}
            />
          </Field>
          <Field id="password" label="Password">
            <input
              className={inputClass}
              type="password"
              name="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              {...describedBy('password')}
            />
          </Field>
          {needsCode && (
            <Field
              id="code"
              label={useRecovery ? 'Recovery code' : 'Code from your authenticator app'}
              error={error?.fields.code ?? error?.fields.recoveryCode}
              hint={useRecovery ? 'One of the codes you saved when you set up two-factor sign-in.' : 'Six digits; it changes every 30 seconds.'}
            >
              <input
                className={inputClass}
                name="code"
                autoComplete="one-time-code"
                inputMode={useRecovery ? 'text' : 'numeric'}
                // biome-ignore lint/a11y/noAutofocus: the field appears because the server asked for it; focus follows the step.
                autoFocus
                value={code}
                onChange={(e) => setCode(e.target.value)}
                {...describedBy('code', error?.fields.code ?? error?.fields.recoveryCode)}
              />
            </Field>
          )}
          <button type="submit" disabled={busy} className="h-11 rounded-lg bg-brand-700 font-semibold text-white hover:bg-brand-800 disabled:opacity-60">
            {busy ? 'Signing in…' : needsCode ? 'Verify and sign in' : 'Sign in'}
          </button>
          {needsCode && (
            <button
              type="button"
              className="text-sm text-brand-700 underline-offset-2 hover:underline"
              onClick={() => {
                setUseRecovery(!useRecovery);
                setCode('');
                setError(null);
              }}
            >
              {useRecovery ? 'Use the authenticator app instead' : 'Use a recovery code instead'}
            </button>
          )}
        </form>
      </div>
    </div>
  );
}
