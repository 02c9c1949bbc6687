import { DIVISION_NAMES, displayMobile, type TAddress, type TAddressFields, districtsOf, validateAddress } from '@storefront/shared';
import type { FormEvent } from 'react';
import { apiFetch } from '../../lib/api-client.ts';
import { useT } from '../../lib/i18n.tsx';
import { Button } from '../ui/button.tsx';
import { FormAlert, SelectField, TextField } from './form-field.tsx';
import { useAccountForm } from './use-account-form.ts';

type Fields = TAddressFields & { label: string; isDefault: boolean };

export const emptyAddress = (): Fields => ({ fullName: '', phone: '', division: '', district: '', area: '', addressLine: '', label: '', isDefault: false });

export function addressFields(a: TAddress): Fields {
  return {
    fullName: a.fullName,
    phone: displayMobile(a.phone),
    division: a.division,
    district: a.district,
    area: a.area,
    addressLine: a.addressLine,
    label: a.label ?? '',
    isDefault: a.isDefault,
  };
}

/**
 * A Bangladeshi delivery address: receiver, phone, division → district (the district list
 * follows the division), area, house and road. Saves with POST /api/addresses or PUT
 * /api/addresses/:id; used by the profile's address book (and ready for checkout).
 */
export function AddressForm({
  initial,
  addressId,
  onSaved,
  onCancel,
  submitLabel,
}: {
  initial?: Fields;
  addressId?: number;
  onSaved(address: TAddress): void;
  onCancel?(): void;
  submitLabel?: string;
}) {
  const { values, set, update, errors, alert, setAlert, busy, setBusy, form, check, failed } = useAccountForm<Fields>(initial ?? emptyAddress, validateAddress);
  const { t } = useT();

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy || !check()) return;
    setBusy(true);
    const body = { ...values, label: values.label.trim() || null };
    const res = addressId
      ? await apiFetch<TAddress>(`/api/addresses/${addressId}`, { method: 'PUT', body })
      : await apiFetch<TAddress>('/api/addresses', { method: 'POST', body });
    setBusy(false);
    if (res.ok) return onSaved(res.data);
    setAlert(failed(res));
  }

  return (
    <form
      ref={form}
      onSubmit={submit}
      noValidate
      className="grid gap-4 md:grid-cols-2"
      aria-label={addressId ? t('Edit address') : t('New address')}
      data-testid="address-form"
    >
      <div className="md:col-span-2">
        <FormAlert>{alert}</FormAlert>
      </div>
      <TextField
        label={t('Receiver’s Name')}
        name="fullName"
        autoComplete="name"
        value={values.fullName}
        onChange={(e) => set('fullName', e.target.value)}
        error={errors.fullName}
      />
      <TextField
        label={t('Phone')}
        name="phone"
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        placeholder={t('01XXXXXXXXX')}
        value={values.phone}
        onChange={(e) => set('phone', e.target.value)}
        error={errors.phone}
      />
      <SelectField
        label={t('Division')}
        name="division"
        value={values.division}
        onChange={(e) => update({ division: e.target.value, district: districtsOf(e.target.value).includes(values.district) ? values.district : '' })}
        error={errors.division}
      >
        <option value="">{t('Choose a division')}</option>
        {DIVISION_NAMES.map((d) => (
          <option key={d} value={d}>
            {d}
          </option>
        ))}
      </SelectField>
      <SelectField
        label={t('District')}
        name="district"
        value={values.district}
        onChange={(e) => set('district', e.target.value)}
        error={errors.district}
        disabled={!values.division}
      >
        <option value="">{values.division ? t('Choose a district') : t('Choose a division first')}</option>
        {districtsOf(values.division).map((d) => (
          <option key={d} value={d}>
            {d}
          </option>
        ))}
      </SelectField>
      <TextField
        label={t('Area')}
        name="area"
        autoComplete="address-level3"
        placeholder={t('Thana, upazila or area, such as Gulshan 2')}
        value={values.area}
        onChange={(e) => set('area', e.target.value)}
        error={errors.area}
      />
      <TextField
        label={t('Label (optional)')}
        name="label"
        placeholder={t('Home, Office…')}
        value={values.label}
        onChange={(e) => set('label', e.target.value)}
        error={errors.label}
      />
      <TextField
        className="md:col-span-2"
        label={t('House, Road and Landmark')}
        name="addressLine"
        autoComplete="street-address"
        value={values.addressLine}
        onChange={(e) => set('addressLine', e.target.value)}
        error={errors.addressLine}
      />
      <label className="flex items-center gap-3 text-sm md:col-span-2">
        <input type="checkbox" checked={values.isDefault} onChange={(e) => set('isDefault', e.target.checked)} className="h-5 w-5 accent-brand-700" />
        {t('Use as my default delivery address')}
      </label>
      <div className="flex flex-wrap gap-3 md:col-span-2">
        <Button type="submit" disabled={busy} aria-busy={busy}>
          {busy ? t('Saving…') : (submitLabel ?? t('Save address'))}
        </Button>
        {onCancel && (
          <Button variant="ghost" onClick={onCancel}>
            {t('Cancel')}
          </Button>
        )}
      </div>
    </form>
  );
}

/** One address as a card's text. */
export function AddressLines({ address }: { address: TAddress }) {
  const { digits } = useT();
  return (
    <address className="not-italic text-[0.95rem] leading-relaxed">
      <span className="block font-semibold">{address.fullName}</span>
      <span className="block">{address.addressLine}</span>
      <span className="block">
        {address.area}, {address.district}, {address.division}
      </span>
      <span className="block text-ink-muted">{digits(displayMobile(address.phone))}</span>
    </address>
  );
}
