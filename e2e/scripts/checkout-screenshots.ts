import { type BrowserContext, chromium, type Page } from '@playwright/test';
import { CHROME_PATH, CHROMIUM_ARGS } from '../fixtures/chromium.ts';
import { apiHeaders, newShopper, signUpByApi } from '../fixtures/accounts.ts';
import { ADDRESS, skuFrom, withCart } from '../fixtures/checkout.ts';

// Screenshots of the checkout journey for a person to look at: checkout, the
// sandbox payment page, the four outcome pages and the orders page, at desktop and mobile
// widths. It places real orders on the server it is pointed at:
//   SHOT_DIR=/tmp/shots node --import tsx e2e/scripts/checkout-screenshots.ts http://127.0.0.1:3751
const base = process.argv[2] ?? 'http://127.0.0.1:3000';
const out = process.env.SHOT_DIR ?? '/tmp/shots';
const browser = await chromium.launch({
  executablePath: CHROME_PATH,
  args: CHROMIUM_ARGS,
});

async function shot(page: Page, name: string) {
  await page.waitForLoadState('networkidle');
  const file = `${out}/${name}.png`;
  await page.screenshot({ path: file, fullPage: true });
  console.log(file);
}

async function cardOrderTo(page: Page, from: number, choice: RegExp | null) {
  const sku = await skuFrom(page.request, from);
  await withCart(page, [{ sku, quantity: 1 }]);
  await page.getByTestId('place-order').click();
  await page.waitForURL(/\/payments\/sandbox\/pay/);
  if (choice) {
    await page.getByRole('button', { name: choice }).click();
    await page.waitForURL(/\/payments\/response\//);
  }
}

async function journey(ctx: BrowserContext, label: string, from: number) {
  const page = await ctx.newPage();
  await page.goto(`${base}/about`);
  await signUpByApi(page.request, newShopper('Farhana Akter'));
  await page.request.post(`${base}/api/addresses`, { headers: apiHeaders, data: { ...ADDRESS, label: 'Home', isDefault: true } });

  const sku = await skuFrom(page.request, from);
  const second = await skuFrom(page.request, from + 8);
  await withCart(page, [
    { sku, quantity: 1 },
    { sku: second, quantity: 2 },
  ]);
  await page.getByTestId('summary-total').waitFor();
  await shot(page, `${label}-checkout`);

  await page.getByTestId('place-order').click();
  await page.waitForURL(/\/payments\/sandbox\/pay/);
  await shot(page, `${label}-sandbox`);
  await page.getByRole('button', { name: /^Pay ৳/ }).click();
  await page.waitForURL(/\/payments\/response\/success/);
  await shot(page, `${label}-success`);
  const paidInvoice = new URL(page.url()).searchParams.get('invoiceId')!;

  await cardOrderTo(page, from + 16, /Decline/);
  await shot(page, `${label}-failed`);
  await cardOrderTo(page, from + 24, /Cancel and go back/);
  await shot(page, `${label}-cancel`);

  const booked = await skuFrom(page.request, from + 32);
  await withCart(page, [{ sku: booked, quantity: 1 }]);
  await page.getByRole('radio', { name: /Pay later/ }).check();
  await page.getByTestId('place-order').click();
  await page.waitForURL(/\/payments\/response\/later/);
  await shot(page, `${label}-later`);

  await page.goto(`${base}/orders`);
  await shot(page, `${label}-orders`);
  await page.goto(`${base}/orders?tab=bookings`);
  await shot(page, `${label}-orders-bookings`);
  await page.goto(`${base}/orders?invoiceId=${paidInvoice}`);
  await shot(page, `${label}-order-detail`);
  await page.close();
}

const desktop = await browser.newContext({ viewport: { width: 1440, height: 900 }, baseURL: base });
await journey(desktop, 'desktop', 240);
await desktop.close();
const mobile = await browser.newContext({ viewport: { width: 360, height: 780 }, baseURL: base, isMobile: true, hasTouch: true });
await journey(mobile, 'mobile', 280);
await mobile.close();
await browser.close();
