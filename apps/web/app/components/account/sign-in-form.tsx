import { type TSignedInUser, MESSAGES, validateSignIn } from '@storefront/shared';
import type { FormEvent } from 'react';
import { useRevalidator } from 'react-router';
import { apiFetch } from '../../lib/api-client.ts';
import { Trans, useT } from '../../lib/i18n.tsx';
import { session } from '../../lib/session-store.ts';
import { toast } from '../../lib/toast.ts';
import { Button } from '../ui/button.tsx';
import { FormAlert, PasswordField, TextField } from './form-field.tsx';
import { useAccountForm } from './use-account-form.ts';

type Fields = { userName: string; password: string };

/**
 * The sign-in form of the modal and of /sign-in (spec §5 rules, §8 errors). A wrong
 * email, mobile or password gets both of the spec's texts, one under each field: the
 * server does not say which part was wrong, and neither do we.
 */
export function SignInForm({ onSwitch, onForgot, onDone }: { onSwitch(): void; onForgot(): void; onDone?(user: TSignedInUser): void }) {
  const { values, errors, alert, setAlert, busy, setBusy, form, change, check, showErrors, failed } = useAccountForm<Fields>(
    { userName: '', password: '' },
    validateSignIn,
  );
  const revalidator = useRevalidator();
  const { t } = useT();

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy || !check()) return;
    setBusy(true);
    const res = await apiFetch<TSignedInUser>('/api/signin/customers', {
      body: { source: 'DEFAULT', type: 'DEFAULT', userName: values.userName.trim(), password: values.password },
    });
    setBusy(false);
    if (res.ok) {
      void session.signedIn(res.data).then(() => revalidator.revalidate());
      toast.success(t('Welcome back, {name}', { name: res.data.profile.name }));
      onDone?.(res.data);
      return;
    }
    if (res.status === 409) return setAlert(MESSAGES.signIn.alreadyLoggedIn);
    if (res.status === 401) return showErrors({ userName: MESSAGES.signIn.wrongUser, password: MESSAGES.signIn.wrongPassword });
    setAlert(failed(res));
  }

  return (
    <form ref={form} onSubmit={submit} noValidate className="flex flex-col gap-4" aria-label={t('Sign in')} data-testid="sign-in-form">
      <FormAlert>{alert}</FormAlert>
      <TextField
        label={t('Email or Mobile No')}
        name="userName"
        autoComplete="username"
        inputMode="email"
        value={values.userName}
        onChange={change('userName')}
        error={errors.userName}
        autoFocus
      />
      <PasswordField
        label={t('Password')}
        name="password"
        autoComplete="current-password"
        value={values.password}
        onChange={change('password')}
        error={errors.password}
      />
      <div className="-mt-1 text-right">
        <button type="button" onClick={onForgot} className="text-sm font-medium text-brand-700 underline-offset-2 hover:underline">
          {t('Forgot password?')}
        </button>
      </div>
      <Button type="submit" size="lg" disabled={busy} aria-busy={busy}>
        {busy ? t('Signing in…') : t('Sign In')}
      </Button>
      <p className="text-center text-sm text-ink-muted">
        <Trans
          id="New to the shop? <0>Create an account</0>"
          components={{ 0: <button type="button" onClick={onSwitch} className="font-semibold text-brand-700 underline-offset-2 hover:underline" /> }}
        />
      </p>
    </form>
  );
}
