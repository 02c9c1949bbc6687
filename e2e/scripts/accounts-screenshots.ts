import { chromium, type Page } from '@playwright/test';
import { CHROME_PATH, CHROMIUM_ARGS } from '../fixtures/chromium.ts';

// Screenshots of the account screens for a person to look at, at desktop and phone widths:
// both modals with their errors shown, the account dropdown and the profile tabs.
//   SHOT_DIR=/tmp/shots node --import tsx e2e/scripts/accounts-screenshots.ts http://localhost:3000
const base = process.argv[2] ?? 'http://localhost:3000';
const out = process.env.SHOT_DIR ?? '/tmp/shots';
const browser = await chromium.launch({
  executablePath: CHROME_PATH,
  args: CHROMIUM_ARGS,
});

async function shot(page: Page, name: string, full = false) {
  const file = `${out}/${name}.png`;
  await page.screenshot({ path: file, fullPage: full });
  console.log(file);
}

for (const [name, viewport] of [
  ['desktop', { width: 1440, height: 900 }],
  ['mobile', { width: 360, height: 780 }],
] as const) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await page.goto(`${base}/about`, { waitUntil: 'networkidle' });

  // Sign-in modal with the spec's errors.
  await page.getByRole('button', { name: 'Sign in' }).click();
  const signIn = page.getByRole('dialog', { name: 'Sign In' });
  await signIn.getByRole('button', { name: 'Sign In' }).click();
  await signIn.getByText('Please Give Your User Name').waitFor();
  await shot(page, `${name}-sign-in-errors`);
  await signIn.getByLabel('Email or Mobile No').fill('nobody@example.com');
  await signIn.getByLabel('Password', { exact: true }).fill('wrong-password');
  await signIn.getByRole('button', { name: 'Sign In' }).click();
  await signIn.getByText('Wrong Password').waitFor();
  await shot(page, `${name}-sign-in-wrong`);

  // Sign-up modal with the spec's errors.
  await signIn.getByRole('button', { name: 'Create an account' }).click();
  const signUp = page.getByRole('dialog', { name: 'Create Your Account' });
  await signUp.getByLabel('Email').fill('not-an-email');
  await signUp.getByLabel('Password', { exact: true }).fill('secret1');
  await signUp.getByLabel('Confirm Password', { exact: true }).fill('secret2');
  await signUp.getByRole('checkbox').check();
  await signUp.getByRole('button', { name: 'Sign Up' }).click();
  await signUp.getByText('Please Give Your First Name').waitFor();
  await shot(page, `${name}-sign-up-errors`);

  // A real account, then the dropdown.
  const email = `shot.${name}.${Date.now()}@example.com`;
  await signUp.getByLabel('Full Name').fill('Nusrat Jahan');
  await signUp.getByLabel('Email').fill(email);
  await signUp.getByLabel('Mobile No').fill(`017${String(Date.now()).slice(-8)}`);
  await signUp.getByLabel('Confirm Password', { exact: true }).fill('secret1');
  await signUp.getByRole('button', { name: 'Sign Up' }).click();
  await signUp.waitFor({ state: 'hidden' });
  await page.getByRole('button', { name: /Account menu for/ }).click();
  await page.getByRole('menuitem', { name: 'Profile' }).waitFor();
  await shot(page, `${name}-account-dropdown`);
  await page.keyboard.press('Escape');

  // Something in the wishlist and an address, so the tabs are not empty (skus of the demo seed).
  const headers = { 'x-api-key': process.env.STOREFRONT_API_KEY ?? 'storefront-web', 'content-type': 'application/json' };
  for (const [itemId, skuCode] of [
    [1, 'DFL-1001-MAR-1'],
    [2, 'DFL-1002-NAV-1'],
    [1, 'DFL-1001-WAL-1'],
  ] as const) {
    await page.request.post(`${base}/api/wishlists/items`, { headers, data: { itemId, skuCode, action: 'add' } });
  }
  await page.request.post(`${base}/api/addresses`, {
    headers,
    data: {
      fullName: 'Nusrat Jahan',
      phone: '01711223344',
      division: 'Dhaka',
      district: 'Dhaka',
      area: 'Dhanmondi',
      addressLine: 'House 7, Road 27',
      label: 'Home',
    },
  });

  for (const tab of ['profile', 'addresses', 'wishlist', 'security']) {
    await page.goto(`${base}/profile?tab=${tab}`, { waitUntil: 'networkidle' });
    await shot(page, `${name}-profile-${tab}`, true);
  }
  await context.close();
}
await browser.close();
