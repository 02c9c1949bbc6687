import { expect, test } from '@playwright/test';
import { formatMoney } from '../../../packages/shared/src/money.ts';
import { adminSignIn, createStaff } from '../../fixtures/admin.ts';
import { hydrated } from '../../fixtures/cart.ts';
import { deliveryFeeFor, fillGuest, skuFrom, withCart } from '../../fixtures/checkout.ts';

// Delivery zones are the shop's data (docs/decisions/0033): a manager changes Dhaka city's
// free-delivery threshold on the Delivery screen, and the next checkout and product page
// follow it. The threshold is put back at the end.

const bdt = (poisha: number) => formatMoney(poisha);

test('a manager sets Dhaka city’s free-delivery threshold and the checkout charges no delivery above it', async ({ page, request }, info) => {
  test.setTimeout(120_000);
  const manager = await createStaff(info, request);
  const sku = await skuFrom(request, 100);
  // Items worth just under the new threshold, then at it: two of the sku against a threshold
  // of twice its price.
  const threshold = sku.unitPrice * 2;

  await adminSignIn(page, manager);
  await page.goto('/admin/delivery');
  const zone = page.getByRole('region', { name: 'Dhaka city' });
  const freeFrom = zone.getByLabel('Free from (৳)');
  const before = await freeFrom.inputValue();
  await freeFrom.fill(String(threshold / 100));
  await zone.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Dhaka city: saved. The next checkout charges it.')).toBeVisible();

  try {
    // The product page promises it at once.
    await page.goto(`/details?id=${sku.productId}`);
    await expect(page.getByTestId('delivery-times')).toContainText(`free from ${bdt(threshold)}`);

    // Below the threshold: the zone's fee is charged.
    await withCart(page, [{ sku, quantity: 1 }]);
    await hydrated(page);
    await fillGuest(page, `threshold-${Date.now().toString(36)}@shop.test`);
    const summary = page.getByRole('complementary');
    const fee = await deliveryFeeFor(request, 'Dhaka', sku.unitPrice);
    expect(fee).toBeGreaterThan(0);
    await expect(summary.getByTestId('summary-total')).toHaveText(bdt(sku.unitPrice + fee));
    await expect(page.getByText(`free from ${bdt(threshold)}`)).toBeVisible();

    // At the threshold: delivery is free and the total is the items alone.
    await withCart(page, [{ sku, quantity: 2 }]);
    await hydrated(page);
    await fillGuest(page, `threshold-${Date.now().toString(36)}@shop.test`);
    await expect(summary.getByTestId('summary-totals')).toContainText('DeliveryFree');
    await expect(summary.getByTestId('summary-total')).toHaveText(bdt(threshold));
  } finally {
    await page.goto('/admin/delivery');
    await page.getByRole('region', { name: 'Dhaka city' }).getByLabel('Free from (৳)').fill(before);
    await page.getByRole('region', { name: 'Dhaka city' }).getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Dhaka city: saved. The next checkout charges it.')).toBeVisible();
  }
});
