import { ACCOUNT_MESSAGES, type FieldErrors, hasErrors, validatePasswordReset } from '@storefront/shared';
import { type FormEvent, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { formFailure } from '../components/account/auth-result.ts';
import { AuthPage } from '../components/account/auth-page.tsx';
import { FormAlert, PasswordField, focusFirstError } from '../components/account/form-field.tsx';
import { Button, ButtonLink } from '../components/ui/button.tsx';
import { apiFetch } from '../lib/api-client.ts';
import { metaT, useT } from '../lib/i18n.tsx';
import { session } from '../lib/session-store.ts';
import type { Route } from './+types/reset-password';

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: metaT(matches).t('Choose a New Password') },
  { name: 'robots', content: 'noindex' },
  { name: 'referrer', content: 'no-referrer' },
];

type Fields = { password: string; confirmPassword: string };

/** The page a reset mail links to: a new password for the token in ?token=. */
export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [values, setValues] = useState<Fields>({ password: '', confirmPassword: '' });
  const [errors, setErrors] = useState<FieldErrors<keyof Fields>>({});
  const [alert, setAlert] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const { t } = useT();

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    setAlert(null);
    const found = validatePasswordReset(values);
    setErrors(found);
    if (hasErrors(found)) {
      requestAnimationFrame(() => focusFirstError(form.current));
      return;
    }
    setBusy(true);
    const res = await apiFetch<{ message: string }>('/api/forgot/reset', { body: { token, password: values.password } });
    setBusy(false);
    if (res.ok) {
      // Every session of the account has ended, this browser's too.
      session.expired();
      return setDone(true);
    }
    if (res.error?.code === 'invalid_token') return setAlert(ACCOUNT_MESSAGES.resetInvalid);
    const f = formFailure(res);
    if (f.fields) setErrors(f.fields);
    setAlert(f.form ?? null);
  }

  if (!token) {
    return (
      <AuthPage title={t('This link is not complete')}>
        <FormAlert>{ACCOUNT_MESSAGES.resetInvalid}</FormAlert>
        <ButtonLink to="/forgot-password" className="mt-5">
          {t('Ask for a new link')}
        </ButtonLink>
      </AuthPage>
    );
  }
  if (done) {
    return (
      <AuthPage title={t('Password changed')}>
        <FormAlert tone="success">{ACCOUNT_MESSAGES.passwordReset}</FormAlert>
        <Button className="mt-5" onClick={() => session.openAuth('sign-in')}>
          {t('Sign In')}
        </Button>
      </AuthPage>
    );
  }
  return (
    <AuthPage title={t('Choose a new password')} intro={t('At least 6 characters. You will be signed out everywhere and can then sign in with it.')}>
      <form ref={form} onSubmit={submit} noValidate className="flex flex-col gap-4" aria-label={t('Reset password')}>
        <FormAlert>{alert}</FormAlert>
        {alert === ACCOUNT_MESSAGES.resetInvalid && (
          <p className="-mt-2 text-sm">
            <Link to="/forgot-password" className="font-semibold text-brand-700 underline">
              {t('Ask for a new link')}
            </Link>
          </p>
        )}
        <PasswordField
          label={t('New Password')}
          name="password"
          autoComplete="new-password"
          value={values.password}
          onChange={(e) => setValues({ ...values, password: e.target.value })}
          error={errors.password}
          autoFocus
        />
        <PasswordField
          label={t('Confirm Password')}
          name="confirmPassword"
          autoComplete="new-password"
          value={values.confirmPassword}
          onChange={(e) => setValues({ ...values, confirmPassword: e.target.value })}
          error={errors.confirmPassword}
        />
        <Button type="submit" size="lg" disabled={busy} aria-busy={busy}>
          {busy ? t('Saving…') : t('Set new password')}
        </Button>
      </form>
    </AuthPage>
  );
}
