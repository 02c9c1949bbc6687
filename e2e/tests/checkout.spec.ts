import { expect, type Page, test } from '@playwright/test';
import { apiHeaders, newShopper, signUpByApi } from '../fixtures/accounts.ts';
import { formatMoney, hydrated } from '../fixtures/cart.ts';
import { ADDRESS, deliveryFeeFor, fillAddress, fillGuest, skuFrom, stockOf, withCart } from '../fixtures/checkout.ts';

// Checkout, the sandbox payment page, the four outcome pages and the orders page
//, in Chromium against the real server. Each test buys products of its own
// (distinct product id ranges), so tests running side by side never share stock.

const bdt = (minor: number) => formatMoney(minor);
/** A 1×1 PNG. */
const PNG_1PX = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const email = () => `e2e.checkout.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;

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

test.describe('checking out', () => {
  // Whole journeys (product, checkout, gateway, outcome, orders): longer than a page test.
  test.describe.configure({ timeout: 90_000 });

  test('a guest buys through the product page and pays by card on the sandbox, then sees the order', async ({ page, request }) => {
    const sku = await skuFrom(request, 20);
    await page.goto(`/details?id=${sku.productId}&sku=${encodeURIComponent(sku.code)}`);
    await hydrated(page);
    await page.getByRole('button', { name: 'Add to Cart' }).click();
    await page.goto('/cart');
    await page.getByRole('link', { name: 'Proceed to Checkout' }).click();
    await expect(page).toHaveURL(/\/checkout$/);

    await fillGuest(page, email());
    const total = sku.unitPrice + (await deliveryFeeFor(request, 'Dhaka', sku.unitPrice));
    const summary = page.getByRole('complementary');
    await expect(summary.getByTestId('summary-total')).toHaveText(bdt(total));
    await expect(summary.getByTestId('charged-bdt')).toContainText(`You will be charged: ${bdt(total)}`);
    await expect(page.getByTestId('place-order')).toHaveText(`Pay ${bdt(total)}`);
    await placeOrder(page);

    await onSandbox(page, /^Pay ৳/);
    await expect(page).toHaveURL(/\/payments\/response\/success\?invoiceId=INV-/);
    await expect(page.getByRole('heading', { level: 1, name: 'Thank you, your payment was received' })).toBeVisible();
    await expect(page.getByTestId('payment-status').first()).toHaveText('Paid');
    await expect(page.getByTestId('charged-bdt')).toContainText(`Charged: ${bdt(total)}`);
    const invoice = (await page.getByTestId('invoice-id').first().textContent())!;
    expect(await stockOf(request, sku.code)).toBe(sku.available - 1);
    // The cart was emptied once the order was placed.
    await page.getByRole('link', { name: 'View order' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toContainText(invoice);
    await expect(page.getByTestId('history')).toContainText('Payment received and verified with the provider');
    await expect(page.getByTestId('invoice-qr')).toBeVisible();
    await page.goto('/orders');
    await expect(page.getByTestId('sale-card').filter({ hasText: invoice })).toContainText('Paid');
  });

  test('a customer pays with a saved address, the card is declined, the stock comes back, and paying again succeeds', async ({ page, request }) => {
    await signUpByApi(page.request, newShopper('Farhana Akter'));
    const saved = await page.request.post('/api/addresses', { headers: apiHeaders, data: { ...ADDRESS, district: 'Gazipur', label: 'Home', isDefault: true } });
    expect(saved.status()).toBe(201);
    const sku = await skuFrom(request, 60);
    await withCart(page, [{ sku, quantity: 1 }]);
    await expect(page.getByRole('radio', { name: /^Home Karim Ahmed/ })).toBeChecked();
    await expect(page.getByRole('region', { name: 'Your details' })).toContainText('Signed in as Farhana Akter');
    const total = sku.unitPrice + (await deliveryFeeFor(request, 'Gazipur', sku.unitPrice));
    await expect(page.getByTestId('place-order')).toHaveText(`Pay ${bdt(total)}`);
    await placeOrder(page);

    await onSandbox(page, /Decline the payment/);
    await expect(page).toHaveURL(/\/payments\/response\/failed\?invoiceId=/);
    await expect(page.getByRole('heading', { level: 1, name: 'Your payment did not go through' })).toBeVisible();
    await expect(page.getByTestId('sale-status').first()).toHaveText('Payment failed');
    expect(await stockOf(request, sku.code)).toBe(sku.available);

    await page.getByRole('button', { name: 'Try the payment again' }).click();
    await onSandbox(page, /^Pay ৳/);
    await expect(page.getByRole('heading', { level: 1, name: 'Thank you, your payment was received' })).toBeVisible();
    expect(await stockOf(request, sku.code)).toBe(sku.available - 1);
  });

  test('a guest cancels on the payment page: the order waits unpaid and its stock is released', async ({ page, request }) => {
    const sku = await skuFrom(request, 100);
    await withCart(page, [{ sku, quantity: 2 }]);
    await fillGuest(page, email());
    await placeOrder(page);
    await onSandbox(page, /Cancel and go back/);
    await expect(page).toHaveURL(/\/payments\/response\/cancel\?invoiceId=/);
    await expect(page.getByRole('heading', { level: 1, name: 'You cancelled the payment' })).toBeVisible();
    await expect(page.getByTestId('charged-bdt')).toContainText('Not charged yet');
    await expect(page.getByRole('button', { name: 'Try the payment again' })).toBeVisible();
    expect(await stockOf(request, sku.code)).toBe(sku.available);
    await page.getByRole('link', { name: 'View order' }).click();
    await expect(page.getByTestId('sale-status')).toHaveText('Payment cancelled');
  });

  test('a customer orders cash on delivery and finds it under Orders', async ({ page, request }) => {
    await signUpByApi(page.request, newShopper('Tanvir Hasan'));
    const sku = await skuFrom(request, 140);
    await withCart(page, [{ sku, quantity: 1 }]);
    await fillAddress(page);
    await page.getByRole('radio', { name: /Cash on delivery/ }).check();
    await expect(page.getByTestId('charged-bdt')).toContainText(
      `To pay on delivery: ${bdt(sku.unitPrice + (await deliveryFeeFor(request, 'Dhaka', sku.unitPrice)))}`,
    );
    await placeOrder(page);
    await expect(page).toHaveURL(/\/payments\/response\/success\?invoiceId=/);
    await expect(page.getByRole('heading', { level: 1, name: 'Thank you for your order' })).toBeVisible();
    const invoice = (await page.getByTestId('invoice-id').first().textContent())!;
    await page.goto('/orders');
    const card = page.getByTestId('sale-card').filter({ hasText: invoice });
    await expect(card).toContainText('Order placed');
    await expect(card).toContainText('Not paid');
    await expect(card).toContainText(sku.title);
  });

  test('the answer to "place order" is lost on the way: placing it again lands on the one order, not a second', async ({ page, request }) => {
    await signUpByApi(page.request, newShopper('Rafiq Islam'));
    const sku = await skuFrom(request, 260, 3);
    const before = await stockOf(request, sku.code);
    await withCart(page, [{ sku, quantity: 1 }]);
    await fillAddress(page);
    await page.getByRole('radio', { name: /Cash on delivery/ }).check();
    // The server places the order, but the browser never hears back.
    let sent = 0;
    await page.route('**/api/checkouts', async (route) => {
      sent++;
      if (sent === 1) {
        await route.fetch();
        await route.abort('connectionreset');
      } else await route.continue();
    });
    await placeOrder(page);
    await expect(page.getByRole('alert')).toContainText('We could not reach the shop');
    await placeOrder(page);
    await expect(page).toHaveURL(/\/payments\/response\/success\?invoiceId=/);
    expect(sent).toBe(2);
    expect(await stockOf(request, sku.code)).toBe(before - 1);
    await page.goto('/orders');
    await expect(page.getByTestId('sale-card').filter({ hasText: sku.title })).toHaveCount(1);
  });

  test('a customer books to pay later, then cancels the booking from the orders page and the stock comes back', async ({ page, request }) => {
    await signUpByApi(page.request, newShopper('Sadia Islam'));
    const sku = await skuFrom(request, 180);
    await withCart(page, [{ sku, quantity: 1 }]);
    await page.getByRole('radio', { name: /Collect from a showroom/ }).check();
    await page.getByRole('combobox', { name: 'Showroom' }).selectOption({ index: 1 });
    await page.getByRole('radio', { name: /Pay later/ }).check();
    await expect(page.getByTestId('place-order')).toHaveText('Book now, pay later');
    await placeOrder(page);
    await expect(page).toHaveURL(/\/payments\/response\/later\?invoiceId=/);
    await expect(page.getByRole('heading', { level: 1, name: 'Your items are booked' })).toBeVisible();
    await expect(page.getByTestId('charged-bdt')).toContainText(`Amount due: ${bdt(sku.unitPrice)}`);
    expect(await stockOf(request, sku.code)).toBe(sku.available - 1);
    const invoice = (await page.getByTestId('invoice-id').first().textContent())!;

    await page.goto('/orders');
    await page.getByRole('tab', { name: /Bookings/ }).click();
    await page.getByRole('link', { name: `View booking ${invoice}` }).click();
    // A deposit slip, uploaded through /api/files and attached as the booking's payment proof.
    await page.getByTestId('file-upload-input').setInputFiles({ name: 'deposit-slip.png', mimeType: 'image/png', buffer: Buffer.from(PNG_1PX, 'base64') });
    await expect(page.getByTestId('attachments')).toContainText('deposit-slip.png');
    await expect(page.getByTestId('payment-status')).toHaveText('Payment proof received');
    await page.getByRole('button', { name: 'Cancel booking' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel this booking?' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Yes, cancel the booking' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('sale-status')).toHaveText('Cancelled');
    await expect(page.getByRole('button', { name: 'Cancel booking' })).toHaveCount(0);
    expect(await stockOf(request, sku.code)).toBe(sku.available);

    await page.goto('/orders?tab=bookings');
    await expect(page.getByRole('tabpanel').getByTestId('sale-card').filter({ hasText: invoice })).toContainText('Cancelled');
  });

  test('the checkout asks for what is missing before placing anything', async ({ page, request }) => {
    const sku = await skuFrom(request, 220);
    await withCart(page, [{ sku, quantity: 1 }]);
    await placeOrder(page);
    await expect(page.getByText('Please Give Your Name')).toBeVisible();
    await expect(page.getByText('Please Choose a Division')).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Full name' })).toBeFocused();
    await expect(page).toHaveURL(/\/checkout$/);
  });
});
