import { type TCustomer, displayMobile, validateProfile } from '@storefront/shared';
import type { FormEvent } from 'react';
import { useRevalidator, useRouteLoaderData } from 'react-router';
import { apiFetch } from '../../lib/api-client.ts';
import { useT } from '../../lib/i18n.tsx';
import { session } from '../../lib/session-store.ts';
import { toast } from '../../lib/toast.ts';
import { Button } from '../ui/button.tsx';
import { FormAlert, TextField } from './form-field.tsx';
import { ProfileImageUpload } from './profile-image-upload.tsx';
import type { ShellUser } from './shell-user.ts';
import { useAccountForm } from './use-account-form.ts';

/** spec §2 profile tab: the picture, name and mobile, email, newsletter status. */
export function ProfileTab({ customer }: { customer: TCustomer }) {
  const root = useRouteLoaderData('root') as { user?: ShellUser | null } | undefined;
  const revalidator = useRevalidator();
  const { values, change, errors, alert, setAlert, busy, setBusy, form, check, failed } = useAccountForm(
    { fullName: customer.fullName, mobile: displayMobile(customer.mobile) },
    validateProfile,
  );
  const { t, date } = useT();
  const changed = values.fullName.trim() !== customer.fullName || values.mobile.trim() !== displayMobile(customer.mobile);

  async function save(e: FormEvent) {
    e.preventDefault();
    if (busy || !check()) return;
    setBusy(true);
    const res = await apiFetch<TCustomer>('/api/customers', { method: 'PUT', body: { fullName: values.fullName.trim(), mobile: values.mobile.trim() } });
    setBusy(false);
    if (res.ok) {
      session.updateUser({ name: res.data.fullName }, root?.user ?? null);
      toast.success(t('Your profile has been saved'));
      revalidator.revalidate();
      return;
    }
    if (res.status === 401) return session.expired();
    setAlert(failed(res));
  }

  return (
    <div className="flex flex-col gap-8">
      <section aria-labelledby="photo-heading" className="rounded-[var(--radius-card)] border border-sand-200 bg-paper p-5 md:p-6">
        <h2 id="photo-heading" className="sr-only">
          {t('Profile picture')}
        </h2>
        <ProfileImageUpload customer={customer} />
      </section>

      <section aria-labelledby="details-heading" className="rounded-[var(--radius-card)] border border-sand-200 bg-paper p-5 md:p-6">
        <h2 id="details-heading" className="text-lg font-semibold">
          {t('Your details')}
        </h2>
        <form ref={form} onSubmit={save} noValidate className="mt-4 grid gap-4 md:max-w-xl" aria-label={t('Your details')}>
          <FormAlert>{alert}</FormAlert>
          <TextField label={t('Full Name')} name="fullName" autoComplete="name" value={values.fullName} onChange={change('fullName')} error={errors.fullName} />
          <TextField
            label={t('Mobile No')}
            name="mobile"
            type="tel"
            autoComplete="tel"
            inputMode="tel"
            value={values.mobile}
            onChange={change('mobile')}
            error={errors.mobile}
          />
          <TextField
            label={t('Email')}
            name="email"
            type="email"
            value={customer.email}
            readOnly
            disabled
            hint={t('Your email signs you in and cannot be changed here.')}
          />
          <div>
            <Button type="submit" disabled={busy || !changed} aria-busy={busy}>
              {busy ? t('Saving…') : t('Save changes')}
            </Button>
          </div>
        </form>
      </section>

      <section aria-labelledby="news-heading" className="rounded-[var(--radius-card)] border border-sand-200 bg-paper p-5 md:p-6">
        <h2 id="news-heading" className="text-lg font-semibold">
          {t('Newsletter')}
        </h2>
        <p className="mt-2 flex flex-wrap items-center gap-2 text-ink-muted" data-testid="subscription-status">
          {t('Subscription status:')}
          {customer.subscriptionStatus === 'SUBSCRIBED' ? (
            <span className="rounded-full bg-brand-50 px-2.5 py-0.5 text-sm font-semibold text-brand-700">{t('Subscribed')}</span>
          ) : (
            <span className="rounded-full bg-sand-100 px-2.5 py-0.5 text-sm font-semibold text-ink">{t('Not subscribed')}</span>
          )}
        </p>
        <p className="mt-2 text-sm text-ink-muted">{t('Member since {date}.', { date: date(customer.dateCreated.slice(0, 10)) })}</p>
      </section>
    </div>
  );
}
