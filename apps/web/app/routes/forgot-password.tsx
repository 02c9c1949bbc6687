import { ACCOUNT_MESSAGES, type FieldErrors, hasErrors, validateForgot } from '@storefront/shared';
import { type FormEvent, useRef, useState } from 'react';
import { Link } from 'react-router';
import { formFailure } from '../components/account/auth-result.ts';
import { AuthPage } from '../components/account/auth-page.tsx';
import { FormAlert, TextField, focusFirstError } from '../components/account/form-field.tsx';
import { Button } from '../components/ui/button.tsx';
import { apiFetch } from '../lib/api-client.ts';
import { session } from '../lib/session-store.ts';

export const meta = () => [{ title: 'Forgot Password' }, { name: 'robots', content: 'noindex' }];

/** Asks for a reset link by mail (POST /api/forgot); the answer never says whether the account exists. */
export default function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [errors, setErrors] = useState<FieldErrors<'email'>>({});
  const [alert, setAlert] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    setAlert(null);
    const found = validateForgot({ email });
    setErrors(found);
    if (hasErrors(found)) {
      requestAnimationFrame(() => focusFirstError(form.current));
      return;
    }
    setBusy(true);
    const res = await apiFetch<{ message: string }>('/api/forgot', { body: { email: email.trim() } });
    setBusy(false);
    if (res.ok) return setSentTo(email.trim());
    const f = formFailure(res);
    if (f.fields) setErrors(f.fields);
    setAlert(f.form ?? null);
  }

  if (sentTo) {
    return (
      <AuthPage title="Check your mail">
        <FormAlert tone="success">{ACCOUNT_MESSAGES.resetSent}</FormAlert>
        <p className="mt-4 text-sm text-ink-muted">
          We wrote to <strong className="text-ink">{sentTo}</strong>. No mail after a few minutes? Look in the spam folder, or{' '}
          <button type="button" className="font-semibold text-brand-700 underline" onClick={() => setSentTo(null)}>
            try again
          </button>
          .
        </p>
      </AuthPage>
    );
  }

  return (
    <AuthPage title="Forgot your password?" intro="Give the email of your account and we will send you a link to choose a new password.">
      <form ref={form} onSubmit={submit} noValidate className="flex flex-col gap-4" aria-label="Forgot password">
        <FormAlert>{alert}</FormAlert>
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={errors.email}
          autoFocus
        />
        <Button type="submit" size="lg" disabled={busy} aria-busy={busy}>
          {busy ? 'Sending…' : 'Send reset link'}
        </Button>
        <p className="text-center text-sm text-ink-muted">
          Remembered it?{' '}
          <button type="button" className="font-semibold text-brand-700 underline-offset-2 hover:underline" onClick={() => session.openAuth('sign-in')}>
            Sign In
          </button>{' '}
          or{' '}
          <Link to="/" className="font-semibold text-brand-700 underline-offset-2 hover:underline">
            go shopping
          </Link>
        </p>
      </form>
    </AuthPage>
  );
}
