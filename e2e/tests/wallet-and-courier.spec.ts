import { expect, type Page, test } from '@playwright/test';
import { adminSignIn, createOwner, outboxTo } from '../fixtures/admin.ts';
import { fillGuest, skuFrom, withCart } from '../fixtures/checkout.ts';
import { RAILS } from '../fixtures/rails-stand-ins.ts';

// Bangladesh's own rails end to end (docs/decisions/0040, 0041), in Chromium against the real
// server and the bKash and Steadfast stand-ins (fixtures/rails-stand-ins.ts), which speak
// those providers' documented APIs: a guest pays with bKash on bKash's page and lands on the
// success page; the owner books the order with Steadfast from the order screen; Steadfast's
// webhook says the parcel is on its way, then delivered; the shopper follows the courier, the
// tracking code and each status on the order page, and is mailed at each step.

async function courierSays(baseURL: string, invoice: string, status: string, message: string) {
  const control = RAILS.ports(Number(new URL(baseURL).port)).control;
  const res = await fetch(`http://127.0.0.1:${control}/steadfast/advance`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ invoice, status, message }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  // The shop answered Steadfast's webhook as accepted.
  expect(((await res.json()) as { webhookStatus: number }).webhookStatus).toBe(200);
}

async function step(staff: Page, name: string) {
  await staff.getByRole('button', { name, exact: true }).click();
  await expect(staff.getByRole('status').filter({ hasText: 'The customer was mailed' })).toBeVisible();
}

test.describe('wallet and courier', () => {
  test.describe.configure({ timeout: 180_000 });

  test('a shopper pays with bKash, staff book the parcel with Steadfast, the courier delivers it, and the shopper follows it on the order page', async ({
    page,
    browser,
    request,
    baseURL,
  }, info) => {
    const email = `e2e.rails.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;
    const sku = await skuFrom(request, 320);

    // The shopper pays with bKash: the shop sends them to bKash's page …
    await withCart(page, [{ sku, quantity: 1 }]);
    await fillGuest(page, email);
    await page.getByRole('radio', { name: /^bKash/ }).check();
    await page.getByTestId('place-order').click();
    await expect(page).toHaveURL(/\/redirect\/tokenized\/\?paymentID=/);
    await page.getByLabel('Your bKash account number').fill('01770618575');
    await page.getByLabel('PIN').fill('12121');
    await page.getByRole('button', { name: 'Confirm' }).click();
    // … and bKash sends them back: paid only once the shop has executed it with bKash.
    await expect(page).toHaveURL(/\/payments\/response\/success\?invoiceId=/);
    const invoice = (await page.getByTestId('invoice-id').first().textContent())!.trim();
    await page.goto(`/orders?invoiceId=${invoice}`);
    await expect(page.getByTestId('payment-status')).toHaveText('Paid');
    await expect(page.getByTestId('wallet-receipt')).toContainText('Paid by bKash, transaction ID');

    // The owner packs it (a paid order is confirmed already), then books it with Steadfast from the order screen.
    const owner = createOwner(info);
    const staff = await (await browser.newContext({ baseURL })).newPage();
    await adminSignIn(staff, owner);
    await staff.goto(`/admin/orders?q=${invoice}`);
    await staff.getByRole('link', { name: invoice }).click();
    await expect(staff.getByRole('heading', { level: 1 })).toContainText(invoice);
    const courier = staff.getByRole('region', { name: 'Courier' });
    await expect(courier).toContainText('A parcel can be booked once the order is packed.');
    await step(staff, 'Mark packed');
    // Paid by bKash: the rider collects nothing.
    await expect(courier).toContainText('The rider collects nothing');
    await courier.getByLabel('Note for the rider (optional)').fill('Call before coming');
    await courier.getByRole('button', { name: 'Book with Steadfast' }).click();
    await expect(courier.getByRole('status').filter({ hasText: 'Booked with Steadfast.' })).toBeVisible();
    const tracking = (await courier.getByTestId('tracking-code').textContent())!.trim();
    expect(tracking).toMatch(/^[A-Z0-9]{6,}$/i);
    await expect(courier.getByTestId('consignment-status')).toContainText('Handed to the courier');
    // The label carries what the rider needs.
    const labelPage = staff.waitForEvent('popup');
    await courier.getByRole('link', { name: 'Print the parcel label' }).click();
    const label = await labelPage;
    await expect(label.getByTestId('parcel-label')).toContainText(invoice);
    await expect(label.getByTestId('parcel-label')).toContainText(tracking);
    await expect(label.getByTestId('parcel-label')).toContainText('Paid: collect nothing');
    await label.close();

    // Steadfast's webhook: on its way, then delivered. The order follows.
    await courierSays(baseURL!, invoice, 'pending', 'Picked up from the merchant');
    await courierSays(baseURL!, invoice, 'delivered', 'Delivered to the customer');
    await staff.reload();
    await expect(courier.getByTestId('consignment-status')).toContainText('Delivered');
    await expect(courier.getByTestId('consignment-history')).toContainText('courier’s update');

    // The shopper sees the courier, the tracking code and each status with its time.
    await page.goto(`/orders?invoiceId=${invoice}`);
    await expect(page.getByTestId('sale-status')).toHaveText('Delivered');
    const shipment = page.getByRole('region', { name: 'Delivery tracking' });
    await expect(shipment).toContainText('Steadfast');
    await expect(shipment.getByTestId('shipment-tracking-code')).toHaveText(tracking);
    await expect(shipment.getByTestId('shipment-status')).toHaveText('Delivered');
    const history = shipment.getByTestId('shipment-history');
    await expect(history.getByRole('listitem')).toHaveCount(3);
    await expect(history.getByRole('listitem').first()).toContainText('Delivered');
    await expect(history).toContainText('On the way');
    await expect(history).toContainText('Handed to the courier');
    await expect(history.locator('time').first()).toHaveAttribute('datetime', /^\d{4}-\d{2}-\d{2}T/);
    // … and in the list of orders.
    await page.goto('/orders');
    await expect(page.locator(`[data-invoice="${invoice}"]`).getByTestId('shipment-summary')).toContainText(`Steadfast: Delivered · tracking code ${tracking}`);

    // Mailed at each step the courier took.
    const subjects = (await outboxTo(info, email)).map((m) => m.subject);
    expect(subjects).toContain(`Order ${invoice} — on its way`);
    expect(subjects).toContain(`Order ${invoice} — delivered`);
    await staff.context().close();
  });

  test('staff book a selection of packed orders with Steadfast in one go, and one with Pathao by its city and zone', async ({
    page,
    browser,
    request,
    baseURL,
  }, info) => {
    const email = `e2e.bulk.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;
    const invoices: string[] = [];
    for (const from of [110, 120, 130]) {
      await withCart(page, [{ sku: await skuFrom(request, from), quantity: 1 }]);
      await fillGuest(page, email);
      await page.getByRole('radio', { name: /Cash on delivery/ }).check();
      await page.getByTestId('place-order').click();
      await expect(page).toHaveURL(/\/payments\/response\/success\?invoiceId=/);
      invoices.push((await page.getByTestId('invoice-id').first().textContent())!.trim());
    }

    const owner = createOwner(info);
    const staff = await (await browser.newContext({ baseURL })).newPage();
    await adminSignIn(staff, owner);
    for (const invoice of invoices) {
      await staff.goto(`/admin/orders?q=${invoice}`);
      await staff.getByRole('link', { name: invoice }).click();
      await step(staff, 'Confirm');
      await step(staff, 'Mark packed');
    }

    // Pathao delivers by its own city and zone: staff pick them on the order's screen.
    const byPathao = invoices.pop()!;
    await staff.goto(`/admin/orders?q=${byPathao}`);
    await staff.getByRole('link', { name: byPathao }).click();
    const card = staff.getByRole('region', { name: 'Courier' });
    await card.getByLabel('Courier', { exact: true }).selectOption('Pathao');
    const book = card.getByRole('button', { name: 'Book with Pathao' });
    await expect(book).toBeDisabled();
    await card.getByLabel('City').selectOption('Dhaka');
    await card.getByLabel('Zone').selectOption('Adabor');
    await card.getByLabel('Area (optional)').selectOption('Bonolota');
    await book.click();
    await expect(card.getByRole('status').filter({ hasText: 'Booked with Pathao.' })).toBeVisible();
    await expect(card.getByTestId('consignment-status')).toContainText('Handed to the courier');
    await expect(card.getByTestId('consignment-id')).not.toHaveText('Being requested…');

    // The list of this shopper's packed orders offers the others for booking together.
    await staff.goto(`/admin/orders?q=${encodeURIComponent(email)}&status=packed`);
    for (const invoice of invoices) await staff.getByRole('checkbox', { name: `Select ${invoice} to book` }).check();
    await expect(staff.getByText('2 packed orders selected')).toBeVisible();
    await staff.getByRole('button', { name: 'Book selected with Steadfast' }).click();
    const outcome = staff.getByRole('status').filter({ hasText: 'Booked with Steadfast:' });
    for (const invoice of invoices) await expect(outcome).toContainText(invoice);

    // Each has its parcel, the cash to collect on it, and its label.
    await staff.goto(`/admin/orders?q=${invoices[0]}`);
    await staff.getByRole('link', { name: invoices[0] }).click();
    const courier = staff.getByRole('region', { name: 'Courier' });
    await expect(courier.getByTestId('consignment-status')).toContainText('Handed to the courier');
    await expect(courier).toContainText('Rider collects');
    await expect(courier.getByRole('button', { name: /^Book with/ })).toHaveCount(0);
    await staff.context().close();
  });
});
