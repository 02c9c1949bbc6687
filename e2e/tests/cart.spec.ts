import { expect, type Page, test } from '@playwright/test';
import { currencyRate, findSku, formatMoney, hydrated, openProduct, quote, type ShopSku } from '../fixtures/cart.ts';

// The cart, coupons and display currency, through the real product page and
// the real server. Expected amounts come from the server's own quote, formatted with the
// shop's one formatting function: what the browser shows must be what the server charges.

let sofa: ShopSku; // a three-seater: the demo's 15% sofa discount reaches it through "Sofas"
let table: ShopSku; // a coffee table

test.beforeAll(async ({ request }) => {
  sofa = await findSku(request, 'three-seater-sofas');
  table = await findSku(request, 'coffee-tables');
});

const bdt = (minor: number) => formatMoney(minor);
const cartButton = (page: Page) => page.getByTestId('cart-button');
const badge = (page: Page) => cartButton(page).getByTestId('cart-count');

test.describe('on a desktop screen', () => {
  test('shopper adds a product from its page, adds it again and the line merges', async ({ page }) => {
    await openProduct(page, sofa);
    // The demo's sofa discount reaches it: the page computes the discounted price with the
    // shared rule, and it is the price the server charges, with the list price struck through.
    expect(sofa.unitPrice).toBeLessThan(sofa.salesPrice);
    await expect(page.getByTestId('price').first()).toContainText(bdt(sofa.unitPrice));
    await expect(page.getByTestId('price').first().locator('s')).toContainText(bdt(sofa.salesPrice));
    const add = page.getByRole('button', { name: 'Add to Cart' });
    await add.click();
    await expect(badge(page)).toHaveText('1');
    await add.click();
    await expect(badge(page)).toHaveText('2');

    await openProduct(page, table);
    await page.getByRole('button', { name: 'Add to Cart' }).click();
    await expect(badge(page)).toHaveText('3');

    await cartButton(page).click();
    const dropdown = page.getByTestId('cart-dropdown');
    await expect(dropdown).toBeVisible();
    const lines = dropdown.getByTestId('cart-dropdown-line');
    await expect(lines).toHaveCount(2);
    await expect(lines.nth(0)).toContainText(sofa.title);
    await expect(lines.nth(0).getByTestId('cart-dropdown-unit')).toHaveText(`2 x ${bdt(sofa.unitPrice)}`);
    await expect(lines.nth(0).getByTestId('cart-dropdown-subtotal')).toHaveText(bdt(sofa.unitPrice * 2));
    await expect(lines.nth(1).getByTestId('cart-dropdown-unit')).toHaveText(`1 x ${bdt(table.unitPrice)}`);
    await expect(lines.nth(0).locator('img')).toBeVisible();
    await expect(dropdown.getByTestId('cart-dropdown-total')).toHaveText(bdt(sofa.unitPrice * 2 + table.unitPrice));

    // View Cart goes to the cart page and closes the dropdown.
    await dropdown.getByRole('link', { name: 'View Cart' }).click();
    await expect(page).toHaveURL(/\/cart$/);
    await expect(dropdown).toBeHidden();
    await expect(page.getByTestId('cart-line')).toHaveCount(2);

    // Clear All empties it, once confirmed.
    await cartButton(page).click();
    await page.getByTestId('cart-dropdown').getByRole('button', { name: 'Clear All' }).click();
    await page.getByTestId('cart-dropdown').getByRole('button', { name: 'Yes, clear the cart' }).click();
    await expect(page.getByTestId('cart-dropdown')).toContainText('YOUR CART IS EMPTY');
    await expect(badge(page)).toHaveCount(0);
    await expect(page.getByTestId('cart-empty')).toHaveText('YOUR CART IS EMPTY');
  });

  test('shopper changes quantities, applies a coupon, switches currency, reloads and finds it all as it was', async ({ page, request }) => {
    await openProduct(page, sofa);
    await page.getByRole('button', { name: 'Add to Cart' }).click();
    await openProduct(page, table);
    await page.getByRole('button', { name: 'Add to Cart' }).click();
    await expect(badge(page)).toHaveText('2');
    await page.goto('/cart');
    await hydrated(page);

    const sofaLine = page.locator(`[data-testid="cart-line"][data-sku="${sofa.code}"]`);
    const tableLine = page.locator(`[data-testid="cart-line"][data-sku="${table.code}"]`);
    await expect(sofaLine).toContainText(sofa.title);

    // Increase, decrease, never below 1.
    await sofaLine.getByRole('button', { name: /^Increase quantity/ }).click();
    await expect(sofaLine.getByTestId('line-quantity')).toHaveValue('2');
    await expect(sofaLine.getByTestId('line-subtotal')).toHaveText(bdt(sofa.unitPrice * 2));
    await sofaLine.getByRole('button', { name: /^Decrease quantity/ }).click();
    await expect(sofaLine.getByTestId('line-quantity')).toHaveValue('1');
    await expect(sofaLine.getByRole('button', { name: /^Decrease quantity/ })).toBeDisabled();
    // A typed quantity.
    await tableLine.getByTestId('line-quantity').fill('3');
    await tableLine.getByTestId('line-quantity').press('Enter');
    await expect(tableLine.getByTestId('line-quantity')).toHaveValue('3');
    await expect(badge(page)).toHaveText('4');

    const lines = [
      { skuCode: sofa.code, quantity: 1 },
      { skuCode: table.code, quantity: 3 },
    ];
    const priced = await quote(request, lines);
    await expect(page.getByTestId('total-total')).toHaveText(bdt(priced.totals.total));
    await expect(page.getByTestId('total-subtotal')).toHaveText(bdt(priced.totals.subTotal));
    if (priced.totals.discount > 0) await expect(page.getByTestId('total-discount')).toHaveText(formatMoney(-priced.totals.discount));

    // A coupon that has expired is refused with the reason; a good one applies.
    const couponInput = page.getByLabel('Coupon code');
    await couponInput.fill('eid2025');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page.getByTestId('coupon-error')).toHaveText('This coupon has expired');
    await couponInput.fill('nibash500');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page.getByTestId('coupon-applied')).toContainText('NIBASH500');
    const withCoupon = await quote(request, lines, 'NIBASH500');
    expect(withCoupon.coupon).toMatchObject({ applied: true, amount: 50_000 });
    await expect(page.getByTestId('total-coupon')).toHaveText(formatMoney(-50_000));
    await expect(page.getByTestId('total-total')).toHaveText(bdt(withCoupon.totals.total));

    // Switch to US dollars: every price on the page changes.
    const rate = await currencyRate(request, 'USD');
    const usd = (minor: number) => formatMoney(minor, { sourceId: 'USD', rate });
    await page.getByTestId('currency-button').click();
    await page.getByRole('menuitemradio', { name: /USD/ }).click();
    await expect(page.getByTestId('currency-button')).toContainText('USD');
    await expect(page.getByTestId('total-total')).toHaveText(usd(withCoupon.totals.total));
    await expect(page.getByTestId('total-coupon')).toHaveText(formatMoney(-50_000, { sourceId: 'USD', rate }));
    await expect(sofaLine.getByTestId('line-subtotal')).toHaveText(usd(sofa.unitPrice));
    await expect(tableLine.getByTestId('line-subtotal')).toHaveText(usd(table.unitPrice * 3));
    await expect(page.getByTestId('total-bdt')).toContainText(`You will be charged ${bdt(withCoupon.totals.total)} (BDT) at checkout`);
    // No taka amount is left anywhere in the lines or the totals.
    for (const text of await page.locator('[data-testid="cart-line"], [data-testid="cart-totals"]').allTextContents()) {
      expect(text).not.toContain('৳');
      expect(text).toContain('$');
    }
    await cartButton(page).click();
    await expect(page.getByTestId('cart-dropdown-total')).toHaveText(usd(withCoupon.totals.total));
    await page.keyboard.press('Escape');

    // Reload: the cart, the coupon and the currency are as they were.
    await page.reload();
    await hydrated(page);
    await expect(page.getByTestId('currency-button')).toContainText('USD');
    await expect(sofaLine.getByTestId('line-quantity')).toHaveValue('1');
    await expect(tableLine.getByTestId('line-quantity')).toHaveValue('3');
    await expect(page.getByTestId('coupon-applied')).toContainText('NIBASH500');
    await expect(page.getByTestId('total-total')).toHaveText(usd(withCoupon.totals.total));
    await expect(badge(page)).toHaveText('4');

    // The server renders the chosen currency on the first paint: no flash of taka prices.
    const html = await (await page.request.get(`/details?id=${sofa.productId}&sku=${encodeURIComponent(sofa.code)}`)).text();
    expect(html).toContain(usd(sofa.unitPrice));
    expect(html).toContain('Currency: USD');
  });

  test('the cart page says when a price changed since the item was added', async ({ page }) => {
    await page.goto('/about');
    await page.evaluate(
      ([code, id, title, old]) =>
        localStorage.setItem(
          'cart',
          JSON.stringify({
            version: 1,
            couponCode: null,
            couponAmount: 0,
            lines: [
              {
                product: { id, title, slug: 's', image: null },
                sku: { code, salesPrice: old, discountedSalesPrice: null },
                quantity: 1,
                subTotal: old,
                salesPrice: old,
              },
            ],
          }),
        ),
      [sofa.code, sofa.productId, sofa.title, sofa.unitPrice + 123_400] as const,
    );
    await page.goto('/cart');
    await expect(page.getByTestId('price-changes')).toContainText(`${sofa.title}: now ${bdt(sofa.unitPrice)} (was ${bdt(sofa.unitPrice + 123_400)})`);
    await expect(page.getByTestId('line-subtotal')).toHaveText(bdt(sofa.unitPrice));
  });

  test('a sku that is no longer sold is flagged and blocks checkout until removed', async ({ page }) => {
    await page.goto('/about');
    await page.evaluate(() =>
      localStorage.setItem(
        'cart',
        JSON.stringify({
          version: 1,
          couponCode: null,
          couponAmount: 0,
          lines: [
            {
              product: { id: 999999, title: 'Discontinued Stool', slug: 'gone', image: null },
              sku: { code: 'GONE-1', salesPrice: 100_000, discountedSalesPrice: null },
              quantity: 1,
              subTotal: 100_000,
              salesPrice: 100_000,
            },
          ],
        }),
      ),
    );
    await page.goto('/cart');
    await expect(page.getByTestId('line-problem')).toHaveText(/no longer sold/);
    await expect(page.getByRole('button', { name: 'Proceed to Checkout' })).toBeDisabled();
    await page.getByRole('button', { name: 'Remove Discontinued Stool from cart' }).click();
    await expect(page.getByTestId('cart-empty')).toBeVisible();
  });

  test('a corrupt stored cart is discarded without breaking the page', async ({ page }) => {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto('/about');
    await page.evaluate(() => localStorage.setItem('cart', '{"version":1,"lines":[{"quantity":-4}'));
    await page.goto('/cart');
    await expect(page.getByTestId('cart-empty')).toHaveText('YOUR CART IS EMPTY');
    expect(errors).toEqual([]);
  });

  test('two tabs keep the same cart', async ({ context }) => {
    const first = await context.newPage();
    const second = await context.newPage();
    await second.goto('/about');
    await hydrated(second);
    await openProduct(first, table);
    await first.getByRole('button', { name: 'Add to Cart' }).click();
    await expect(badge(second)).toHaveText('1');
    await first.getByRole('button', { name: 'Add to Cart' }).click();
    await expect(badge(second)).toHaveText('2');
  });

  test('the currency menu lists every currency with its flag and changes product prices', async ({ page, request }) => {
    await openProduct(page, sofa);
    await page.getByTestId('currency-button').click();
    const items = page.getByRole('menuitemradio');
    await expect(items).toHaveCount(6);
    await expect(items.first()).toContainText('BDT');
    await expect(items.first()).toHaveAttribute('aria-checked', 'true');
    expect(await page.getByRole('menu').locator('img[src^="/media/flags/"]').count()).toBe(6);
    const rate = await currencyRate(request, 'EUR');
    await page.getByRole('menuitemradio', { name: /EUR/ }).click();
    await expect(page.getByTestId('price').first()).toContainText(formatMoney(sofa.unitPrice, { sourceId: 'EUR', rate }));
    // Keyboard: the menu opens with Enter and moves with the arrows.
    await page.getByTestId('currency-button').focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('menu')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('menu')).toBeHidden();
  });
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 360, height: 780 } });

  test('the cart icon goes to the cart page instead of opening a dropdown', async ({ page }) => {
    await openProduct(page, table);
    await page.getByRole('button', { name: 'Add to Cart' }).click();
    await expect(cartButton(page)).toBeHidden();
    const link = page.getByTestId('cart-link-mobile');
    await expect(link.getByTestId('cart-count')).toHaveText('1');
    await link.click();
    await expect(page).toHaveURL(/\/cart$/);
    await expect(page.getByTestId('cart-dropdown')).toHaveCount(0);
    await expect(page.getByTestId('cart-line')).toHaveCount(1);
    await expect(page.getByRole('link', { name: 'Proceed to Checkout' })).toHaveAttribute('href', '/checkout');
    // The cart page's own content does not spill sideways on a narrow screen.
    expect(await page.locator('main').evaluate((m) => m.scrollWidth)).toBeLessThanOrEqual(360);
  });
});
