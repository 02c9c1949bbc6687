import { expect, type Page, test } from '@playwright/test';
import { BDT } from '../../packages/shared/src/money.ts';
import { findSku, formatMoney, hydrated, type ShopSku } from '../fixtures/cart.ts';

// The catalogue, the product page and the cart in Bangla (docs/decisions/0038): the shop's
// own words in Bangla, and every amount in Bangla digits with South Asian grouping
// (৳১,২৩,৪৫৬.০০), from the one formatter the server uses too.

/** An amount as the Bangla shop shows it. */
const bn = (minor: number) => formatMoney(minor, BDT, 'bn');
/** "৳১,৯১,৬০০.০০" -> 19160000 (poisha). */
const poisha = (text: string) => Math.round(Number(text.replace(/[০-৯]/g, (d) => String(d.charCodeAt(0) - 0x09e6)).replace(/[৳,\s]/g, '')) * 100);
/** A lakh or more: the last three digits, then pairs. */
const LAKH_PRICE = /৳[০-৯]{1,2}(,[০-৯]{2})*,[০-৯]{3}\.[০-৯]{2}/;

let sofa: ShopSku;

test.beforeAll(async ({ request }) => {
  sofa = await findSku(request, 'three-seater-sofas');
});

async function openInBangla(page: Page, sku: ShopSku) {
  await page.goto(`/details?id=${sku.productId}&sku=${encodeURIComponent(sku.code)}&lang=bn`);
  await page.getByTestId('sku-code').filter({ hasText: sku.code }).waitFor();
  await hydrated(page);
}

test('shopper reads the shop listing in Bangla, with prices in Bangla digits grouped in lakhs', async ({ page }) => {
  await page.goto('/shop?lang=bn&sort=price-desc');
  await expect(page.locator('html')).toHaveAttribute('lang', 'bn');
  await expect(page.getByRole('heading', { level: 1, name: 'সব ফার্নিচার' })).toBeVisible();
  await expect(page.getByTestId('result-count')).toHaveText(/^[০-৯,]+টি পণ্য$/);
  await expect(page.getByLabel('সাজান')).toHaveValue('price-desc');
  await expect(page.getByRole('option', { name: 'দাম: বেশি থেকে কম' })).toBeAttached();
  await expect(page.getByRole('complementary', { name: 'ফিল্টার' }).getByRole('heading', { name: 'ক্যাটাগরি' })).toBeVisible();
  const card = page.getByTestId('product-card').first();
  await expect(card.getByRole('button', { name: /যোগ করুন/ }).or(card.getByRole('link', { name: 'অপশন বেছে নিন' }))).toBeVisible();

  // Every price is the Bangla formatter's output for its amount: digits, grouping, paisa.
  const prices = await page.getByTestId('product-card').getByTestId('price-now').allTextContents();
  expect(prices.length).toBeGreaterThan(0);
  for (const text of prices) expect(text).toBe(bn(poisha(text)));
  // The dearest piece of the demo costs more than a lakh: its price groups as ৳১,৯১,৬০০.০০.
  expect(poisha(prices[0]!)).toBeGreaterThanOrEqual(100_000_00);
  expect(prices[0]).toMatch(LAKH_PRICE);
  await expect(page).toHaveTitle(/^সব ফার্নিচার \| /);
});

test('shopper reads stock and delivery times on a product page in Bangla', async ({ page }) => {
  await openInBangla(page, sofa);
  await expect(page.getByTestId('price-now').first()).toHaveText(bn(sofa.unitPrice));
  await expect(page.getByTestId('stock-summary')).toHaveText(/^স্টকে আছে: [০-৯]+টি শোরুমে মোট [০-৯,]+টি$/);
  const table = page.getByTestId('stock-table');
  await expect(table.getByRole('columnheader')).toHaveText(['শোরুম', 'শহর', 'স্টক']);
  await expect(table.getByRole('cell', { name: /^স্টকে [০-৯,]+টি$/ }).first()).toBeVisible();
  const delivery = page.getByTestId('delivery-times');
  await expect(delivery.getByRole('heading', { name: 'হোম ডেলিভারি ও অ্যাসেম্বলি' })).toBeVisible();
  await expect(delivery).toContainText(/(আজই|[০-৯]+(–[০-৯]+)? দিন)/);
  await expect(delivery).toContainText('বাংলাদেশের অন্যান্য এলাকা');
  await expect(delivery).not.toContainText(/\bdays?\b|free/);
  await expect(page.getByRole('button', { name: 'কার্টে যোগ করুন' })).toBeEnabled();
});

test('shopper sees the cart line and total in Bangla digits', async ({ page }) => {
  await openInBangla(page, sofa);
  const add = page.getByRole('button', { name: 'কার্টে যোগ করুন' });
  await add.click();
  await expect(page.getByTestId('cart-button').getByTestId('cart-count')).toHaveText('১');
  await add.click();
  await expect(page.getByTestId('cart-button').getByTestId('cart-count')).toHaveText('২');
  await expect(page.getByTestId('cart-button')).toHaveAccessibleName('কার্ট, ২টি পণ্য');

  // The dropdown: quantity × unit price, and the total.
  await page.getByTestId('cart-button').click();
  const dropdown = page.getByTestId('cart-dropdown');
  await expect(dropdown.getByTestId('cart-dropdown-unit')).toHaveText(`২ × ${bn(sofa.unitPrice)}`);
  await expect(dropdown.getByTestId('cart-dropdown-total')).toHaveText(bn(sofa.unitPrice * 2));
  await dropdown.getByRole('link', { name: 'কার্ট দেখুন' }).click();

  await expect(page).toHaveURL(/\/cart$/);
  await expect(page.getByRole('heading', { level: 1, name: 'আপনার কার্ট' })).toBeVisible();
  const line = page.getByTestId('cart-line');
  await expect(line.getByTestId('line-unit-price')).toContainText(bn(sofa.unitPrice));
  await expect(line.getByTestId('line-subtotal')).toHaveText(bn(sofa.unitPrice * 2));
  await expect(line.getByTestId('line-quantity')).toHaveValue('২');
  await expect(line.getByRole('button', { name: /পরিমাণ বাড়ান$/ })).toBeVisible();
  const totals = page.getByTestId('cart-totals');
  await expect(totals).toContainText('সাবটোটাল (২টি পণ্য)');
  await expect(page.getByTestId('total-total')).toHaveText(bn(sofa.unitPrice * 2));
  await expect(page.getByTestId('total-total')).toHaveText(/^৳[০-৯,]+\.[০-৯]{2}$/);
  await expect(page.getByRole('link', { name: 'চেকআউটে যান' })).toBeVisible();
  await expect(page).toHaveTitle(/^আপনার কার্ট — /);

  // A quantity typed in Bangla digits counts.
  await line.getByTestId('line-quantity').fill('৩');
  await line.getByTestId('line-quantity').press('Enter');
  await expect(line.getByTestId('line-subtotal')).toHaveText(bn(sofa.unitPrice * 3));
  await expect(totals).toContainText('সাবটোটাল (৩টি পণ্য)');
});
