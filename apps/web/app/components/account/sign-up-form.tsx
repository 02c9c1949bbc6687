import { type TSignedInUser, MESSAGES, canSubmitSignUp, validateSignUp } from '@storefront/shared';
import { type FormEvent, useId, useState } from 'react';
import { useRevalidator } from 'react-router';
import { apiFetch } from '../../lib/api-client.ts';
import { Trans, useT } from '../../lib/i18n.tsx';
import { session } from '../../lib/session-store.ts';
import { toast } from '../../lib/toast.ts';
import { Button } from '../ui/button.tsx';
import { FormAlert, PasswordField, TextField } from './form-field.tsx';
import { useAccountForm } from './use-account-form.ts';

type Fields = { fullName: string; email: string; mobile: string; password: string; confirmPassword: string };
const EMPTY: Fields = { fullName: '', email: '', mobile: '', password: '', confirmPassword: '' };

/**
 * The sign-up form of the modal and of /sign-up: spec §5 rules in order, the terms box
 * that keeps Sign Up disabled until ticked, and spec §8's 409 text. A new account is
 * signed in at once.
 */
export function SignUpForm({ onSwitch, onDone }: { onSwitch(): void; onDone?(user: TSignedInUser): void }) {
  const { values, errors, alert, setAlert, busy, setBusy, form, change, check, showErrors, failed } = useAccountForm<Fields>(EMPTY, validateSignUp);
  const [terms, setTerms] = useState(false);
  const termsId = useId();
  const revalidator = useRevalidator();
  const { t } = useT();

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy || !canSubmitSignUp(terms) || !check()) return;
    setBusy(true);
    const { confirmPassword: _, ...body } = values;
    const res = await apiFetch<TSignedInUser>('/api/signup', {
      body: { source: 'DEFAULT', type: 'DEFAULT', ...body, fullName: body.fullName.trim(), email: body.email.trim() },
    });
    setBusy(false);
    if (res.ok) {
      void session.signedIn(res.data).then(() => revalidator.revalidate());
      toast.success(t('Welcome, {name}! Your account is ready.', { name: res.data.profile.name }));
      onDone?.(res.data);
      return;
    }
    if (res.status === 409) {
      // spec §8: 'duplicate_email'. The fields say whether the email or the mobile clashed.
      const f = res.error?.fields ?? {};
      return showErrors({
        ...(f.email || !f.mobile ? { email: MESSAGES.signUp.duplicateEmail } : {}),
        ...(f.mobile ? { mobile: f.mobile } : {}),
      });
    }
    setAlert(failed(res));
  }

  return (
    <form ref={form} onSubmit={submit} noValidate className="flex flex-col gap-4" aria-label={t('Sign up')} data-testid="sign-up-form">
      <FormAlert>{alert}</FormAlert>
      <TextField
        label={t('Full Name')}
        name="fullName"
        autoComplete="name"
        value={values.fullName}
        onChange={change('fullName')}
        error={errors.fullName}
        autoFocus
      />
      <TextField label={t('Email')} name="email" type="email" autoComplete="email" value={values.email} onChange={change('email')} error={errors.email} />
      <TextField
        label={t('Mobile No')}
        name="mobile"
        type="tel"
        autoComplete="tel"
        inputMode="tel"
        placeholder={t('01XXXXXXXXX')}
        value={values.mobile}
        onChange={change('mobile')}
        error={errors.mobile}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <PasswordField
          label={t('Password')}
          name="password"
          autoComplete="new-password"
          value={values.password}
          onChange={change('password')}
          error={errors.password}
          hint={t('At least 6 characters')}
        />
        <PasswordField
          label={t('Confirm Password')}
          name="confirmPassword"
          autoComplete="new-password"
          value={values.confirmPassword}
          onChange={change('confirmPassword')}
          error={errors.confirmPassword}
        />
      </div>
      <div className="flex items-start gap-3">
        <input id={termsId} type="checkbox" checked={terms} onChange={(e) => setTerms(e.target.checked)} className="mt-0.5 h-5 w-5 shrink-0 accent-brand-700" />
        <label htmlFor={termsId} className="text-sm text-ink">
          <Trans
            id="I agree to the <0>Terms and Conditions</0> and the <1>Privacy Policy</1>"
            components={{
              // biome-ignore lint/a11y/useAnchorContent: Trans puts the link's words in.
              0: <a href="/terms-conditions" target="_blank" rel="noopener" className="font-medium text-brand-700 underline" />,
              // biome-ignore lint/a11y/useAnchorContent: Trans puts the link's words in.
              1: <a href="/privacy-policy" target="_blank" rel="noopener" className="font-medium text-brand-700 underline" />,
            }}
          />
        </label>
      </div>
      <Button type="submit" size="lg" disabled={!canSubmitSignUp(terms) || busy} aria-busy={busy}>
        {busy ? t('Creating your account…') : t('Sign Up')}
      </Button>
      <p className="text-center text-sm text-ink-muted">
        <Trans
          id="Already have an account? <0>Sign In</0>"
          components={{ 0: <button type="button" onClick={onSwitch} className="font-semibold text-brand-700 underline-offset-2 hover:underline" /> }}
        />
      </p>
    </form>
  );
}
