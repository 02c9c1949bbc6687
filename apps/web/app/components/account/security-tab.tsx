import { ACCOUNT_MESSAGES, type TCustomer, validatePasswordChange } from '@storefront/shared';
import type { FormEvent } from 'react';
import { Link } from 'react-router';
import { apiFetch } from '../../lib/api-client.ts';
import { useT } from '../../lib/i18n.tsx';
import { session } from '../../lib/session-store.ts';
import { toast } from '../../lib/toast.ts';
import { Button } from '../ui/button.tsx';
import { FormAlert, PasswordField } from './form-field.tsx';
import { useAccountForm } from './use-account-form.ts';

type Fields = { currentPassword: string; newPassword: string; confirmPassword: string };
const EMPTY: Fields = { currentPassword: '', newPassword: '', confirmPassword: '' };

/** Change the password (POST /api/auth/change); the customer's other sessions end. */
export function SecurityTab({ customer }: { customer: TCustomer }) {
  const { values, change, reset, errors, alert, setAlert, busy, setBusy, form, check, failed } = useAccountForm<
    Fields,
    { tone: 'error' | 'success'; text: string }
  >(EMPTY, validatePasswordChange);
  const { t } = useT();

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy || !check()) return;
    setBusy(true);
    const res = await apiFetch<{ revokedSessions: number }>('/api/auth/change', {
      body: { currentPassword: values.currentPassword, newPassword: values.newPassword },
    });
    setBusy(false);
    if (res.ok) {
      reset(EMPTY);
      setAlert({ tone: 'success', text: ACCOUNT_MESSAGES.passwordChanged });
      toast.success(t('Password changed'));
      return;
    }
    if (res.status === 401) return session.expired();
    const message = failed(res);
    if (message) setAlert({ tone: 'error', text: message });
  }

  return (
    <section aria-labelledby="password-heading" className="rounded-[var(--radius-card)] border border-sand-200 bg-paper p-5 md:p-6">
      <h2 id="password-heading" className="text-lg font-semibold">
        {t('Change password')}
      </h2>
      <p className="mt-1 text-sm text-ink-muted">{t('For {email}. Changing it signs you out on your other devices.', { email: customer.email })}</p>
      <form ref={form} onSubmit={submit} noValidate className="mt-4 grid gap-4 md:max-w-md" aria-label={t('Change password')}>
        {alert && <FormAlert tone={alert.tone}>{alert.text}</FormAlert>}
        <PasswordField
          label={t('Current Password')}
          name="currentPassword"
          autoComplete="current-password"
          value={values.currentPassword}
          onChange={change('currentPassword')}
          error={errors.currentPassword}
        />
        <PasswordField
          label={t('New Password')}
          name="newPassword"
          autoComplete="new-password"
          value={values.newPassword}
          onChange={change('newPassword')}
          error={errors.newPassword}
          hint={t('At least 6 characters')}
        />
        <PasswordField
          label={t('Confirm New Password')}
          name="confirmPassword"
          autoComplete="new-password"
          value={values.confirmPassword}
          onChange={change('confirmPassword')}
          error={errors.confirmPassword}
        />
        <div className="flex flex-wrap items-center gap-4">
          <Button type="submit" disabled={busy} aria-busy={busy}>
            {busy ? t('Changing…') : t('Change password')}
          </Button>
          <Link to="/forgot-password" className="text-sm font-medium text-brand-700 underline-offset-2 hover:underline">
            {t('Forgot your current password?')}
          </Link>
        </div>
      </form>
    </section>
  );
}
