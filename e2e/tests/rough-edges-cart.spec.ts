import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { MAX_LINE_QUANTITY } from '../../packages/shared/src/cart.ts';
import { formatMoney, hydrated } from '../fixtures/cart.ts';
import { API_KEY, type CheckoutSku, fillGuest, quoteLines, stockOf, withCart } from '../fixtures/checkout.ts';

// Rough edges of the storefront that a careful shopper hits: the cart dropdown opened by
// keyboard, "Clear All", a card's Add on a product with several colours or sizes, a
// quantity above the stock, a failed or cancelled card payment, and someone else's
// success page. Each test takes products of its own from product ids 1-19, which no other
// spec places orders for, so tests running side by side never compete for stock.

const headers = { 'x-api-key': API_KEY };
const bdt = (minor: number) => formatMoney(minor);
const email = () => `e2e.rough.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;
const badge = (page: Page) => page.getByTestId('cart-button').getByTestId('cart-count');

type Joined = { id: number; title: string; slug: string; kind: string; modelCode: string | null; skus: { code: string }[] };

async function joined(request: APIRequestContext, id: number): Promise<Joined | null> {
  const res = await request.get(`/api/v3/items/joined?id=${id}`, { headers });
  return res.ok() ? ((await res.json()) as Joined) : null;
}

/** A single (non-bundle) sku with `min` to `max` units in stock, from product ids `from` to `to` (both included). */
async function skuIn(request: APIRequestContext, from: number, to: number, min = 2, max = Number.POSITIVE_INFINITY): Promise<CheckoutSku> {
  for (let id = from; id <= to; id++) {
    const item = await joined(request, id);
    if (item?.kind !== 'single') continue;
    const q = await quoteLines(
      request,
      item.skus.map((s) => ({ skuCode: s.code, quantity: 1 })),
    );
    const line = q.lines.find((l: any) => l.status === 'ok' && l.availableQuantity >= min && l.availableQuantity <= max);
    if (line) {
      return {
        productId: item.id,
        title: item.title,
        slug: item.slug,
        image: line.product?.image ?? null,
        code: line.skuCode,
        salesPrice: line.salesPrice,
        discountedSalesPrice: line.sku?.discountedSalesPrice ?? null,
        unitPrice: line.unitPrice,
        available: line.availableQuantity,
      };
    }
  }
  throw new Error(`no product from id ${from} to ${to} with ${min} to ${max} in stock`);
}

async function placeOrder(page: Page) {
  const place = page.getByTestId('place-order');
  await expect(place).toBeEnabled();
  await place.click();
}

/** On the sandbox gateway's page, choose what the bank answers. */
async function onSandbox(page: Page, choice: RegExp) {
  await expect(page).toHaveURL(/\/payments\/sandbox\/pay\?session=/);
  await expect(page.getByRole('note').filter({ hasText: 'TEST PAYMENT' })).toBeVisible();
  await page.getByRole('button', { name: choice }).click();
}

test.describe('the cart dropdown and Clear All', () => {
  test('opening the cart by keyboard focuses the first item, not Clear All, and clearing asks first', async ({ page, request }) => {
    const first = await skuIn(request, 1, 4, 1);
    const second = await skuIn(request, first.productId + 1, 8, 1);
    await withCart(
      page,
      [
        { sku: first, quantity: 1 },
        { sku: second, quantity: 2 },
      ],
      '/about',
    );
    await expect(badge(page)).toHaveText('3');

    // Open with Enter: the focus lands on the first item's link.
    await page.getByTestId('cart-button').focus();
    await page.keyboard.press('Enter');
    const dropdown = page.getByTestId('cart-dropdown');
    await expect(dropdown).toBeVisible();
    const clearAll = dropdown.getByRole('button', { name: 'Clear All' });
    await expect(dropdown.getByRole('link', { name: first.title })).toBeFocused();
    await expect(clearAll).not.toBeFocused();
    // One more Enter follows that link: the cart is as it was.
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/products/${first.slug}|/details\\?id=${first.productId}`));
    await expect(page.getByRole('heading', { level: 1, name: first.title })).toBeVisible();
    await expect(badge(page)).toHaveText('3');

    // Clear All asks first, with the focus on the answer that keeps the items.
    await page.getByTestId('cart-button').focus();
    await page.keyboard.press('Enter');
    await expect(dropdown).toBeVisible();
    await clearAll.focus();
    await page.keyboard.press('Enter');
    const confirm = dropdown.getByRole('group', { name: 'Remove every item from your cart?' });
    await expect(confirm).toBeVisible();
    await expect(confirm.getByRole('button', { name: 'Keep the items' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(confirm).toBeHidden();
    await expect(clearAll).toBeFocused();
    await expect(dropdown.getByTestId('cart-dropdown-line')).toHaveCount(2);
    await expect(badge(page)).toHaveText('3');

    await page.keyboard.press('Enter');
    await confirm.getByRole('button', { name: 'Yes, clear the cart' }).click();
    await expect(dropdown).toContainText('YOUR CART IS EMPTY');
    await expect(badge(page)).toHaveCount(0);
    await expect(dropdown.getByRole('link', { name: 'Continue Shopping' })).toBeFocused();
  });

  test('Clear All on the cart page asks for confirmation too', async ({ page, request }) => {
    const sku = await skuIn(request, 1, 4, 1);
    await withCart(page, [{ sku, quantity: 1 }], '/cart');
    await page.getByRole('button', { name: 'Clear All' }).click();
    const confirm = page.getByRole('group', { name: 'Remove every item from your cart?' });
    await expect(confirm).toBeVisible();
    await expect(page.getByTestId('cart-line')).toHaveCount(1);
    // Escape answers "keep".
    await page.keyboard.press('Escape');
    await expect(confirm).toBeHidden();
    await expect(page.getByTestId('cart-line')).toHaveCount(1);
    await page.getByRole('button', { name: 'Clear All' }).click();
    await confirm.getByRole('button', { name: 'Yes, clear the cart' }).click();
    await expect(page.getByTestId('cart-empty')).toHaveText('YOUR CART IS EMPTY');
    await expect(page.getByRole('link', { name: 'Continue Shopping' })).toBeFocused();
  });
});

test('a card of a product in several colours or sizes leads to its page; a single-sku card adds at once', async ({ page, request }) => {
  let multi: Joined | null = null;
  let single: Joined | null = null;
  for (let id = 1; id <= 19 && !(multi && single); id++) {
    const item = await joined(request, id);
    if (!item?.modelCode || item.kind !== 'single') continue;
    if (item.skus.length > 1) multi ??= item;
    else single ??= item;
  }
  expect(multi, 'a product with several skus among ids 1-19').not.toBeNull();
  expect(single, 'a product with one sku among ids 1-19').not.toBeNull();
  const byModel = (model: string) => `/shop?q=${model}&categoryName=all&model=${model}`;

  await page.goto(byModel(multi!.modelCode!));
  await hydrated(page);
  let card = page.getByTestId('product-card');
  await expect(card).toHaveCount(1);
  await expect(card.getByRole('button', { name: `Add ${multi!.title} to cart` })).toHaveCount(0);
  const choose = card.getByRole('link', { name: 'Choose options', exact: true });
  await expect(choose).toHaveAccessibleDescription(multi!.title);
  await choose.click();
  await expect(page).toHaveURL(/\/(products|details)/);
  await expect(page.getByRole('heading', { level: 1, name: multi!.title })).toBeVisible();
  await expect(badge(page)).toHaveCount(0);

  await page.goto(byModel(single!.modelCode!));
  await hydrated(page);
  card = page.getByTestId('product-card');
  await expect(card).toHaveCount(1);
  await expect(card.getByRole('link', { name: /^Choose options/ })).toHaveCount(0);
  await card.getByRole('button', { name: `Add ${single!.title} to cart` }).click();
  await expect(badge(page)).toHaveText('1');
  await page.goto('/cart');
  await expect(page.locator(`[data-testid="cart-line"][data-sku="${single!.skus[0].code}"]`)).toBeVisible();
});

test('a quantity above the stock comes down to what is available, and the cart says so', async ({ page, request }) => {
  // Fewer than a line's maximum (MAX_LINE_QUANTITY, 10), so that the stock is what stops it.
  const sku = await skuIn(request, 5, 8, 2, MAX_LINE_QUANTITY - 1);
  const n = sku.available;
  await withCart(page, [{ sku, quantity: 1 }], '/cart');
  const line = page.locator(`[data-testid="cart-line"][data-sku="${sku.code}"]`);
  const quantity = line.getByTestId('line-quantity');
  // Wait for the first quote: it tells the page the stock.
  await expect(page.getByRole('complementary')).toHaveAttribute('aria-busy', 'false');

  await quantity.fill('50');
  await quantity.press('Enter');
  await expect(quantity).toHaveValue(String(n));
  const note = line.getByTestId('line-stock-note');
  await expect(note).toHaveText(`Only ${n} available, so we set the quantity to ${n}.`);
  await expect(note).toHaveAttribute('aria-live', 'polite');
  await expect(line.getByRole('button', { name: /^Increase quantity/ })).toBeDisabled();
  const priced = await quoteLines(request, [{ skuCode: sku.code, quantity: n }]);
  await expect(page.getByTestId('total-total')).toHaveText(bdt(priced.totals.total));
  await expect(line.getByTestId('line-subtotal')).toHaveText(bdt(sku.unitPrice * n));
  await expect(page.getByTestId('line-problem')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Proceed to Checkout' })).toBeVisible();
  await expect(badge(page)).toHaveText(String(n));

  // A stored cart that asks for more than the stock (added before it sold) is brought down too.
  await withCart(page, [{ sku, quantity: MAX_LINE_QUANTITY }], '/cart');
  await expect(quantity).toHaveValue(String(n));
  await expect(note).toHaveText(`Only ${n} available, so we set the quantity to ${n}.`);
  await expect(page.getByTestId('total-total')).toHaveText(bdt(priced.totals.total));
  await page.reload();
  await hydrated(page);
  await expect(quantity).toHaveValue(String(n));
});

test.describe('card payments that do not go through', () => {
  test.describe.configure({ timeout: 90_000 });

  test('a declined card keeps the cart; paying again succeeds and empties it', async ({ page, request }) => {
    const sku = await skuIn(request, 9, 12);
    await withCart(page, [{ sku, quantity: 1 }]);
    await fillGuest(page, email());
    await placeOrder(page);
    await onSandbox(page, /Decline the payment/);
    await expect(page).toHaveURL(/\/payments\/response\/failed\?invoiceId=/);
    await expect(page.getByRole('heading', { level: 1, name: 'Your payment did not go through' })).toBeVisible();
    await hydrated(page);
    await expect(badge(page)).toHaveText('1');

    await page.getByRole('button', { name: 'Try the payment again' }).click();
    await onSandbox(page, /^Pay ৳/);
    await expect(page.getByRole('heading', { level: 1, name: 'Thank you, your payment was received' })).toBeVisible();
    await hydrated(page);
    await expect(badge(page)).toHaveCount(0);
    expect(await stockOf(request, sku.code)).toBe(sku.available - 1);
    await page.goto('/cart');
    await expect(page.getByTestId('cart-empty')).toHaveText('YOUR CART IS EMPTY');
  });

  test('a cancelled payment keeps the cart as it was', async ({ page, request }) => {
    const sku = await skuIn(request, 13, 15);
    await withCart(page, [{ sku, quantity: 2 }]);
    await fillGuest(page, email());
    await placeOrder(page);
    await onSandbox(page, /Cancel and go back/);
    await expect(page).toHaveURL(/\/payments\/response\/cancel\?invoiceId=/);
    await expect(page.getByRole('heading', { level: 1, name: 'You cancelled the payment' })).toBeVisible();
    await hydrated(page);
    await expect(badge(page)).toHaveText('2');
    await page.goto('/cart');
    await hydrated(page);
    const line = page.locator(`[data-testid="cart-line"][data-sku="${sku.code}"]`);
    await expect(line).toContainText(sku.title);
    await expect(line.getByTestId('line-quantity')).toHaveValue('2');
  });
});

test('someone else opening a success page is told it cannot be shown and offered sign-in', async ({ page, request, browser }) => {
  const sku = await skuIn(request, 16, 19);
  await withCart(page, [{ sku, quantity: 1 }]);
  await fillGuest(page, email());
  await page.getByRole('radio', { name: /Cash on delivery/ }).check();
  await placeOrder(page);
  await expect(page).toHaveURL(/\/payments\/response\/success\?invoiceId=/);
  await expect(page.getByRole('heading', { level: 1, name: 'Thank you for your order' })).toBeVisible();
  const invoice = (await page.getByTestId('invoice-id').first().textContent())!;
  const address = new URL(page.url());

  // Another browser: no session, no order-access cookie.
  const other = await browser.newContext();
  try {
    const stranger = await other.newPage();
    await stranger.goto(address.href);
    await expect(stranger.getByRole('heading', { level: 1, name: 'We cannot show this order' })).toBeVisible();
    await expect(stranger.getByRole('main')).toContainText(`Order ${invoice} cannot be shown here`);
    await expect(stranger.getByText('waiting for the payment provider')).toHaveCount(0);
    await expect(stranger.getByTestId('invoice-id')).toHaveCount(0);
    const signIn = stranger.getByRole('main').getByRole('link', { name: 'Sign in', exact: true });
    await expect(signIn).toHaveAttribute('href', `/sign-in?redirectTo=${encodeURIComponent(address.pathname + address.search)}`);
    await signIn.click();
    await expect(stranger.getByRole('heading', { level: 1, name: 'Sign In' })).toBeVisible();
  } finally {
    await other.close();
  }
});
