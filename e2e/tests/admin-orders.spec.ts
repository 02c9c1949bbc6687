import { type Browser, expect, type Page, test } from '@playwright/test';
import { adminSignIn, createOwner, outboxTo } from '../fixtures/admin.ts';
import { hydrated } from '../fixtures/cart.ts';
import { deliveryFeeFor, fillGuest, skuFrom, withCart } from '../fixtures/checkout.ts';

// The life of orders in the back office (docs/decisions/0032), in Chromium against the real
// server: a guest orders cash on delivery, pays another order by card on the sandbox, and
// books a third with a deposit slip; the owner confirms, packs, ships and delivers the first
// and records its cash, accepts the slip, and refunds the card order's line; the guest sees
// each step on the order page, has a mail for each, and opens the order from the mail's link
// on another device.

const PNG_1PX = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

async function place(page: Page) {
  const place = page.getByTestId('place-order');
  await expect(place).toBeEnabled();
  await place.click();
}

async function invoiceOf(page: Page) {
  return (await page.getByTestId('invoice-id').first().textContent())!.trim();
}

async function openOrder(staff: Page, invoice: string) {
  await staff.goto(`/admin/orders?q=${invoice}`);
  await staff.getByRole('link', { name: invoice }).click();
  await expect(staff.getByRole('heading', { level: 1 })).toContainText(invoice);
}

async function step(staff: Page, name: string, status: string) {
  await staff.getByRole('button', { name, exact: true }).click();
  await expect(staff.getByRole('status').filter({ hasText: 'The customer was mailed' })).toBeVisible();
  await expect(staff.locator('header, div').getByText(status, { exact: true }).first()).toBeVisible();
}

async function newPage(browser: Browser, baseURL: string | undefined) {
  const context = await browser.newContext({ baseURL });
  return context.newPage();
}

test.describe('orders in the back office', () => {
  test.describe.configure({ timeout: 180_000 });

  test('staff take a shopper’s orders from placed to delivered, accept a deposit slip and refund a line; the shopper sees and is told each step', async ({
    page,
    browser,
    request,
    baseURL,
  }, info) => {
    const email = `e2e.orders.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;

    // The shopper: cash on delivery …
    const codSku = await skuFrom(request, 60);
    await withCart(page, [{ sku: codSku, quantity: 1 }]);
    await fillGuest(page, email);
    await page.getByRole('radio', { name: /Cash on delivery/ }).check();
    await place(page);
    await expect(page).toHaveURL(/\/payments\/response\/success\?invoiceId=/);
    const cod = await invoiceOf(page);

    // … a card payment on the sandbox …
    const cardSku = await skuFrom(request, 70);
    await withCart(page, [{ sku: cardSku, quantity: 1 }]);
    await fillGuest(page, email);
    await place(page);
    await expect(page).toHaveURL(/\/payments\/sandbox\/pay\?session=/);
    await page.getByRole('button', { name: /^Pay ৳/ }).click();
    await expect(page).toHaveURL(/\/payments\/response\/success\?invoiceId=/);
    const card = await invoiceOf(page);

    // … and a booking, paid by bank deposit, its slip uploaded on the order page.
    const bookSku = await skuFrom(request, 80);
    await withCart(page, [{ sku: bookSku, quantity: 1 }]);
    await fillGuest(page, email);
    await page.getByRole('radio', { name: /Pay later/ }).check();
    await place(page);
    await expect(page).toHaveURL(/\/payments\/response\/later\?invoiceId=/);
    const booking = await invoiceOf(page);
    await page.goto(`/orders?invoiceId=${booking}`);
    await hydrated(page);
    await page.getByTestId('file-upload-input').setInputFiles({ name: 'deposit-slip.png', mimeType: 'image/png', buffer: Buffer.from(PNG_1PX, 'base64') });
    await expect(page.getByTestId('payment-status')).toHaveText('Payment proof received');

    // The owner, in the back office.
    const owner = createOwner(info);
    const staff = await newPage(browser, baseURL);
    await adminSignIn(staff, owner);

    await openOrder(staff, cod);
    await expect(staff.getByText('Order placed', { exact: true }).first()).toBeVisible();
    // A step that is not next is not offered at all.
    await expect(staff.getByRole('button', { name: 'Mark shipped' })).toHaveCount(0);
    await step(staff, 'Confirm', 'Confirmed');
    await step(staff, 'Mark packed', 'Packed');
    await step(staff, 'Mark shipped', 'On its way');
    await step(staff, 'Mark delivered', 'Delivered');
    const cash = staff.getByRole('region', { name: 'Cash on delivery' });
    await cash.getByRole('button', { name: 'Record the cash' }).click();
    await expect(staff.getByRole('status').filter({ hasText: 'The cash was recorded' })).toBeVisible();

    await openOrder(staff, booking);
    const proofs = staff.getByRole('region', { name: 'Payment proofs' });
    await expect(proofs.getByRole('img', { name: /Payment proof deposit-slip\.png/ })).toBeVisible();
    await proofs.getByRole('button', { name: 'Accept the payment' }).click();
    await expect(proofs.getByText(/Accepted: ৳/)).toBeVisible();

    await openOrder(staff, card);
    await expect(staff.getByRole('region', { name: 'Payment attempts' })).toContainText('Bank transaction');
    const refunds = staff.getByRole('region', { name: 'Refunds' });
    await refunds.getByRole('radio', { name: 'Items' }).check();
    await refunds.getByLabel(`Units of ${cardSku.title} to refund`).fill('1');
    await refunds.getByLabel('Reason').fill('Scratched on arrival');
    await refunds.getByRole('button', { name: 'Refund', exact: true }).click();
    await expect(refunds.getByText('With the gateway')).toBeVisible();

    // The shopper sees each step on the order page …
    await page.goto(`/orders?invoiceId=${cod}`);
    await expect(page.getByTestId('sale-status')).toHaveText('Delivered');
    await expect(page.getByTestId('payment-status')).toHaveText('Paid');
    const history = page.getByTestId('history');
    for (const s of ['Confirmed', 'Packed', 'On its way', 'Delivered']) await expect(history).toContainText(s);
    await page.goto(`/orders?invoiceId=${booking}`);
    await expect(page.getByTestId('payment-status')).toHaveText('Paid');
    await expect(page.getByTestId('attachments')).toContainText('accepted');
    // The line went back; a delivery fee, if the order had one, was not refunded.
    await page.goto(`/orders?invoiceId=${card}`);
    const fee = await deliveryFeeFor(request, 'Dhaka', cardSku.unitPrice);
    await expect(page.getByTestId('payment-status')).toHaveText(fee ? 'Partly refunded' : 'Refunded');

    // … and has a mail for each.
    const subjects = (await outboxTo(info, email)).map((m) => m.subject);
    for (const s of [
      `Order ${cod} — confirmed by the shop`,
      `Order ${cod} — packed`,
      `Order ${cod} — on its way`,
      `Order ${cod} — delivered`,
      `Booking ${booking} — payment received`,
      `Order ${card} — refund`,
    ]) {
      expect(subjects).toContain(s);
    }

    // On another device, the mail's link opens the order, and its invoice downloads as a PDF.
    const mail = (await outboxTo(info, email)).find((m) => m.subject === `Order ${cod} — delivered`)!;
    const link = /https?:\/\/\S+\/orders\?invoiceId=\S+&key=[\w-]+/.exec(mail.text)![0];
    const phone = await newPage(browser, baseURL);
    await phone.goto(new URL(link).pathname + new URL(link).search);
    await expect(phone.getByRole('heading', { level: 1 })).toContainText(cod);
    const download = phone.waitForEvent('download');
    await phone.getByRole('link', { name: 'Download PDF' }).click();
    expect((await download).suggestedFilename()).toBe(`invoice-${cod}.pdf`);
    // Remembered by that browser: the order opens again without the key.
    await phone.goto(`/orders?invoiceId=${cod}`);
    await expect(phone.getByRole('heading', { level: 1 })).toContainText(cod);
    await phone.context().close();
    await staff.context().close();
  });
});
