import { ACCOUNT_MESSAGES, type FieldErrors, type TCustomer, hasErrors, validatePasswordChange } from '@storefront/shared';
import { type FormEvent, useRef, useState } from 'react';
import { Link } from 'react-router';
import { apiFetch } from '../../lib/api-client.ts';
import { session } from '../../lib/session-store.ts';
import { toast } from '../../lib/toast.ts';
import { Button } from '../ui/button.tsx';
import { formFailure } from './auth-result.ts';
import { FormAlert, PasswordField, focusFirstError } from './form-field.tsx';

type Fields = { currentPassword: string; newPassword: string; confirmPassword: string };
const EMPTY: Fields = { currentPassword: '', newPassword: '', confirmPassword: '' };

/** Change the password (POST /api/auth/change); the customer's other sessions end. */
export function SecurityTab({ customer }: { customer: TCustomer }) {
  const [values, setValues] = useState<Fields>(EMPTY);
  const [errors, setErrors] = useState<FieldErrors<keyof Fields>>({});
  const [alert, setAlert] = useState<{ tone: 'error' | 'success'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const set = (k: keyof Fields) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [k]: e.target.value }));

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    setAlert(null);
    const found = validatePasswordChange(values);
    setErrors(found);
    if (hasErrors(found)) {
      requestAnimationFrame(() => focusFirstError(form.current));
      return;
    }
    setBusy(true);
    const res = await apiFetch<{ revokedSessions: number }>('/api/auth/change', { body: { currentPassword: values.currentPassword, newPassword: values.newPassword } });
    setBusy(false);
    if (res.ok) {
      setValues(EMPTY);
      setErrors({});
      setAlert({ tone: 'success', text: ACCOUNT_MESSAGES.passwordChanged });
      toast.success('Password changed');
      return;
    }
    if (res.status === 401) return session.expired();
    const f = formFailure(res);
    if (f.fields) {
      setErrors(f.fields);
      requestAnimationFrame(() => focusFirstError(form.current));
    }
    if (f.form) setAlert({ tone: 'error', text: f.form });
  }

  return (
    <section aria-labelledby="password-heading" className="rounded-[var(--radius-card)] border border-sand-200 bg-paper p-5 md:p-6">
      <h2 id="password-heading" className="text-lg font-semibold">
        Change password
      </h2>
      <p className="mt-1 text-sm text-ink-muted">For {customer.email}. Changing it signs you out on your other devices.</p>
      <form ref={form} onSubmit={submit} noValidate className="mt-4 grid gap-4 md:max-w-md" aria-label="Change password">
        {alert && <FormAlert tone={alert.tone}>{alert.text}</FormAlert>}
        <PasswordField label="Current Password" name="currentPassword" autoComplete="current-password" value={values.currentPassword} onChange={set('currentPassword')} error={errors.currentPassword} />
        <PasswordField label="New Password" name="newPassword" autoComplete="new-password" value={values.newPassword} onChange={set('newPassword')} error={errors.newPassword} hint="At least 6 characters" />
        <PasswordField label="Confirm New Password" name="confirmPassword" autoComplete="new-password" value={values.confirmPassword} onChange={set('confirmPassword')} error={errors.confirmPassword} />
        <div className="flex flex-wrap items-center gap-4">
          <Button type="submit" disabled={busy} aria-busy={busy}>
            {busy ? 'Changing…' : 'Change password'}
          </Button>
          <Link to="/forgot-password" className="text-sm font-medium text-brand-700 underline-offset-2 hover:underline">
            Forgot your current password?
          </Link>
        </div>
      </form>
    </section>
  );
}
