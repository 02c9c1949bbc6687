import { MAX_ADDRESSES, type TAddress } from '@storefront/shared';
import { useState } from 'react';
import { useRevalidator } from 'react-router';
import { apiFetch } from '../../lib/api-client.ts';
import { useT } from '../../lib/i18n.tsx';
import { translateMessage } from '../../lib/translate-message.ts';
import { toast } from '../../lib/toast.ts';
import { Button } from '../ui/button.tsx';
import { AddressForm, AddressLines, addressFields } from './address-form.tsx';

/** The address book: saved delivery addresses, the default first (spec §7 addresses). */
export function AddressesTab({ addresses }: { addresses: TAddress[] }) {
  const revalidator = useRevalidator();
  const [editing, setEditing] = useState<number | 'new' | null>(addresses.length ? null : 'new');
  const [confirming, setConfirming] = useState<number | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const l = useT();
  const { t } = l;

  /** toast: the whole sentence ("Address saved"), in the page's language. */
  const saved = (a: TAddress, toastText: string) => {
    toast.success(toastText);
    setEditing(null);
    revalidator.revalidate();
    return a;
  };

  async function remove(id: number) {
    setBusy(id);
    const res = await apiFetch(`/api/addresses/${id}`, { method: 'DELETE' });
    setBusy(null);
    setConfirming(null);
    if (res.ok || res.status === 404) {
      toast.success(t('Address deleted'));
      revalidator.revalidate();
    } else
      toast.error(
        res.networkError ? t('Could not reach the shop. Please try again.') : (translateMessage(l, res.error?.message) ?? t('Could not delete the address')),
      );
  }

  async function makeDefault(a: TAddress) {
    setBusy(a.id);
    const res = await apiFetch<TAddress>(`/api/addresses/${a.id}`, { method: 'PUT', body: { ...addressFields(a), isDefault: true } });
    setBusy(null);
    if (res.ok) saved(res.data, t('Address set as default'));
    else toast.error(translateMessage(l, res.error?.message) ?? t('Could not change the default address'));
  }

  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-lg font-semibold">{t('Saved addresses')}</h2>
        {editing === null && addresses.length < MAX_ADDRESSES && <Button onClick={() => setEditing('new')}>{t('Add a new address')}</Button>}
      </div>
      {editing === 'new' && (
        <section aria-label={t('New address')} className="rounded-[var(--radius-card)] border border-brand-100 bg-paper p-5 md:p-6">
          <h3 className="mb-4 font-semibold">{t('New address')}</h3>
          <AddressForm onSaved={(a) => saved(a, t('Address saved'))} onCancel={addresses.length ? () => setEditing(null) : undefined} />
        </section>
      )}
      {addresses.length === 0 && editing !== 'new' && <p className="text-ink-muted">{t('You have no saved addresses yet.')}</p>}
      <ul className="grid gap-4 lg:grid-cols-2" data-testid="address-list">
        {addresses.map((a) => (
          <li key={a.id} className="rounded-[var(--radius-card)] border border-sand-200 bg-paper p-5" data-testid="address-card">
            {editing === a.id ? (
              <AddressForm addressId={a.id} initial={addressFields(a)} onSaved={(x) => saved(x, t('Address updated'))} onCancel={() => setEditing(null)} />
            ) : (
              <>
                <div className="mb-2 flex flex-wrap items-center gap-2">
                  {a.label && <span className="rounded-full bg-sand-100 px-2.5 py-0.5 text-xs font-semibold">{a.label}</span>}
                  {a.isDefault && <span className="rounded-full bg-brand-50 px-2.5 py-0.5 text-xs font-semibold text-brand-700">{t('Default')}</span>}
                </div>
                <AddressLines address={a} />
                <div className="mt-4 flex flex-wrap gap-2">
                  <Button size="sm" variant="secondary" onClick={() => setEditing(a.id)} aria-label={t('Edit address: {address}', { address: a.addressLine })}>
                    {t('Edit')}
                  </Button>
                  {!a.isDefault && (
                    <Button size="sm" variant="ghost" onClick={() => void makeDefault(a)} disabled={busy === a.id}>
                      {t('Make default')}
                    </Button>
                  )}
                  {confirming === a.id ? (
                    <span className="flex items-center gap-2" role="group" aria-label={t('Confirm delete')}>
                      <span className="text-sm">{t('Delete this address?')}</span>
                      <Button size="sm" variant="danger" onClick={() => void remove(a.id)} disabled={busy === a.id}>
                        {t('Yes, delete')}
                      </Button>
                      <Button size="sm" variant="ghost" onClick={() => setConfirming(null)}>
                        {t('Keep')}
                      </Button>
                    </span>
                  ) : (
                    <button
                      type="button"
                      onClick={() => setConfirming(a.id)}
                      aria-label={t('Delete address: {address}', { address: a.addressLine })}
                      className="inline-flex h-9 items-center rounded-lg px-3 text-sm font-semibold text-danger-600 hover:bg-sand-100"
                    >
                      {t('Delete')}
                    </button>
                  )}
                </div>
              </>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
