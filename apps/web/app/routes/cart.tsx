import {
  COUPON_MESSAGES,
  encodeCartItems,
  lineUnitPrice,
  MAX_LINE_QUANTITY,
  normalizeCouponCode,
  type TCartLine,
  type TCartQuote,
  type TCouponApplied,
  type TQuoteLine,
  totalsOf,
} from '@storefront/shared';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { CartLoading } from '../components/cart/cart-loading.tsx';
import { AlertIcon, MinusIcon, PlusIcon, TagIcon, TrashIcon } from '../components/cart/cart-icons.tsx';
import { EMPTY_CART_TEXT } from '../components/cart/cart-slots.tsx';
import { ClearCartButton } from '../components/cart/clear-cart-button.tsx';
import { productHref } from '../components/cart/product-href.ts';
import { Button, ButtonLink, buttonClass } from '../components/ui/button.tsx';
import { apiFetch } from '../lib/api-client.ts';
import { cartActions, useCart, useCartReady } from '../lib/cart-store.ts';
import { type Money, useMoney } from '../lib/currency.tsx';
import { type Localized, metaT, Trans, useT } from '../lib/i18n.tsx';
import { brandName, type SiteSettings } from '../lib/site.ts';
import { toast } from '../lib/toast.ts';
import type { Route } from './+types/cart';
import { ResponsiveImage } from '../components/ui/responsive-image.tsx';

// /cart (spec §2): the cart kept in browser storage, re-priced by the server. Prices,
// discounts, the coupon and availability come from POST /api/carts/quote, the function
// checkout uses too; the page tells the shopper what changed since they added an item.

export function meta({ matches }: Route.MetaArgs) {
  const settings = (matches[0]?.data as { settings?: SiteSettings } | undefined)?.settings ?? {};
  const { t } = metaT(matches);
  return [{ title: t('Your Cart — {brand}', { brand: brandName(settings) }) }, { name: 'robots', content: 'noindex' }];
}

type PriceChange = { title: string; from: number; to: number };

const EMPTY_NEXT_ID = 'cart-empty-next';
/** After "Clear All" the lines are gone: the focus goes on to the empty cart's way on, not to the page's top. */
const focusEmptyState = () => requestAnimationFrame(() => document.getElementById(EMPTY_NEXT_ID)?.focus());

/** Digits typed in Bangla (০–৯) read as 0–9, so a quantity can be typed in either script. */
const latinDigits = (text: string) => text.replace(/[০-৯]/g, (d) => String(d.charCodeAt(0) - 0x09e6));

export default function CartPage() {
  const cart = useCart();
  const ready = useCartReady();
  const money = useMoney();
  const l10n = useT();
  const { t } = l10n;
  const [quote, setQuote] = useState<{ key: string; data: TCartQuote } | null>(null);
  const [quoteFailed, setQuoteFailed] = useState(false);
  const [changes, setChanges] = useState<Record<string, PriceChange>>({});
  // Lines whose quantity was brought down (to the stock there is, or to the line maximum), by sku.
  const [capped, setCapped] = useState<Record<string, Capped>>({});

  // What the quote depends on: skus, quantities and the coupon code (not the stored prices).
  const key = JSON.stringify([cart.lines.map((l) => [l.sku.code, l.quantity]), cart.couponCode]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for what the quote depends on (skus, quantities, coupon), not the stored prices it writes back.
  useEffect(() => {
    if (!ready || cart.lines.length === 0) return;
    const asked = cart;
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      const res = await apiFetch<TCartQuote>('/api/carts/quote', {
        body: { lines: asked.lines.map((l) => ({ skuCode: l.sku.code, quantity: l.quantity })), couponCode: asked.couponCode },
        signal: controller.signal,
      });
      if (controller.signal.aborted) return;
      if (!res.ok) {
        setQuoteFailed(true);
        return;
      }
      setQuoteFailed(false);
      // Prices that moved since the item was added: tell the shopper, then keep the new ones.
      const moved: Record<string, PriceChange> = {};
      for (const q of res.data.lines) {
        const line = asked.lines.find((l) => l.sku.code === q.skuCode);
        if (line && q.status !== 'unavailable' && lineUnitPrice(line) !== q.unitPrice) {
          moved[q.skuCode] = { title: q.product?.title ?? line.product.title, from: lineUnitPrice(line), to: q.unitPrice };
        }
      }
      if (Object.keys(moved).length) setChanges((c) => ({ ...c, ...moved }));
      setQuote({ key, data: res.data });
      // More than the shop has (stock sold since the item was added, or a number typed
      // before the first quote came): the quantity comes down to what is available, and the
      // line says so. Nothing in stock at
      // all stays as it is, flagged, until the shopper removes it.
      const short = res.data.lines.filter((q) => q.status === 'insufficient_stock' && q.availableQuantity > 0);
      if (short.length) {
        setCapped((c) => ({ ...c, ...Object.fromEntries(short.map((q) => [q.skuCode, stockCap(l10n, q.availableQuantity)])) }));
        for (const q of short) cartActions.setQuantity(q.skuCode, q.availableQuantity);
      }
      cartActions.applyServerPrices(
        res.data.lines
          .filter((q) => q.sku)
          .map((q) => ({ skuCode: q.skuCode, salesPrice: q.salesPrice, discountedSalesPrice: q.sku!.discountedSalesPrice, unitPrice: q.unitPrice })),
      );
      if (asked.couponCode) {
        // A coupon the shop no longer has is dropped; one that no longer fits this cart is
        // kept (with its reason shown) so it applies again once the cart qualifies.
        if (res.data.coupon && !res.data.coupon.applied && res.data.coupon.reason === 'unknown') {
          cartActions.removeCoupon();
          toast.error(t('Coupon {code} is no longer valid and was removed', { code: asked.couponCode }));
        } else cartActions.setCoupon(asked.couponCode, res.data.coupon?.applied ? res.data.coupon.amount : 0);
      }
    }, 150);
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
    // `key` captures what the quote depends on; the stored prices it updates must not re-run it.
  }, [key, ready]);

  if (!ready) {
    return (
      <Page>
        <CartLoading />
      </Page>
    );
  }

  if (cart.lines.length === 0) {
    return (
      <Page>
        <div className="flex flex-col items-center gap-5 rounded-[var(--radius-card)] bg-paper px-6 py-16 text-center shadow-[var(--shadow-card)]">
          <p className="text-lg font-semibold tracking-wider text-ink-muted" data-testid="cart-empty">
            {t(EMPTY_CART_TEXT)}
          </p>
          <ButtonLink to="/shop" id={EMPTY_NEXT_ID}>
            {t('Continue Shopping')}
          </ButtonLink>
        </div>
      </Page>
    );
  }

  const fresh = quote?.key === key ? quote.data : null;
  const quoteLines = new Map((quote?.data.lines ?? []).map((l) => [l.skuCode, l]));
  const totals = fresh?.totals ?? totalsOf(cart);
  const blocked = cart.lines.some((l) => availability(l10n, quoteLines.get(l.sku.code), l.quantity) !== null);
  const changeList = Object.entries(changes).filter(([code]) => cart.lines.some((l) => l.sku.code === code));

  return (
    <Page>
      {changeList.length > 0 && (
        <div role="status" className="mb-6 rounded-[var(--radius-card)] border border-accent-600/40 bg-paper p-4" data-testid="price-changes">
          <p className="flex items-center gap-2 font-semibold">
            <AlertIcon className="text-accent-600" /> {t('Prices have changed since you added these items')}
          </p>
          <ul className="mt-2 space-y-1 text-sm">
            {changeList.map(([code, c]) => (
              <li key={code}>{t('{title}: now {price} (was {was}).', { title: c.title, price: money.format(c.to), was: money.format(c.from) })}</li>
            ))}
          </ul>
        </div>
      )}
      {quoteFailed && (
        <p role="alert" className="mb-6 rounded-[var(--radius-card)] border border-danger-600/40 bg-paper p-4 text-sm">
          {t(
            'We could not check the latest prices just now. The amounts below are those from when you added the items; checkout always uses the current prices.',
          )}
        </p>
      )}
      <div className="grid items-start gap-6 lg:grid-cols-[1fr_22rem]">
        <section aria-label={t('Items in your cart')} className="rounded-[var(--radius-card)] bg-paper shadow-[var(--shadow-card)]">
          <ul className="divide-y divide-sand-200">
            {cart.lines.map((line) => (
              <CartLineRow
                key={line.sku.code}
                line={line}
                quoted={quoteLines.get(line.sku.code)}
                cappedAt={capped[line.sku.code]}
                onCapped={(cap) => setCapped((c) => ({ ...c, [line.sku.code]: cap }))}
                money={money}
              />
            ))}
          </ul>
          <div className="flex flex-wrap items-center justify-between gap-3 border-t border-sand-200 px-4 py-3 md:px-5">
            <Link to="/shop" className="text-sm font-semibold text-brand-700 hover:underline">
              {t('Continue Shopping')}
            </Link>
            <ClearCartButton variant="ghost" onCleared={focusEmptyState} />
          </div>
        </section>

        <aside
          aria-labelledby="summary-heading"
          className="rounded-[var(--radius-card)] bg-paper p-5 shadow-[var(--shadow-card)] lg:sticky lg:top-24"
          aria-busy={!fresh}
        >
          <h2 id="summary-heading" className="text-lg font-semibold">
            {t('Order Summary')}
          </h2>
          <dl className="mt-4 space-y-2 text-sm" data-testid="cart-totals">
            <Row
              label={t('Subtotal ({count, plural, one {# item} other {# items}})', { count: totals.quantity })}
              value={money.format(totals.subTotal)}
              testId="total-subtotal"
            />
            {totals.discount > 0 && <Row label={t('Discounts')} value={money.format(-totals.discount)} testId="total-discount" accent />}
            {totals.couponAmount > 0 && (
              <Row label={t('Coupon {code}', { code: cart.couponCode ?? '' })} value={money.format(-totals.couponAmount)} testId="total-coupon" accent />
            )}
            <div className="flex items-baseline justify-between border-t border-sand-200 pt-3 text-base font-bold">
              <dt>{t('Total')}</dt>
              <dd data-testid="total-total">{money.format(totals.total)}</dd>
            </div>
          </dl>
          {!money.isBdt && (
            <p className="mt-2 text-xs text-ink-muted" data-testid="total-bdt">
              {t('Prices are shown in {currency}. You will be charged {amount} (BDT) at checkout.', {
                currency: money.currency.sourceId,
                amount: money.formatBdt(totals.total),
              })}
            </p>
          )}
          <CouponForm cartCode={cart.couponCode} quote={fresh} lines={cart.lines} money={money} />
          {blocked ? (
            <>
              <Button size="lg" className="mt-5 w-full" disabled>
                {t('Proceed to Checkout')}
              </Button>
              <p className="mt-2 text-sm text-danger-600">{t('Some items are not available in the quantity you chose. Change or remove them to continue.')}</p>
            </>
          ) : (
            <ButtonLink to="/checkout" size="lg" className="mt-5 w-full">
              {t('Proceed to Checkout')}
            </ButtonLink>
          )}
        </aside>
      </div>
    </Page>
  );
}

function Page({ children }: { children: React.ReactNode }) {
  const { t } = useT();
  return (
    <div className="container-page py-8 md:py-12">
      <h1 className="mb-6 text-2xl font-bold tracking-tight md:text-3xl">{t('Your Cart')}</h1>
      {children}
    </div>
  );
}

function Row({ label, value, testId, accent }: { label: string; value: string; testId: string; accent?: boolean }) {
  return (
    <div className="flex items-baseline justify-between gap-3">
      <dt className="text-ink-muted">{label}</dt>
      <dd className={accent ? 'font-semibold text-accent-600' : 'font-semibold'} data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

/** What stops the line from being ordered in `quantity`, by the latest quote (which may be for an earlier quantity). */
function availability({ t, n }: Localized, q: TQuoteLine | undefined, quantity: number): string | null {
  if (!q) return null;
  if (q.status === 'unavailable') return t('This item is no longer sold. Please remove it.');
  if (q.status === 'out_of_stock') return t('Out of stock at the moment.');
  if (q.status === 'insufficient_stock' && quantity > q.availableQuantity) return t('Only {count} left in stock.', { count: n(q.availableQuantity) });
  return null;
}

/** A quantity the cart brought down, and what the line says about it. */
type Capped = { quantity: number; text: string };
const stockCap = ({ t, n }: Localized, available: number): Capped => ({
  quantity: available,
  text: t('Only {count} available, so we set the quantity to {count}.', { count: n(available) }),
});

/** The units of the line's sku in stock, as far as the latest quote knows. */
function stockOf(q: TQuoteLine | undefined): number | undefined {
  return q && q.status !== 'unavailable' ? q.availableQuantity : undefined;
}

function CartLineRow({
  line,
  quoted,
  cappedAt,
  onCapped,
  money,
}: {
  line: TCartLine;
  quoted: TQuoteLine | undefined;
  cappedAt: Capped | undefined;
  onCapped(cap: Capped): void;
  money: Money;
}) {
  const l10n = useT();
  const { t } = l10n;
  const unit = quoted && quoted.status !== 'unavailable' ? quoted.unitPrice : lineUnitPrice(line);
  const list = quoted && quoted.status !== 'unavailable' ? quoted.salesPrice : line.sku.salesPrice;
  const problem = availability(l10n, quoted, line.quantity);
  const noteId = useId();
  const label = quoted?.sku?.label || line.sku.label;
  return (
    <li className="flex gap-4 p-4 md:p-5" data-testid="cart-line" data-sku={line.sku.code}>
      <ResponsiveImage
        src={line.product.image ?? '/favicon.svg'}
        alt=""
        width={96}
        height={96}
        sizes="96px"
        maxWidth={320}
        loading="lazy"
        className="h-20 w-20 shrink-0 rounded-md bg-sand-100 object-cover md:h-24 md:w-24"
      />
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1">
          <div className="min-w-0">
            <Link to={productHref(line.product)} className="font-semibold hover:underline">
              {line.product.title}
            </Link>
            <p className="text-sm text-ink-muted">
              {label ? `${label} · ` : ''}
              {line.sku.code}
              {line.sourceType === 'bundle' ? ` · ${t('Set')}` : ''}
            </p>
            <p className="mt-1 text-sm" data-testid="line-unit-price">
              <span className={unit < list ? 'font-semibold text-accent-600' : 'font-semibold'}>{money.format(unit)}</span>
              {unit < list && (
                <s className="ml-2 text-ink-muted">
                  <span className="sr-only">{t('was')} </span>
                  {money.format(list)}
                </s>
              )}
            </p>
          </div>
          <p className="font-bold" data-testid="line-subtotal">
            {money.format(unit * line.quantity)}
          </p>
        </div>
        {problem && (
          <p className="mt-2 flex items-center gap-1.5 text-sm font-medium text-danger-600" data-testid="line-problem">
            <AlertIcon width={16} height={16} /> {problem}
          </p>
        )}
        {/* Always in the page, so that screen readers announce the note when it appears. */}
        <p id={noteId} aria-live="polite" className="mt-2 text-sm empty:mt-0 font-medium text-accent-600" data-testid="line-stock-note">
          {cappedAt?.quantity === line.quantity ? cappedAt.text : null}
        </p>
        <div className="mt-3 flex items-center justify-between gap-3">
          <QuantityStepper line={line} available={stockOf(quoted)} onCapped={onCapped} describedBy={noteId} />
          <button
            type="button"
            onClick={() => cartActions.remove(line.sku.code)}
            className="inline-flex h-10 items-center gap-1.5 rounded-md px-2 text-sm font-medium text-ink-muted hover:bg-sand-100 hover:text-danger-600"
            aria-label={t('Remove {title} from cart', { title: line.product.title })}
          >
            <TrashIcon width={18} height={18} /> <span className="hidden sm:inline">{t('Remove')}</span>
          </button>
        </div>
      </div>
    </li>
  );
}

/**
 * − [n] +: decrease stops at 1 (spec §4), increase at the line maximum and at the stock the
 * latest quote reports; a typed number is kept within all three (the quote corrects it
 * again if the stock has moved meanwhile).
 */
function QuantityStepper({
  line,
  available,
  onCapped,
  describedBy,
}: {
  line: TCartLine;
  available: number | undefined;
  onCapped(cap: Capped): void;
  describedBy: string;
}) {
  const l10n = useT();
  const { t, digits } = l10n;
  const [draft, setDraft] = useState<string | null>(null);
  const inputId = useId();
  const code = line.sku.code;
  const commit = () => {
    if (draft === null) return;
    const n = Number.parseInt(latinDigits(draft), 10);
    if (Number.isFinite(n)) {
      if (available !== undefined && available > 0 && available < MAX_LINE_QUANTITY && n > available) {
        cartActions.setQuantity(code, available);
        onCapped(stockCap(l10n, available));
      } else {
        cartActions.setQuantity(code, n);
        if (n > MAX_LINE_QUANTITY)
          onCapped({ quantity: MAX_LINE_QUANTITY, text: t('You can order at most {max} of one item.', { max: l10n.n(MAX_LINE_QUANTITY) }) });
      }
    }
    setDraft(null);
  };
  const step = 'inline-flex h-10 w-10 items-center justify-center text-ink hover:bg-sand-100 disabled:cursor-not-allowed disabled:opacity-40';
  return (
    <div className="inline-flex items-center rounded-lg border border-sand-300">
      <button
        type="button"
        className={`${step} rounded-l-lg`}
        onClick={() => cartActions.decrease(code)}
        disabled={line.quantity <= 1}
        aria-label={t('Decrease quantity of {title}', { title: line.product.title })}
      >
        <MinusIcon />
      </button>
      <label htmlFor={inputId} className="sr-only">
        {t('Quantity of {title}', { title: line.product.title })}
      </label>
      <input
        id={inputId}
        inputMode="numeric"
        pattern="[0-9০-৯]*"
        className="h-10 w-12 border-x border-sand-300 text-center text-sm font-semibold focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
        value={draft ?? digits(String(line.quantity))}
        aria-describedby={describedBy}
        onChange={(e) => setDraft(e.target.value.replace(/[^0-9০-৯]/g, '').slice(0, 2))}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit();
        }}
        data-testid="line-quantity"
      />
      <button
        type="button"
        className={`${step} rounded-r-lg`}
        onClick={() => cartActions.increase(code)}
        disabled={line.quantity >= Math.min(MAX_LINE_QUANTITY, available || MAX_LINE_QUANTITY)}
        aria-label={t('Increase quantity of {title}', { title: line.product.title })}
      >
        <PlusIcon />
      </button>
    </div>
  );
}

/** spec §4's coupon messages (COUPON_MESSAGES), in the shopper's language; the minimum in their currency. */
function belowMinimum(t: Localized['t'], money: Money, minimum: number): string {
  return t('Spend at least {minimum} to use this coupon', { minimum: money.format(minimum) });
}

function couponErrorMessage(t: Localized['t'], error: { code: string; message: string; fields?: Record<string, string> } | null, money: Money): string {
  if (!error) return t('We could not check the coupon. Please try again.');
  const minimum = Number(error.fields?.minimumOrder);
  if (error.code === 'coupon_below_minimum' && Number.isFinite(minimum)) return belowMinimum(t, money, minimum);
  if (error.code === 'validation_error' && error.fields?.code) return t(COUPON_MESSAGES.unknown);
  return t(error.message);
}

function CouponForm({ cartCode, quote, lines, money }: { cartCode: string | null; quote: TCartQuote | null; lines: TCartLine[]; money: Money }) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { t } = useT();
  const inputId = useId();
  const errorId = useId();

  const apply = async (e: FormEvent) => {
    e.preventDefault();
    const wanted = normalizeCouponCode(code);
    if (!wanted) {
      setError(t('Please enter a coupon code'));
      return;
    }
    setBusy(true);
    setError(null);
    // spec §7: GET /api/discount/coupons/apply, the cart in `items` (SKU:QTY,…).
    const items = encodeCartItems(lines.map((l) => ({ skuCode: l.sku.code, quantity: l.quantity })));
    const res = await apiFetch<TCouponApplied>(`/api/discount/coupons/apply?code=${encodeURIComponent(wanted)}&items=${encodeURIComponent(items)}`);
    setBusy(false);
    if (res.ok) {
      cartActions.setCoupon(res.data.code, res.data.couponAmount);
      setCode('');
      toast.success(t('Coupon {code} applied', { code: res.data.code }));
    } else {
      setError(res.networkError ? t('We could not reach the shop. Please check your connection and try again.') : couponErrorMessage(t, res.error, money));
    }
  };

  if (cartCode) {
    const c = quote?.coupon;
    const refused = c && !c.applied ? (c.reason === 'below_minimum' && c.minimumOrder != null ? belowMinimum(t, money, c.minimumOrder) : t(c.message)) : null;
    return (
      <div className="mt-5 rounded-lg border border-sand-200 bg-sand-50 p-3" data-testid="coupon-applied">
        <div className="flex items-center justify-between gap-2">
          <p className="flex items-center gap-2 text-sm">
            <TagIcon className="text-brand-700" />
            <span>
              <Trans id="Coupon <0>{code}</0>" values={{ code: cartCode }} components={{ 0: <strong /> }} />
              {c?.applied && <> · {t('saves {amount}', { amount: money.format(c.amount) })}</>}
            </span>
          </p>
          <button
            type="button"
            className="rounded-md px-2 py-1 text-sm font-semibold text-brand-700 hover:bg-sand-100"
            onClick={() => cartActions.removeCoupon()}
            aria-label={t('Remove coupon {code}', { code: cartCode })}
          >
            {t('Remove')}
          </button>
        </div>
        {refused && (
          <p className="mt-1 text-sm text-danger-600" role="alert">
            {refused}
          </p>
        )}
      </div>
    );
  }

  return (
    <form onSubmit={apply} className="mt-5" noValidate>
      <label htmlFor={inputId} className="text-sm font-semibold">
        {t('Coupon code')}
      </label>
      <div className="mt-1.5 flex gap-2">
        <input
          id={inputId}
          value={code}
          onChange={(e) => {
            setCode(e.target.value);
            setError(null);
          }}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={32}
          placeholder={t('e.g. NIBASH500')}
          aria-invalid={!!error}
          aria-describedby={error ? errorId : undefined}
          className="h-11 min-w-0 flex-1 rounded-lg border border-sand-300 bg-paper px-3 text-sm uppercase placeholder:normal-case placeholder:text-ink-muted/70 focus:border-brand-600 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
        />
        <button type="submit" className={buttonClass('secondary', 'md')} disabled={busy}>
          {busy ? t('Checking…') : t('Apply')}
        </button>
      </div>
      {error && (
        <p id={errorId} className="mt-1.5 text-sm text-danger-600" role="alert" data-testid="coupon-error">
          {error}
        </p>
      )}
    </form>
  );
}
