import { expect, test } from '@playwright/test';
import { accountReady, newShopper } from '../fixtures/accounts.ts';
import { skuFrom, withCart } from '../fixtures/checkout.ts';

// The shop in Bangla (docs/decisions/0038) from sign-up to the orders page: the form's
// validation texts, the checkout, the outcome page and /orders all speak Bangla, with
// Bangla digits in prices, invoice numbers and dates.

const BANGLA_DIGIT = /[০-৯]/;
const BANGLA_MONTH = /(জানুয়ারি|ফেব্রুয়ারি|মার্চ|এপ্রিল|মে|জুন|জুলাই|আগস্ট|সেপ্টেম্বর|অক্টোবর|নভেম্বর|ডিসেম্বর)/;

test.describe('the shop in Bangla', () => {
  test.describe.configure({ timeout: 90_000 });

  test('a shopper signs up in Bangla, pays cash on delivery and reads the order in Bangla', async ({ page, request }) => {
    await page.goto('/sign-up?lang=bn');
    await accountReady(page);
    await expect(page.locator('html')).toHaveAttribute('lang', 'bn');
    await expect(page.getByRole('heading', { level: 1, name: 'আপনার অ্যাকাউন্ট খুলুন' })).toBeVisible();
    const form = page.getByTestId('sign-up-form');

    // Submitted empty: every field says what it needs, in Bangla.
    await form.getByRole('checkbox').check();
    await form.getByRole('button', { name: 'সাইন আপ' }).click();
    const errors = form.getByTestId('field-error');
    await expect(errors.first()).toHaveText('অনুগ্রহ করে আপনার নাম দিন');
    await expect(errors).toContainText(['অনুগ্রহ করে আপনার নাম দিন', 'অনুগ্রহ করে আপনার ইমেইল দিন', 'অনুগ্রহ করে আপনার মোবাইল নম্বর দিন']);

    // A bad email.
    const shopper = newShopper('Sumaiya Islam');
    await form.getByLabel('পুরো নাম').fill(shopper.fullName);
    await form.getByLabel('ইমেইল').fill('not-an-email');
    await form.getByLabel('মোবাইল নম্বর').fill(shopper.mobile);
    await form.getByLabel('পাসওয়ার্ড', { exact: true }).fill(shopper.password);
    await form.getByLabel('পাসওয়ার্ড নিশ্চিত করুন', { exact: true }).fill(shopper.password);
    await form.getByRole('button', { name: 'সাইন আপ' }).click();
    await expect(errors).toHaveText(['অনুগ্রহ করে সঠিক ইমেইল দিন']);

    await form.getByLabel('ইমেইল').fill(shopper.email);
    await form.getByRole('button', { name: 'সাইন আপ' }).click();
    await expect(page.getByTestId('account-menu-button')).toBeVisible();

    // Checkout in Bangla: a new address, cash on delivery.
    const sku = await skuFrom(request, 290);
    await withCart(page, [{ sku, quantity: 1 }], '/checkout?lang=bn');
    await expect(page.getByRole('heading', { level: 1, name: 'চেকআউট' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'আপনার তথ্য' })).toContainText(shopper.fullName);
    const box = page.getByTestId('checkout-address');
    await box.getByLabel('প্রাপকের নাম').fill(shopper.fullName);
    await box.getByLabel('ফোন').fill(shopper.mobile);
    await box.getByLabel('বিভাগ').selectOption('Dhaka');
    await box.getByLabel('জেলা').selectOption('Dhaka');
    await box.getByLabel('এলাকা').fill('Dhanmondi');
    await box.getByLabel('বাড়ি, রাস্তা ও পরিচিত স্থান').fill('House 7, Road 3');
    await page.getByRole('radio', { name: /ক্যাশ অন ডেলিভারি/ }).check();
    const summary = page.getByRole('complementary');
    await expect(summary.getByTestId('summary-total')).toHaveText(/^৳[০-৯,]+\.[০-৯]{2}$/);
    await expect(summary.getByTestId('charged-bdt')).toContainText('ডেলিভারির সময় পরিশোধযোগ্য');
    const place = page.getByTestId('place-order');
    await expect(place).toHaveText('অর্ডার করুন');
    await expect(place).toBeEnabled();
    await place.click();

    // The outcome page.
    await expect(page).toHaveURL(/\/payments\/response\/success\?invoiceId=INV-/);
    await expect(page.getByRole('heading', { level: 1, name: 'আপনার অর্ডারের জন্য ধন্যবাদ' })).toBeVisible();
    const invoice = page.getByTestId('invoice-id').first();
    await expect(invoice).toHaveText(BANGLA_DIGIT);
    await expect(invoice).not.toHaveText(/[0-9]/);
    await expect(page.getByText(/^অর্ডারের সময়: /)).toHaveText(BANGLA_MONTH);
    await expect(page.getByTestId('sale-status').first()).toHaveText('অর্ডার দেওয়া হয়েছে');
    await expect(page.getByTestId('charged-bdt')).toContainText('ডেলিভারির সময় পরিশোধযোগ্য');
    const invoiceText = (await invoice.textContent())!;

    // /orders lists it in Bangla.
    await page.goto('/orders');
    await expect(page.getByRole('heading', { level: 1, name: 'আমার অর্ডার' })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'অর্ডার (১)' })).toBeVisible();
    const card = page.getByTestId('sale-card').filter({ hasText: invoiceText });
    await expect(card).toContainText('অর্ডার দেওয়া হয়েছে');
    await expect(card).toContainText('১টি পণ্য');
    await expect(card).toContainText(BANGLA_MONTH);
    await expect(card).toContainText(/মোট ৳[০-৯,]+\.[০-৯]{2}/);
    await expect(card.getByRole('link', { name: /বিস্তারিত দেখুন|অর্ডার .* দেখুন/ })).toBeVisible();
  });
});
