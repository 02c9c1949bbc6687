import { expect, type Page, test } from '@playwright/test';
import { adminSignIn, codeFor, createOwner, outboxTo } from '../fixtures/admin.ts';
import { formatMoney, quote } from '../fixtures/cart.ts';
import { pngBytes } from '../fixtures/files.ts';

// The back office end to end (docs/decisions/0031): the first owner made on the command
// line signs in with two factors and invites a manager by mail; the manager chooses a
// password with the mailed link, sets up two-factor sign-in,
// signs in with it, creates a product with two skus, a picture and stock in two showrooms,
// and the shop shows it at once; a price change reaches the listing, the product page and
// the cart.

test.describe.configure({ mode: 'serial' });

const CATEGORY = 'Armchairs';

async function cardPrice(page: Page, url: string, title: string) {
  await page.goto(url);
  const card = page.getByTestId('product-card').filter({ has: page.getByRole('heading', { name: title }) });
  await expect(card).toHaveCount(1);
  return card;
}

test('the owner adds a manager, who sets up two-factor sign-in and runs the catalogue from the back office', async ({ page, browser, request }, info) => {
  test.setTimeout(120_000);
  const owner = createOwner(info);
  const manager = {
    email: `manager-${info.project.name}-${Date.now().toString(36)}@shop.test`,
    password: 'a manager’s long password',
    secret: null as string | null,
  };
  const title = `Madhumati Cane Armchair ${Date.now().toString(36)}`;
  const code1 = `MCA-${Date.now().toString(36).toUpperCase()}-1`;
  const code2 = `MCA-${Date.now().toString(36).toUpperCase()}-2`;

  await test.step('the owner signs in with the authenticator code and adds a manager', async () => {
    await adminSignIn(page, owner);
    await page.getByRole('link', { name: 'Staff' }).click();
    await page.getByLabel('Full name').fill('Karim Manager');
    await page.getByLabel('Email').fill(manager.email);
    await page.getByLabel('Role', { exact: true }).selectOption('manager');
    // Invited by mail, the default: the owner never knows the manager's password.
    await expect(page.getByRole('radio', { name: 'Mail them an invitation to choose one' })).toBeChecked();
    await page.getByRole('button', { name: 'Send the invitation' }).click();
    await expect(page.getByRole('status').filter({ hasText: `An invitation was mailed to ${manager.email}` })).toBeVisible();
    await expect(page.getByRole('row').filter({ hasText: manager.email })).toContainText('Invited, no password yet');
  });

  const staffContext = await browser.newContext();
  const m = await staffContext.newPage();
  await test.step('the manager chooses a password with the mailed link, sets up two-factor sign-in and signs in with it', async () => {
    const [mail] = await outboxTo(info, manager.email);
    const link = /https?:\/\/\S+\/admin\/invite\?token=[A-Za-z0-9_%-]+/.exec(mail.text)?.[0];
    expect(link).toBeTruthy();
    await m.goto(link!);
    await m.locator('form[data-ready="true"]').waitFor();
    await m.getByLabel('New password').fill(manager.password);
    await m.getByLabel('The same password again').fill(manager.password);
    await m.getByRole('button', { name: 'Save the password' }).click();
    await expect(m.getByRole('status').filter({ hasText: 'Your password is saved' })).toBeVisible();
    await adminSignIn(m, manager);
    await m.getByRole('link', { name: 'My account' }).click();
    await m.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    manager.secret = (await m.getByTestId('totp-secret').textContent())?.trim() ?? '';
    expect(manager.secret).toMatch(/^[A-Z2-7]{32}$/);
    await m.getByLabel('The six-digit code the app shows').fill(codeFor(manager.secret));
    await m.getByRole('button', { name: 'Turn on' }).click();
    await expect(m.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem')).toHaveCount(10);
    await m.getByRole('button', { name: 'Sign out' }).click();
    await expect(m).toHaveURL(/\/admin\/sign-in/);
    // The code just used does not work twice: sign in with the next one.
    await adminSignIn(m, manager, 1);
  });

  await test.step('the manager creates a product with two skus and a picture', async () => {
    await m.goto('/admin/products');
    await m.getByRole('link', { name: 'New product' }).click();
    await m.getByLabel('Title', { exact: true }).fill(title);
    await m.getByLabel('Model code').fill(code1.slice(0, -2));
    await m.getByLabel('Description', { exact: true }).fill('Hand-woven cane on a teak frame.');
    await m.getByRole('checkbox', { name: CATEGORY }).check();
    await m.getByLabel('Status').selectOption('published');
    await m.getByLabel('Sku code').fill(code1);
    await m.getByLabel('Price (৳)', { exact: true }).fill('18,500');
    await m.getByRole('button', { name: 'Add a sku' }).click();
    await m.getByLabel('Sku code').nth(1).fill(code2);
    await m.getByLabel('Price (৳)', { exact: true }).nth(1).fill('19500.50');
    await m.getByLabel('Upload a picture').setInputFiles({ name: 'cane-armchair.png', mimeType: 'image/png', buffer: pngBytes(320, 240, [160, 120, 60]) });
    await expect(m.getByLabel('Alternative text (main picture)')).toBeVisible();
    await m.getByLabel('Alternative text (main picture)').fill('Cane armchair, front');
    await m.getByRole('button', { name: 'Create product' }).click();
    await expect(m).toHaveURL(/\/admin\/products\/\d+$/);
    await expect(m.getByRole('heading', { level: 1, name: title })).toBeVisible();
  });

  await test.step('the manager sets stock in two showrooms', async () => {
    const cells = m.getByRole('button', { name: new RegExp(`^Change stock of ${code1} at`) });
    await cells.first().click();
    await m.getByRole('dialog').getByLabel('Units', { exact: true }).fill('3');
    await m.getByRole('dialog').getByLabel('Note').fill('first delivery');
    await m.getByRole('button', { name: 'Save stock change' }).click();
    await expect(m.getByRole('button', { name: new RegExp(`^Change stock of ${code1} at .*: 3$`) })).toHaveCount(1);
    await m
      .getByRole('button', { name: new RegExp(`^Change stock of ${code2} at`) })
      .nth(1)
      .click();
    await m.getByRole('dialog').getByLabel('Units', { exact: true }).fill('2');
    await m.getByRole('button', { name: 'Save stock change' }).click();
    await expect(m.getByRole('button', { name: new RegExp(`^Change stock of ${code2} at .*: 2$`) })).toHaveCount(1);
  });

  let shown = 0;
  await test.step('the shop finds it by search and in its category, at the price the cart charges', async () => {
    const [line] = (await quote(request, [{ skuCode: code1, quantity: 1 }])).lines;
    shown = line.unitPrice;
    const bySearch = await cardPrice(page, `/shop?q=${encodeURIComponent(title.split(' ').slice(0, 3).join(' '))}&categoryName=all`, title);
    await expect(bySearch).toContainText(formatMoney(shown));
    const inCategory = await cardPrice(page, `/shop?categoryName=${encodeURIComponent(CATEGORY)}&sort=newest`, title);
    await expect(inCategory).toContainText(formatMoney(shown));
  });

  await test.step('a new price reaches the listing, the product page and the cart at once', async () => {
    // A shopper has it in the cart at the old price.
    await page.getByRole('link', { name: title }).first().click();
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await page.locator('[data-testid^="cart-"][data-ready="true"]').first().waitFor({ state: 'attached' });
    await page.getByRole('button', { name: 'Add to Cart' }).click();
    await expect(page.getByTestId('cart-button').getByTestId('cart-count')).toHaveText('1');

    await m.getByLabel('Price (৳)', { exact: true }).first().fill('16,000');
    await m.getByRole('button', { name: 'Save changes' }).click();
    await expect(m.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
    const [line] = (await quote(request, [{ skuCode: code1, quantity: 1 }])).lines;
    expect(line.unitPrice).toBeLessThan(shown);

    const card = await cardPrice(page, `/shop?categoryName=${encodeURIComponent(CATEGORY)}&sort=newest`, title);
    await expect(card).toContainText(formatMoney(line.unitPrice));
    await card.getByRole('link', { name: title }).first().click();
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(page.getByTestId('price-now').first()).toContainText(formatMoney(line.unitPrice));
    await page.goto('/cart');
    await expect(page.getByTestId('cart-line').filter({ hasText: title }).getByTestId('line-unit-price')).toContainText(formatMoney(line.unitPrice));
  });
  await staffContext.close();
});
