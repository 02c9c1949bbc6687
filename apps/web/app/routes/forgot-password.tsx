import { ACCOUNT_MESSAGES, type FieldErrors, hasErrors, validateForgot } from '@storefront/shared';
import { type FormEvent, useRef, useState } from 'react';
import { Link } from 'react-router';
import { formFailure } from '../components/account/auth-result.ts';
import { AuthPage } from '../components/account/auth-page.tsx';
import { FormAlert, TextField, focusFirstError } from '../components/account/form-field.tsx';
import { Button } from '../components/ui/button.tsx';
import { apiFetch } from '../lib/api-client.ts';
import { metaT, Trans, useT } from '../lib/i18n.tsx';
import { session } from '../lib/session-store.ts';
import type { Route } from './+types/forgot-password';

export const meta: Route.MetaFunction = ({ matches }) => [{ title: metaT(matches).t('Forgot Password') }, { name: 'robots', content: 'noindex' }];

/** Asks for a reset link by mail (POST /api/forgot); the answer never says whether the account exists. */
export default function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [errors, setErrors] = useState<FieldErrors<'email'>>({});
  const [alert, setAlert] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const { t } = useT();

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
      <AuthPage title={t('Check your mail')}>
        <FormAlert tone="success">{ACCOUNT_MESSAGES.resetSent}</FormAlert>
        <p className="mt-4 text-sm text-ink-muted">
          <Trans
            id="We wrote to <0>{email}</0>. No mail after a few minutes? Look in the spam folder, or <1>try again</1>."
            values={{ email: sentTo }}
            components={{
              0: <strong className="text-ink" />,
              1: <button type="button" className="font-semibold text-brand-700 underline" onClick={() => setSentTo(null)} />,
            }}
          />
        </p>
      </AuthPage>
    );
  }

  return (
    <AuthPage title={t('Forgot your password?')} intro={t('Give the email of your account and we will send you a link to choose a new password.')}>
      <form ref={form} onSubmit={submit} noValidate className="flex flex-col gap-4" aria-label={t('Forgot password')}>
        <FormAlert>{alert}</FormAlert>
        <TextField
          label={t('Email')}
          name="email"
          type="email"
          autoComplete="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={errors.email}
          autoFocus
        />
        <Button type="submit" size="lg" disabled={busy} aria-busy={busy}>
          {busy ? t('Sending…') : t('Send reset link')}
        </Button>
        <p className="text-center text-sm text-ink-muted">
          <Trans
            id="Remembered it? <0>Sign In</0> or <1>go shopping</1>"
            components={{
              0: (
                <button type="button" className="font-semibold text-brand-700 underline-offset-2 hover:underline" onClick={() => session.openAuth('sign-in')} />
              ),
              1: <Link to="/" className="font-semibold text-brand-700 underline-offset-2 hover:underline" />,
            }}
          />
        </p>
      </form>
    </AuthPage>
  );
}
