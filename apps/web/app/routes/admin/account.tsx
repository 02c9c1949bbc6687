import type { TTwoFactorSetup } from '@storefront/shared';
import { useState } from 'react';
import { useRevalidator } from 'react-router';
import { AdminPage, Card, describedBy, Field, inputClass, Notice } from '../../components/admin/admin-ui.tsx';
import { apiFetch } from '../../lib/api-client.ts';
import { useAdminSession } from './layout.tsx';

// One's own account (docs/decisions/0031): two-factor sign-in with any authenticator app
// (the QR code or the secret typed in), confirmed by a code, with recovery codes shown once.

export function meta() {
  return [{ title: 'My account · Back office' }];
}

export default function Account() {
  const session = useAdminSession();
  const revalidator = useRevalidator();
  const [setup, setSetup] = useState<TTwoFactorSetup | null>(null);
  const [code, setCode] = useState('');
  const [codes, setCodes] = useState<string[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const on = session.staff.twoFactor;

  const begin = async () => {
    setError(null);
    const res = await apiFetch<TTwoFactorSetup>('/api/admin/two-factor/setup', { method: 'POST', body: {} });
    if (res.ok) setSetup(res.data);
    else setError(res.error?.message ?? 'Two-factor sign-in could not be started');
  };
  const confirm = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    const res = await apiFetch<{ recoveryCodes: string[] }>('/api/admin/two-factor/enable', { method: 'POST', body: { code } });
    setBusy(false);
    if (res.ok) {
      setCodes(res.data.recoveryCodes);
      setSetup(null);
      setError(null);
      revalidator.revalidate();
    } else setError(res.error?.message ?? 'That code did not work');
  };
  const turnOff = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    const res = await apiFetch('/api/admin/two-factor/disable', { method: 'POST', body: { code } });
    setBusy(false);
    if (res.ok) {
      setCode('');
      setError(null);
      revalidator.revalidate();
    } else setError(res.error?.message ?? 'That code did not work');
  };

  return (
    <AdminPage title="My account" description={`${session.staff.fullName} · ${session.staff.email}`}>
      <div className="flex max-w-2xl flex-col gap-6">
        {session.mustEnrolTwoFactor && <Notice tone="info">Owners sign in with two factors. Set up your authenticator app to open the back office.</Notice>}
        {codes && (
          <Card title="Your recovery codes">
            <p className="mb-3 text-sm">Each works once, if your phone is lost. Keep them somewhere safe: they are not shown again.</p>
            <ul className="grid grid-cols-2 gap-2 font-mono text-sm" aria-label="Recovery codes">
              {codes.map((c) => (
                <li key={c} className="rounded-md bg-sand-100 px-2 py-1">
                  {c}
                </li>
              ))}
            </ul>
          </Card>
        )}
        <Card title="Two-factor sign-in">
          {error && (
            <div className="mb-4">
              <Notice tone="error">{error}</Notice>
            </div>
          )}
          {on && !codes && (
            <>
              <p className="mb-4 text-sm">On: signing in asks for the code of your authenticator app.</p>
              {session.staff.role !== 'owner' && (
                <form onSubmit={turnOff} className="flex flex-wrap items-end gap-2" noValidate>
                  <Field id="off-code" label="Code, to turn it off">
                    <input
                      className={`${inputClass} max-w-44`}
                      inputMode="numeric"
                      autoComplete="one-time-code"
                      value={code}
                      onChange={(e) => setCode(e.target.value)}
                      {...describedBy('off-code')}
                    />
                  </Field>
                  <button
                    type="submit"
                    disabled={busy}
                    className="h-10 rounded-lg border border-danger-600 px-4 text-sm font-semibold text-danger-600 hover:bg-red-50"
                  >
                    Turn off
                  </button>
                </form>
              )}
            </>
          )}
          {!on && !setup && (
            <>
              <p className="mb-4 text-sm">Off. With it on, a stolen password alone does not open the back office.</p>
              <button type="button" onClick={begin} className="h-10 rounded-lg bg-brand-700 px-4 text-sm font-semibold text-white hover:bg-brand-800">
                Set up two-factor sign-in
              </button>
            </>
          )}
          {setup && (
            <form onSubmit={confirm} className="flex flex-col gap-4" noValidate>
              <p className="text-sm">
                Scan this code with an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password, Aegis…), or type the secret in.
              </p>
              <img
                src={`data:image/svg+xml;base64,${btoa(setup.qrSvg)}`}
                alt="QR code to add this account to an authenticator app"
                width={200}
                height={200}
                className="h-50 w-50 rounded-md border border-sand-200"
              />
              <p className="text-sm">
                Secret:{' '}
                <code className="break-all rounded bg-sand-100 px-1 font-mono" data-testid="totp-secret">
                  {setup.secret}
                </code>
              </p>
              <Field id="enable-code" label="The six-digit code the app shows">
                <input
                  className={`${inputClass} max-w-44`}
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  value={code}
                  onChange={(e) => setCode(e.target.value)}
                  {...describedBy('enable-code')}
                />
              </Field>
              <div>
                <button
                  type="submit"
                  disabled={busy}
                  className="h-10 rounded-lg bg-brand-700 px-4 text-sm font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
                >
                  {busy ? 'Checking…' : 'Turn on'}
                </button>
              </div>
            </form>
          )}
        </Card>
      </div>
    </AdminPage>
  );
}
