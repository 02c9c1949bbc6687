import { expect, type Page, test } from '@playwright/test';
import { adminSignIn, createStaff, outboxTo } from '../../fixtures/admin.ts';
import { hydrated } from '../../fixtures/cart.ts';
import { fillGuest, skuFrom, withCart } from '../../fixtures/checkout.ts';
import { pngBytes } from '../../fixtures/files.ts';

// The shop's settings (docs/decisions/0037): a manager changes the hotline and uploads a logo
// on the Settings screen; every storefront page's header and footer show them at once, and
// so does the next order's mail. The hotline and the logo are put back at the end.

async function saveGroup(page: Page, name: string) {
  const region = page.getByRole('region', { name });
  await region.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: `${name}: saved` })).toBeVisible();
}

test('a manager changes the hotline and uploads a logo; the storefront and the next order’s mail show them', async ({ page, request }, info) => {
  test.setTimeout(150_000);
  const manager = await createStaff(info, request);
  const sku = await skuFrom(request, 240);
  // A Dhaka landline of the shop's own, unlike any other spec's.
  const hotline = `09612 0${String(Date.now()).slice(-5)}`;

  await adminSignIn(page, manager);
  await page.goto('/admin/settings');
  const contact = page.getByRole('region', { name: 'Contact' });
  const brand = page.getByRole('region', { name: 'Brand' });
  const before = await contact.getByLabel('Hotline', { exact: true }).inputValue();
  const brandName = await brand.getByLabel('Shop name').inputValue();

  try {
    await contact.getByLabel('Hotline', { exact: true }).fill(hotline);
    await saveGroup(page, 'Contact');

    await brand.getByTestId('file-upload-input').setInputFiles({ name: 'nibash-logo.png', mimeType: 'image/png', buffer: pngBytes(180, 60) });
    const preview = page.getByRole('region', { name: 'Brand' }).getByTestId('logo-preview');
    await expect(preview).toBeVisible();
    const logo = new URL((await preview.getAttribute('src'))!, 'http://x').pathname;
    expect(logo).toMatch(/^\/files\/[0-9a-f-]{36}\//);
    await saveGroup(page, 'Brand');

    // The storefront: the header's logo (with its size, so nothing moves) and hotline, the footer's hotline.
    // On a site page: the home page's pop-ups would hide the rest from the page's reader when they open.
    await page.goto('/about');
    const header = page.getByRole('banner');
    const headerLogo = header.getByRole('img', { name: brandName });
    await expect(headerLogo).toBeVisible();
    await expect(headerLogo).toHaveAttribute('src', logo);
    await expect(headerLogo).toHaveAttribute('width', '120');
    await expect(headerLogo).toHaveAttribute('height', '40');
    await expect(page.getByRole('link', { name: `Hotline ${hotline}` })).toBeVisible();
    await expect(page.getByRole('contentinfo')).toContainText(hotline);
    await expect(page.getByRole('contentinfo').getByRole('img', { name: brandName })).toHaveAttribute('src', logo);
    // On a phone the header keeps the logo.
    await page.setViewportSize({ width: 375, height: 740 });
    await page.reload();
    await expect(page.getByRole('banner').getByRole('img', { name: brandName })).toBeVisible();
    await page.setViewportSize({ width: 1280, height: 800 });

    // The next order's mail: the logo at an absolute address, and the new hotline.
    const email = `e2e.settings.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;
    await withCart(page, [{ sku, quantity: 1 }]);
    await hydrated(page);
    await fillGuest(page, email);
    await page.getByRole('radio', { name: /Cash on delivery/ }).check();
    await page.getByTestId('place-order').click();
    await expect(page).toHaveURL(/\/payments\/response\/success\?invoiceId=/);
    await expect(async () => {
      const [mail] = await outboxTo(info, email);
      expect(mail?.html).toMatch(new RegExp(`<img src="https?://[^"]+${logo.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}" alt="${brandName}"`));
      expect(mail?.text).toContain(`Hotline ${hotline}`);
    }).toPass({ timeout: 15_000 });
  } finally {
    await page.goto('/admin/settings');
    await page.getByRole('region', { name: 'Contact' }).getByLabel('Hotline', { exact: true }).fill(before);
    await saveGroup(page, 'Contact');
    const remove = page.getByRole('region', { name: 'Brand' }).getByRole('button', { name: 'Remove the logo' });
    if (await remove.isVisible()) {
      await remove.click();
      await saveGroup(page, 'Brand');
    }
  }
});
