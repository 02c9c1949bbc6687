import { expect, type Page, test } from '@playwright/test';
import { newShopper, signUpByApi } from '../../fixtures/accounts.ts';
import { adminSignIn, createStaff } from '../../fixtures/admin.ts';
import { formatMoney, hydrated, quote } from '../../fixtures/cart.ts';
import { API_KEY, deliveryFeeFor, fillAddress, skuFrom, withCart } from '../../fixtures/checkout.ts';

// Promotions in the back office (docs/decisions/0034), through the screens: a manager puts a
// discount on the sofas and the storefront prices them at once (switched off again at the
// end), and a coupon made on the screens is used at checkout and listed in its usage view.
// Expectations come from the shop's own API, so another shop-wide spec running beside this
// one (or the demo's own sofa discount) does not change what is checked.

const bdt = (poisha: number) => formatMoney(poisha);
const run = Date.now().toString(36).toUpperCase();
const headers = { 'x-api-key': API_KEY };

/** The discount editor's switch, once the discount is saved. */
async function switchTo(page: Page, on: boolean) {
  const sw = page.getByRole('switch', { name: 'Discount in the shop' });
  if ((await sw.getAttribute('aria-checked')) !== String(on)) await sw.click();
  await expect(sw).toHaveAttribute('aria-checked', String(on));
}

test('a manager switches on 20% off the sofas and the shop shows the new price at once', async ({ page, request }, info) => {
  test.setTimeout(120_000);
  const manager = await createStaff(info, request);
  // A sofa on the first page of the Sofas listing, as a shopper sees it.
  const listing = await request.post('/api/v2/items/indices', {
    headers,
    data: { page: 1, size: 24, textParams: [{ field: 'categoryName', value: 'Sofas' }] },
  });
  const card = ((await listing.json()).list as { id: number; title: string; kind: string; sku: { code: string } }[]).find((c) => c.kind === 'single')!;
  expect(card, 'the demo shop has sofas').toBeTruthy();

  await adminSignIn(page, manager);
  await page.getByRole('navigation').getByRole('link', { name: 'Discounts' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Discounts' })).toBeVisible();
  await page.getByRole('link', { name: 'New discount' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'New discount' })).toBeVisible();

  const title = `E2E ${run}: 20% off sofas`;
  await page.getByLabel('Title').fill(title);
  await page.getByRole('radio', { name: 'Categories' }).check();
  await page.getByRole('radio', { name: 'Percentage' }).check();
  await page.getByLabel('Per cent off').fill('20');
  await page.getByRole('checkbox', { name: 'Sofas', exact: true }).check();
  await page.getByRole('button', { name: 'Save the discount' }).click();
  await expect(page).toHaveURL(/\/admin\/discounts\/\d+$/);
  const id = Number(/\/admin\/discounts\/(\d+)$/.exec(page.url())![1]);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();

  try {
    // The preview, before switching on: the sofa's price now and with the discount.
    await page.getByRole('button', { name: 'Preview prices' }).click();
    const previewCard = page.getByRole('region', { name: 'Preview' });
    await expect(previewCard.getByRole('status')).toContainText(/Reaches \d+ skus in \d+ products/);
    // The same numbers through the API, for the sofa the listing shows first.
    const previewed = await page.request.post('/api/admin/promotions/discounts/preview?size=100', {
      headers,
      data: { id, title, type: 'FIXED_CATEGORY', discountType: 'PERCENTAGE', value: 20, categoryIds: [await sofasId(page)] },
    });
    expect(previewed.status()).toBe(200);
    const line = await findLine(page, id, title, card.sku.code, (await previewed.json()).total);
    expect(line.newPrice).toBeLessThan(line.salesPrice);

    // Switched on: the listing and the product page show the new price on the next page.
    await switchTo(page, true);
    await expect(page.getByText('Switched on. The shop shows the discounted prices now.')).toBeVisible();
    await page.goto('/shop?categoryName=Sofas');
    const shown = page.getByTestId('product-card').filter({ hasText: card.title }).first();
    await expect(shown.getByTestId('price-now')).toHaveText(bdt(line.newPrice));
    await expect(shown.getByTestId('price-was')).toContainText(bdt(line.salesPrice));
    await page.goto(`/details?id=${card.id}&sku=${encodeURIComponent(card.sku.code)}`);
    await expect(page.getByTestId('price-now').first()).toHaveText(bdt(line.newPrice));
    expect((await quote(request, [{ skuCode: card.sku.code, quantity: 1 }])).lines[0].unitPrice).toBe(line.newPrice);

    // Switched off: back to the price it had.
    await page.goto(`/admin/discounts/${id}`);
    await switchTo(page, false);
    await expect(page.getByText('Switched off. The shop shows its usual prices now.')).toBeVisible();
    await page.goto(`/details?id=${card.id}&sku=${encodeURIComponent(card.sku.code)}`);
    await expect(page.getByTestId('price-now').first()).toHaveText(bdt(line.currentPrice));
  } finally {
    // Never leave the discount on for the other specs of the run.
    const d = await page.request.get(`/api/admin/promotions/discounts/${id}`, { headers });
    const body = await d.json();
    if (body.active) await page.request.patch(`/api/admin/promotions/discounts/${id}`, { headers, data: { active: false, version: body.version } });
  }
});

async function sofasId(page: Page): Promise<number> {
  const ref = await (await page.request.get('/api/admin/reference', { headers })).json();
  return ref.categories.find((c: { name: string; depth: number }) => c.name === 'Sofas').id;
}

/** The preview line of one sku, paging through the preview. */
async function findLine(page: Page, id: number, title: string, skuCode: string, total: number) {
  const categoryIds = [await sofasId(page)];
  for (let p = 1; (p - 1) * 100 < total; p++) {
    const res = await page.request.post(`/api/admin/promotions/discounts/preview?size=100&page=${p}`, {
      headers,
      data: { id, title, type: 'FIXED_CATEGORY', discountType: 'PERCENTAGE', value: 20, categoryIds },
    });
    const found = ((await res.json()).items as { skuCode: string; salesPrice: number; currentPrice: number; newPrice: number }[]).find(
      (l) => l.skuCode === skuCode,
    );
    if (found) return found;
  }
  throw new Error(`the preview has no line for ${skuCode}`);
}

test('a manager makes a coupon, a shopper uses it at checkout, and its usage view lists the order', async ({ browser, page, request }, info) => {
  test.setTimeout(150_000);
  const manager = await createStaff(info, request);
  const code = `E2E${run}`;

  await adminSignIn(page, manager);
  await page.getByRole('navigation').getByRole('link', { name: 'Coupons' }).click();
  await page.getByRole('link', { name: 'New coupon' }).click();
  await page.getByLabel('Code').fill(code.toLowerCase());
  await page.getByLabel('Title').fill('৳500 off for the e2e run');
  await page.getByRole('radio', { name: 'Amount in taka' }).check();
  await page.getByLabel('Taka off (৳)').fill('500');
  await page.getByRole('button', { name: 'Save the coupon' }).click();
  await expect(page).toHaveURL(/\/admin\/coupons\/\d+$/);
  // Stored upper-case: shoppers' codes are matched whatever their case.
  await expect(page.getByRole('heading', { level: 1, name: code })).toBeVisible();
  const couponUrl = page.url();

  // The same code in another case is refused on the field.
  await page.goto('/admin/coupons/new');
  await page.getByLabel('Code').fill(code);
  await page.getByLabel('Title').fill('A twin');
  await page.getByLabel('Taka off (৳)').fill('100');
  await page.getByRole('button', { name: 'Save the coupon' }).click();
  await expect(page.getByText('Another coupon already has this code')).toBeVisible();
  await expect(page.getByLabel('Code')).toHaveAttribute('aria-invalid', 'true');

  // A shopper of their own, in a browser of their own.
  const shopperContext = await browser.newContext();
  const shopper = await shopperContext.newPage();
  try {
    await signUpByApi(shopper.request, newShopper('Farhana Akter'));
    const sku = await skuFrom(request, 200);
    await withCart(shopper, [{ sku, quantity: 1 }], '/cart');
    await shopper.getByLabel('Coupon code').fill(code.toLowerCase());
    await shopper.getByRole('button', { name: 'Apply' }).click();
    await expect(shopper.getByTestId('coupon-applied')).toContainText(code);

    const priced = await quote(request, [{ skuCode: sku.code, quantity: 1 }], code);
    expect(priced.coupon).toMatchObject({ applied: true, amount: 50_000 });
    await shopper.getByRole('link', { name: 'Proceed to Checkout' }).click();
    await expect(shopper).toHaveURL(/\/checkout$/);
    await hydrated(shopper);
    await fillAddress(shopper);
    await shopper.getByRole('radio', { name: /Cash on delivery/ }).check();
    const summary = shopper.getByRole('complementary');
    await expect(summary.getByTestId('summary-totals')).toContainText(`Coupon ${code}`);
    await expect(summary.getByTestId('summary-totals')).toContainText(bdt(-50_000));
    const fee = await deliveryFeeFor(request, 'Dhaka', priced.totals.total);
    await expect(summary.getByTestId('summary-total')).toHaveText(bdt(priced.totals.total + fee));
    await shopper.getByTestId('place-order').click();
    await expect(shopper).toHaveURL(/\/payments\/response\/success\?invoiceId=/);
    const invoice = (await shopper.getByTestId('invoice-id').first().textContent())!.trim();

    // The coupon's page lists the order, who placed it and what it gave.
    await page.goto(couponUrl);
    const usages = page.getByRole('region', { name: 'Orders that used it' });
    const row = usages.getByRole('row').filter({ hasText: invoice });
    await expect(row).toContainText('Farhana Akter');
    await expect(row).toContainText('৳500.00');
    await expect(usages).toContainText('Uses1');
  } finally {
    await shopperContext.close();
    // The coupon is the run's own; switch it off so nobody else's checkout meets it.
    await page.goto(couponUrl);
    const sw = page.getByRole('switch', { name: 'Coupon at checkout' });
    if ((await sw.getAttribute('aria-checked')) === 'true') {
      await sw.click();
      await expect(sw).toHaveAttribute('aria-checked', 'false');
    }
  }
});
