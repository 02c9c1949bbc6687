import {
  CHECKOUT_MESSAGES,
  DELIVERY_METHOD_LABELS,
  DIVISION_NAMES,
  deliveryCharge,
  displayMobile,
  districtsOf,
  type FieldErrors,
  hasErrors,
  type TAddress,
  type TAddressFields,
  type TBranch,
  type TCartQuote,
  type TCheckoutResponse,
  type TDeliveryMethod,
  type TDeliveryZone,
  type TPage,
  type TPaymentMethod,
  validateAddress,
  validateGuestContact,
} from '@storefront/shared';
import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useRevalidator, useRouteLoaderData } from 'react-router';
import type { ShellUser } from '../components/account/shell-user.ts';
import { FormAlert, focusFirstError, SelectField, TextField } from '../components/account/form-field.tsx';
import { CartLoading } from '../components/cart/cart-loading.tsx';
import { AlertIcon } from '../components/cart/cart-icons.tsx';
import { EMPTY_CART_TEXT } from '../components/cart/cart-slots.tsx';
import { OrderLines, OrderTotals } from '../components/checkout/order-lines.tsx';
import { Button, ButtonLink } from '../components/ui/button.tsx';
import { apiFetch } from '../lib/api-client.ts';
import { cartActions, useCart, useCartReady } from '../lib/cart-store.ts';
import { useMoney } from '../lib/currency.tsx';
import { type Localized, metaT, Trans, useT } from '../lib/i18n.tsx';
import { translateMessage } from '../lib/translate-message.ts';
import { session, useSessionUser } from '../lib/session-store.ts';
import { brandName, type SiteSettings } from '../lib/site.ts';
import type { Route } from './+types/checkout';

// /checkout (spec §2): where the order is placed. The cart's skus and quantities go to
// POST /api/checkouts, which prices them itself; what this page shows comes from the same
// server quote (POST /api/carts/quote) plus the shop's delivery zones and the shared rule that
// charges by them (docs/decisions/0033), so what the shopper sees is what is charged — in
// taka, whatever the display currency.

export async function loader({ context }: Route.LoaderArgs) {
  const [addresses, branches, zones, methods] = await Promise.all([
    context
      .api('/api/addresses/search', { method: 'POST', body: { page: 1, size: 50 } })
      .then(async (r) => (r.ok ? ((await r.json()) as TPage<TAddress>).list : []))
      .catch(() => [] as TAddress[]),
    context
      .api('/api/branches')
      .then(async (r) => (r.ok ? ((await r.json()) as { list: TBranch[] }).list : []))
      .catch(() => [] as TBranch[]),
    context
      .api('/api/delivery/zones')
      .then(async (r) => (r.ok ? ((await r.json()) as { list: TDeliveryZone[]; pricedBy?: 'zones' | 'courier' }) : { list: [] as TDeliveryZone[] }))
      .catch(() => ({ list: [] as TDeliveryZone[], pricedBy: undefined })),
    // bKash and Nagad are offered only when the shop has their credentials (the API says so).
    context
      .api('/api/checkouts/payment-methods')
      .then(async (r) => (r.ok ? ((await r.json()) as { list: TPaymentMethod[] }).list : DEFAULT_METHODS))
      .catch(() => DEFAULT_METHODS),
  ]);
  return {
    addresses,
    showrooms: branches.filter((b) => b.kind !== 'warehouse'),
    zones: zones.list,
    // Below a zone's free-delivery threshold, home delivery may cost the courier's quote for the address (docs/decisions/0045).
    courierPriced: zones.pricedBy === 'courier',
    methods,
  };
}

export function meta({ matches }: Route.MetaArgs) {
  const settings = (matches[0]?.data as { settings?: SiteSettings } | undefined)?.settings ?? {};
  const { t } = metaT(matches);
  return [{ title: `${t('Checkout')} — ${brandName(settings)}` }, { name: 'robots', content: 'noindex' }];
}

const DEFAULT_METHODS: TPaymentMethod[] = ['card', 'cod', 'later'];

/** The payment choices in the page's language (their titles are PAYMENT_METHOD_LABELS' texts). */
const paymentChoices = ({ t }: Localized): { id: TPaymentMethod; title: string; text: string }[] => [
  {
    id: 'card',
    title: t('Card or mobile banking'),
    text: t('Visa, Mastercard, Amex, bKash, Nagad and internet banking through our secure payment partner.'),
  },
  { id: 'cod', title: t('Cash on delivery'), text: t('Pay in cash when your furniture arrives (or when you collect it).') },
  { id: 'later', title: t('Pay later (booking)'), text: t('We hold the items for you. Pay at a showroom or by bank transfer, then upload the slip.') },
  { id: 'bkash', title: t('bKash'), text: t('Pay from your bKash wallet: you approve the payment in bKash with your PIN.') },
  { id: 'nagad', title: t('Nagad'), text: t('Pay from your Nagad wallet: you approve the payment on Nagad’s page with a code and your PIN.') },
];

type Contact = { name: string; mobile: string; email: string };

/** "1–3 days", "2 days", "today" (the shared etaText, in the page's language). */
export function etaLocal({ t, n }: Localized, zone: Pick<TDeliveryZone, 'etaMinDays' | 'etaMaxDays'>): string {
  if (zone.etaMaxDays === 0) return t('today');
  if (zone.etaMinDays === zone.etaMaxDays) return t('{days, plural, one {# day} other {# days}}', { days: zone.etaMaxDays });
  return t('{min}–{max} days', { min: n(zone.etaMinDays), max: n(zone.etaMaxDays) });
}

/** The zones in a sentence: "Our team delivers and assembles: ৳500 in Dhaka city (free from ৳20,000), …". */
function zonesText(l: Localized, zones: readonly TDeliveryZone[], format: (n: number) => string): string {
  const { t } = l;
  const parts = zones.map((z) => {
    const v = { fee: z.fee ? format(z.fee) : '', zone: z.name, freeFrom: z.freeFrom !== null ? format(z.freeFrom) : '', eta: etaLocal(l, z) };
    const threshold = z.freeFrom !== null && z.fee;
    if (!z.fee) return z.districts.length ? t('free in {zone}, {eta}', v) : t('free elsewhere, {eta}', v);
    if (z.districts.length) return threshold ? t('{fee} in {zone} (free from {freeFrom}), {eta}', v) : t('{fee} in {zone}, {eta}', v);
    return threshold ? t('{fee} elsewhere (free from {freeFrom}), {eta}', v) : t('{fee} elsewhere, {eta}', v);
  });
  return t('Our team delivers and assembles: {zones}.', { zones: parts.join('; ') });
}

export default function CheckoutPage({ loaderData }: Route.ComponentProps) {
  const root = useRouteLoaderData('root') as { user?: ShellUser | null } | undefined;
  const user = useSessionUser(root?.user ?? null);
  const cart = useCart();
  const ready = useCartReady();
  const money = useMoney();
  const l = useT();
  const { t, n, digits } = l;
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const { addresses, showrooms, zones, methods, courierPriced } = loaderData;

  const [quote, setQuote] = useState<{ key: string; data: TCartQuote } | null>(null);
  const [quoteFailed, setQuoteFailed] = useState(false);
  const [delivery, setDelivery] = useState<TDeliveryMethod>('home_delivery');
  const [payment, setPayment] = useState<TPaymentMethod>('card');
  const defaultAddress = addresses.find((a) => a.isDefault) ?? addresses[0];
  const [addressChoice, setAddressChoice] = useState<number | 'new'>(defaultAddress?.id ?? 'new');
  const [address, setAddress] = useState<TAddressFields>({ fullName: '', phone: '', division: '', district: '', area: '', addressLine: '' });
  const [contact, setContact] = useState<Contact>({ name: '', mobile: '', email: '' });
  const [pickup, setPickup] = useState<number | ''>('');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [alert, setAlert] = useState<ReactNode>(null);
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const attempt = useRef<{ key: string; body: string } | null>(null);

  // Back from the payment page (the cart is kept until the payment is verified): a page the
  // browser restores as it was must not stay "busy". Its idempotency key is restored with
  // it, so placing the same order again answers the order already placed.
  useEffect(() => {
    const onShow = (e: PageTransitionEvent) => {
      if (e.persisted) setBusy(false);
    };
    window.addEventListener('pageshow', onShow);
    return () => window.removeEventListener('pageshow', onShow);
  }, []);

  // Saved addresses arrive when the shopper signs in on this page.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when a saved address arrives (sign-in on this page); the shopper's own choice is not overridden.
  useEffect(() => {
    if (defaultAddress && addressChoice === 'new' && !address.fullName) setAddressChoice(defaultAddress.id);
  }, [defaultAddress?.id]);

  const key = JSON.stringify([cart.lines.map((l) => [l.sku.code, l.quantity]), cart.couponCode]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for what the quote depends on (skus, quantities, coupon).
  useEffect(() => {
    if (!ready || cart.lines.length === 0) return;
    const controller = new AbortController();
    void apiFetch<TCartQuote>('/api/carts/quote', {
      body: { lines: cart.lines.map((l) => ({ skuCode: l.sku.code, quantity: l.quantity })), couponCode: cart.couponCode },
      signal: controller.signal,
    }).then((res) => {
      if (controller.signal.aborted) return;
      setQuoteFailed(!res.ok);
      if (res.ok) setQuote({ key, data: res.data });
    });
    return () => controller.abort();
  }, [key, ready]);

  // The courier's quote for the address, where the shop prices delivery by it: asked of the
  // server (which charges the same), a moment after the shopper stops typing the area.
  const [courierQuote, setCourierQuote] = useState<{ query: string; fee: number | null } | null>(null);
  const feeAddress = delivery !== 'home_delivery' ? null : typeof addressChoice === 'number' ? addresses.find((a) => a.id === addressChoice) : address;
  const feeQuery =
    courierPriced && feeAddress?.district && quote?.key === key
      ? new URLSearchParams({
          district: feeAddress.district,
          area: feeAddress.area ?? '',
          units: String(cart.lines.reduce((n, l) => n + l.quantity, 0)),
          itemsTotal: String(quote.data.totals.total),
        }).toString()
      : null;
  useEffect(() => {
    if (!feeQuery) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      void apiFetch<{ fee: number }>(`/api/delivery/fee?${feeQuery}`, { signal: controller.signal }).then((res) => {
        if (!controller.signal.aborted) setCourierQuote({ query: feeQuery, fee: res.ok ? res.data.fee : null });
      });
    }, 300);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [feeQuery]);

  if (!ready) {
    return (
      <Shell>
        <CartLoading />
      </Shell>
    );
  }
  if (cart.lines.length === 0) {
    return (
      <Shell>
        <div className="flex flex-col items-center gap-5 rounded-[var(--radius-card)] bg-paper px-6 py-16 text-center shadow-[var(--shadow-card)]">
          <p className="text-lg font-semibold tracking-wider text-ink-muted">{t(EMPTY_CART_TEXT)}</p>
          <div className="flex flex-wrap justify-center gap-3">
            <ButtonLink to="/shop">{t('Continue Shopping')}</ButtonLink>
            <ButtonLink to="/orders" variant="secondary">
              {t('View my orders')}
            </ButtonLink>
          </div>
        </div>
      </Shell>
    );
  }

  const fresh = quote?.key === key ? quote.data : null;
  const savedAddress = typeof addressChoice === 'number' ? addresses.find((a) => a.id === addressChoice) : undefined;
  const district = delivery === 'showroom_pickup' ? null : savedAddress ? savedAddress.district : address.district || null;
  const charge = delivery === 'home_delivery' && (!district || !fresh) ? null : deliveryCharge(zones, delivery, district, fresh?.totals.total ?? 0);
  const quoted = feeQuery && courierQuote?.query === feeQuery ? courierQuote : null;
  // Free by the zone's threshold stays free; otherwise the courier's quote (the zone's fee if it could not be had), shown once known.
  const fee = !charge ? null : !courierPriced || delivery !== 'home_delivery' || charge.fee === 0 ? charge.fee : quoted ? (quoted.fee ?? charge.fee) : null;
  const problems = (fresh?.lines ?? []).filter((l) => l.status !== 'ok');
  const couponRefused = fresh?.coupon && !fresh.coupon.applied ? fresh.coupon : null;
  const total = fresh ? fresh.totals.total + (fee ?? 0) : null;

  const lines = cart.lines.map((l) => {
    const q = fresh?.lines.find((x) => x.skuCode === l.sku.code);
    return {
      key: l.sku.code,
      title: l.product.title,
      variant: q?.sku?.label || l.sku.label,
      image: l.product.image,
      quantity: l.quantity,
      lineTotal: q ? q.subTotal : l.subTotal,
      listTotal: q ? q.salesPrice * l.quantity : undefined,
    };
  });

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    setAlert(null);
    const found: Record<string, string> = {};
    if (!user) {
      for (const [k, v] of Object.entries(validateGuestContact(contact))) if (v) found[`contact.${k}`] = v;
    }
    if (delivery === 'home_delivery' && addressChoice === 'new') {
      for (const [k, v] of Object.entries(validateAddress(address) as FieldErrors<keyof TAddressFields>)) if (v) found[`address.${k}`] = v;
    }
    if (delivery === 'showroom_pickup' && !pickup) found.pickupBranchId = CHECKOUT_MESSAGES.pickupRequired;
    setErrors(found);
    if (hasErrors(found)) {
      requestAnimationFrame(() => focusFirstError(form.current));
      return;
    }
    setBusy(true);
    const body = {
      items: cart.lines.map((l) => ({ skuCode: l.sku.code, quantity: l.quantity })),
      couponCode: cart.couponCode,
      paymentMethod: payment,
      deliveryMethod: delivery,
      ...(delivery === 'showroom_pickup' ? { pickupBranchId: Number(pickup) } : addressChoice === 'new' ? { address } : { addressId: addressChoice }),
      ...(user ? {} : { contact }),
      ...(note.trim() ? { note: note.trim() } : {}),
    };
    // One key per distinct request: sent again unchanged (after "could not reach the shop",
    // or a second click) it answers the order already placed instead of placing another.
    const sent = JSON.stringify(body);
    if (attempt.current?.body !== sent) attempt.current = { key: crypto.randomUUID(), body: sent };
    const res = await apiFetch<TCheckoutResponse>('/api/checkouts', { body, headers: { 'idempotency-key': attempt.current.key } });
    if (res.ok) {
      // A card order keeps the cart until its payment is verified (the outcome page empties
      // it then): a declined or cancelled payment must not cost the shopper their cart.
      // Cash on delivery and bookings need no payment: they are placed, the cart is done.
      if (['card', 'bkash', 'nagad'].includes(res.data.sale.paymentMethod) && !res.data.sale.paidAt) cartActions.awaitPayment(res.data.invoiceId);
      else cartActions.clear();
      // The gateway's page is another site: a full navigation. Outcome pages are ours.
      if (res.data.paymentUrl) window.location.assign(res.data.paymentUrl);
      else navigate(res.data.redirectTo);
      return;
    }
    setBusy(false);
    if (res.networkError) {
      setAlert(t('We could not reach the shop. Please check your connection and try again: trying again will not place a second order.'));
      return;
    }
    const err = res.error;
    if (err?.code === 'out_of_stock' || err?.code === 'items_unavailable') {
      setAlert(
        <Trans
          id="{message}. <0>Change your cart</0>"
          values={{ message: translateMessage(l, err.message) }}
          components={{ 0: <Link to="/cart" className="font-semibold underline" /> }}
        />,
      );
      setQuote(null);
      return;
    }
    if (err?.code === 'coupon_not_applicable') {
      setAlert(
        <Trans
          id="{message}. <0>Continue without the coupon</0>"
          values={{ message: translateMessage(l, err.message) }}
          components={{ 0: <button type="button" className="font-semibold underline" onClick={() => cartActions.removeCoupon()} /> }}
        />,
      );
      return;
    }
    if (err?.fields && Object.keys(err.fields).length) {
      setErrors(err.fields);
      setAlert(err.message);
      requestAnimationFrame(() => focusFirstError(form.current));
      return;
    }
    setAlert(err?.message ?? t('Something went wrong on our side. Please try again in a moment.'));
  }

  const submitLabel =
    total === null
      ? t('Place order')
      : payment === 'card' || payment === 'bkash' || payment === 'nagad'
        ? t('Pay {amount}', { amount: money.formatBdt(total) })
        : payment === 'later'
          ? t('Book now, pay later')
          : t('Place order');

  return (
    <Shell>
      <form ref={form} onSubmit={submit} noValidate className="grid items-start gap-6 lg:grid-cols-[1fr_24rem]" aria-label={t('Checkout')}>
        <div className="space-y-6">
          {alert && <FormAlert>{alert}</FormAlert>}

          <Section step={1} title={t('Your details')}>
            {user ? (
              <p className="text-[0.95rem]">
                <Trans
                  id="Signed in as <0>{name}</0>. We will send the confirmation to the email of your account."
                  values={{ name: user.name }}
                  components={{ 0: <strong /> }}
                />
              </p>
            ) : (
              <>
                <p className="mb-4 text-sm text-ink-muted">
                  <Trans
                    id="Checking out as a guest. <0>Sign in</0> to use your saved addresses and see the order in your account."
                    components={{
                      0: (
                        <button
                          type="button"
                          className="font-semibold text-brand-700 underline"
                          onClick={() => session.openAuth('sign-in', () => revalidator.revalidate())}
                        />
                      ),
                    }}
                  />
                </p>
                <div className="grid gap-4 md:grid-cols-2">
                  <TextField
                    className="md:col-span-2"
                    label={t('Full name')}
                    name="contact.name"
                    autoComplete="name"
                    value={contact.name}
                    onChange={(e) => setContact({ ...contact, name: e.target.value })}
                    error={errors['contact.name']}
                  />
                  <TextField
                    label={t('Mobile number')}
                    name="contact.mobile"
                    type="tel"
                    inputMode="tel"
                    autoComplete="tel"
                    placeholder={t('01XXXXXXXXX')}
                    value={contact.mobile}
                    onChange={(e) => setContact({ ...contact, mobile: e.target.value })}
                    error={errors['contact.mobile']}
                  />
                  <TextField
                    label={t('Email')}
                    name="contact.email"
                    type="email"
                    autoComplete="email"
                    value={contact.email}
                    onChange={(e) => setContact({ ...contact, email: e.target.value })}
                    error={errors['contact.email']}
                  />
                </div>
              </>
            )}
          </Section>

          <Section step={2} title={t('Delivery')}>
            <fieldset>
              <legend className="sr-only">{t('Delivery method')}</legend>
              <div className="grid gap-3 sm:grid-cols-2">
                {(['home_delivery', 'showroom_pickup'] as const).map((m) => (
                  <Choice key={m} name="deliveryMethod" value={m} checked={delivery === m} onChange={() => setDelivery(m)} title={t(DELIVERY_METHOD_LABELS[m])}>
                    {m === 'home_delivery'
                      ? `${zonesText(l, zones, money.format)}${courierPriced ? ` ${t('Where our courier serves your area, you pay its price instead.')}` : ''}`
                      : t('Free. We call you when your order is ready at the showroom.')}
                  </Choice>
                ))}
              </div>
            </fieldset>

            {delivery === 'home_delivery' ? (
              <div className="mt-5">
                {addresses.length > 0 && (
                  <fieldset className="mb-4">
                    <legend className="mb-2 text-sm font-semibold">{t('Deliver to')}</legend>
                    <div className="grid gap-3 sm:grid-cols-2">
                      {addresses.map((a) => (
                        <Choice
                          key={a.id}
                          name="addressId"
                          value={String(a.id)}
                          checked={addressChoice === a.id}
                          onChange={() => setAddressChoice(a.id)}
                          title={a.label || a.fullName}
                        >
                          {a.fullName}, {a.addressLine}, {a.area}, {a.district} · {digits(displayMobile(a.phone))}
                        </Choice>
                      ))}
                      <Choice
                        name="addressId"
                        value="new"
                        checked={addressChoice === 'new'}
                        onChange={() => setAddressChoice('new')}
                        title={t('A new address')}
                      >
                        {t('Type another delivery address for this order.')}
                      </Choice>
                    </div>
                  </fieldset>
                )}
                {addressChoice === 'new' && <AddressFields value={address} onChange={setAddress} errors={errors} />}
              </div>
            ) : (
              <div className="mt-5 max-w-md">
                <SelectField
                  label={t('Showroom')}
                  name="pickupBranchId"
                  value={pickup === '' ? '' : String(pickup)}
                  onChange={(e) => setPickup(e.target.value ? Number(e.target.value) : '')}
                  error={errors.pickupBranchId}
                >
                  <option value="">{t('Choose a showroom')}</option>
                  {showrooms.map((b) => (
                    <option key={b.id} value={b.id}>
                      {b.name}, {b.city}
                    </option>
                  ))}
                </SelectField>
                {pickup !== '' && (
                  <p className="mt-2 text-sm text-ink-muted">
                    {showrooms.find((b) => b.id === pickup)?.address} · {showrooms.find((b) => b.id === pickup)?.hours}
                  </p>
                )}
              </div>
            )}
            <TextField
              className="mt-5"
              label={t('Note for our team (optional)')}
              name="note"
              maxLength={500}
              value={note}
              onChange={(e) => setNote(e.target.value)}
              placeholder={t('Floor, lift, best time to call…')}
            />
          </Section>

          <Section step={3} title={t('Payment')}>
            <fieldset>
              <legend className="sr-only">{t('Payment method')}</legend>
              <div className="grid gap-3">
                {paymentChoices(l)
                  .filter((p) => methods.includes(p.id))
                  .map((p) => (
                    <Choice key={p.id} name="paymentMethod" value={p.id} checked={payment === p.id} onChange={() => setPayment(p.id)} title={p.title}>
                      {p.text}
                    </Choice>
                  ))}
              </div>
            </fieldset>
          </Section>
        </div>

        <aside
          aria-labelledby="checkout-summary"
          className="rounded-[var(--radius-card)] bg-paper p-5 shadow-[var(--shadow-card)] lg:sticky lg:top-24"
          aria-busy={!fresh}
        >
          <h2 id="checkout-summary" className="text-lg font-semibold">
            {t('Your order')}
          </h2>
          <OrderLines lines={lines} money={money} compact />
          {problems.length > 0 && (
            <p role="alert" className="mb-3 flex gap-2 text-sm font-medium text-danger-600">
              <AlertIcon className="mt-0.5 shrink-0" width={16} height={16} />
              <span>
                <Trans
                  id="{message}. <0>Change your cart</0>"
                  values={{
                    message: problems
                      .map((p) => {
                        const item = p.product?.title ?? p.skuCode;
                        if (p.status === 'unavailable') return t('{item}: no longer sold', { item });
                        if (p.status === 'out_of_stock') return t('{item}: out of stock', { item });
                        return t('{item}: only {count} left', { item, count: n(p.availableQuantity ?? 0) });
                      })
                      .join('; '),
                  }}
                  components={{ 0: <Link to="/cart" className="underline" /> }}
                />
              </span>
            </p>
          )}
          {couponRefused && (
            <p role="alert" className="mb-3 text-sm text-danger-600">
              <Trans
                id="Coupon {code}: {message}. <0>Remove it</0>"
                values={{ code: couponRefused.code, message: translateMessage(l, couponRefused.message) }}
                components={{ 0: <button type="button" className="font-semibold underline" onClick={() => cartActions.removeCoupon()} /> }}
              />
            </p>
          )}
          {fresh ? (
            <OrderTotals
              money={money}
              totals={{
                subTotal: fresh.totals.subTotal,
                discount: fresh.totals.discount,
                couponCode: cart.couponCode,
                couponAmount: fresh.totals.couponAmount,
                deliveryFee: fee,
                total: total!,
              }}
              totalLabel={t('Total to pay')}
              chargedLabel={
                payment === 'card' || payment === 'bkash' || payment === 'nagad'
                  ? t('You will be charged')
                  : payment === 'later'
                    ? t('Amount due when you pay')
                    : t('To pay on delivery')
              }
            />
          ) : (
            <p className="py-4 text-sm text-ink-muted" role="status">
              {quoteFailed ? t('We could not price your cart just now. The server prices it again when you place the order.') : t('Pricing your cart…')}
            </p>
          )}
          {charge?.zone && (
            <p className="mt-3 text-sm text-ink-muted" data-testid="delivery-eta">
              {charge.freeByThreshold
                ? t('Free delivery. Delivered and assembled in {eta} ({zone}).', { eta: etaLocal(l, charge.zone), zone: charge.zone.name })
                : t('Delivered and assembled in {eta} ({zone}).', { eta: etaLocal(l, charge.zone), zone: charge.zone.name })}
            </p>
          )}
          <Button
            type="submit"
            size="lg"
            className="mt-5 w-full"
            disabled={busy || problems.length > 0 || !!couponRefused}
            aria-busy={busy}
            data-testid="place-order"
          >
            {busy ? t('Placing your order…') : submitLabel}
          </Button>
          <p className="mt-3 text-xs text-ink-muted">
            <Trans
              id="By placing the order you accept our <0>terms and conditions</0> and <1>return policy</1>."
              components={{ 0: <Link to="/terms-conditions" className="underline" />, 1: <Link to="/return" className="underline" /> }}
            />
          </p>
        </aside>
      </form>
    </Shell>
  );
}

function Shell({ children }: { children: ReactNode }) {
  const { t } = useT();
  return (
    <div className="container-page py-8 md:py-12">
      <h1 className="mb-6 text-2xl font-bold tracking-tight md:text-3xl">{t('Checkout')}</h1>
      {children}
    </div>
  );
}

function Section({ step, title, children }: { step: number; title: string; children: ReactNode }) {
  const { n } = useT();
  return (
    <section className="rounded-[var(--radius-card)] bg-paper p-5 shadow-[var(--shadow-card)] md:p-6" aria-label={title}>
      <h2 className="mb-4 text-lg font-semibold">
        {n(step)}. {title}
      </h2>
      {children}
    </section>
  );
}

/** A radio button drawn as a card; the whole card is its label. */
function Choice({
  name,
  value,
  checked,
  onChange,
  title,
  children,
}: {
  name: string;
  value: string;
  checked: boolean;
  onChange(): void;
  title: string;
  children: ReactNode;
}) {
  return (
    <label
      className={`flex cursor-pointer gap-3 rounded-lg border p-4 transition-colors has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-600 ${checked ? 'border-brand-700 bg-brand-50' : 'border-sand-300 bg-paper hover:bg-sand-50'}`}
    >
      <input type="radio" name={name} value={value} checked={checked} onChange={onChange} className="mt-1 h-4 w-4 shrink-0 accent-brand-700" />
      <span>
        <span className="block font-semibold">{title}</span>
        <span className="block text-sm text-ink-muted">{children}</span>
      </span>
    </label>
  );
}

function AddressFields({ value, onChange, errors }: { value: TAddressFields; onChange(v: TAddressFields): void; errors: Record<string, string> }) {
  const set = (k: keyof TAddressFields, v: string) => onChange({ ...value, [k]: v });
  const { t } = useT();
  return (
    <div className="grid gap-4 md:grid-cols-2" data-testid="checkout-address">
      <TextField
        label={t('Receiver’s name')}
        name="address.fullName"
        autoComplete="shipping name"
        value={value.fullName}
        onChange={(e) => set('fullName', e.target.value)}
        error={errors['address.fullName']}
      />
      <TextField
        label={t('Phone')}
        name="address.phone"
        type="tel"
        inputMode="tel"
        autoComplete="shipping tel"
        placeholder={t('01XXXXXXXXX')}
        value={value.phone}
        onChange={(e) => set('phone', e.target.value)}
        error={errors['address.phone']}
      />
      <SelectField
        label={t('Division')}
        name="address.division"
        value={value.division}
        onChange={(e) => onChange({ ...value, division: e.target.value, district: districtsOf(e.target.value).includes(value.district) ? value.district : '' })}
        error={errors['address.division']}
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
        name="address.district"
        value={value.district}
        onChange={(e) => set('district', e.target.value)}
        error={errors['address.district']}
        disabled={!value.division}
      >
        <option value="">{value.division ? t('Choose a district') : t('Choose a division first')}</option>
        {districtsOf(value.division).map((d) => (
          <option key={d} value={d}>
            {d}
          </option>
        ))}
      </SelectField>
      <TextField
        label={t('Area')}
        name="address.area"
        autoComplete="shipping address-level3"
        placeholder={t('Thana, upazila or area, such as Gulshan 2')}
        value={value.area}
        onChange={(e) => set('area', e.target.value)}
        error={errors['address.area']}
      />
      <TextField
        label={t('House, road and landmark')}
        name="address.addressLine"
        autoComplete="shipping street-address"
        value={value.addressLine}
        onChange={(e) => set('addressLine', e.target.value)}
        error={errors['address.addressLine']}
      />
    </div>
  );
}
