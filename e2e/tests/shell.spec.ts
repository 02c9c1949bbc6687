import { expect, test } from '@playwright/test';
import { skipHomePopups } from '../fixtures/popups.ts';

// The home pop-ups have their own spec (engagement.spec.ts).
test.beforeEach(({ page }) => skipHomePopups(page));

test.describe('the shop shell', () => {
  test('shopper sees the brand, the hero and the footer on the home page', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveTitle(/Nibash Furniture/);
    await expect(page.getByRole('link', { name: 'Nibash Furniture home' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const footer = page.getByRole('contentinfo');
    for (const column of ['About Us', 'Our Company', 'Customer Service', 'Follow Us']) {
      await expect(footer.getByRole('heading', { name: column, exact: true })).toBeVisible();
    }
    await expect(footer.getByRole('link', { name: '16770', exact: true })).toBeVisible();
    await expect(footer.getByRole('link', { name: 'support@nibash.com.bd' })).toBeVisible();
    await expect(footer).toContainText(`© ${new Date().getFullYear()} Nibash Furniture`);
    await expect(footer).toContainText('TIN 482915736104');
    await expect(footer).toContainText('Trade Licence');
    await expect(footer.getByRole('img', { name: 'Secure payment by SSLCOMMERZ' })).toBeVisible();
    await expect(footer.getByRole('link', { name: 'Facebook' })).toHaveAttribute('href', /facebook\.com/);
  });

  for (const [link, heading] of [
    ['About Us', 'About Us'],
    ['Terms and Conditions', 'Terms and Conditions'],
    ['Privacy Policy', 'Privacy Policy'],
    ['Return and Refund Policy', 'Return and Refund Policy'],
    ['Delivery and Shipping Information', 'Delivery and Shipping Information'],
    ['Career', 'Coming Soon'],
  ] as const) {
    test(`shopper opens "${link}" from the footer and reads the page`, async ({ page }) => {
      await page.goto('/');
      await page.getByRole('contentinfo').getByRole('link', { name: link, exact: true }).click();
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await expect(page.locator('article p').first()).not.toBeEmpty();
    });
  }

  test('an unknown path shows the 404 page with the path', async ({ page }) => {
    const response = await page.goto('/no-such-page');
    expect(response?.status()).toBe(404);
    await expect(page.getByTestId('error-status')).toHaveText('404');
    await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
    await expect(page.getByTestId('error-description')).toHaveText('Page not found: /no-such-page');
  });

  test('the page and its scripts and styles reach the browser compressed; scripts are cached for a year', async ({ page }) => {
    const assets: { url: string; encoding: string | undefined; length: number; cache: string | undefined }[] = [];
    page.on('response', async (r) => {
      if (!/\/assets\/.+\.(js|css)$/.test(new URL(r.url()).pathname)) return;
      const h = await r.allHeaders();
      assets.push({ url: r.url(), encoding: h['content-encoding'], length: Number(h['content-length'] ?? NaN), cache: h['cache-control'] });
    });
    const response = await page.goto('/shop');
    expect((await response!.allHeaders())['content-encoding']).toBe('br');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect.poll(() => assets.length).toBeGreaterThan(3);
    // Written compressed at build time (apps/web/precompress.vite.ts), sent as they are;
    // files under 1 KiB are not worth it.
    expect(assets.filter((a) => a.encoding === 'br').length).toBeGreaterThan(3);
    for (const a of assets) {
      if (a.encoding !== 'br') expect(a.length, a.url).toBeLessThan(1024);
      expect(a.cache, a.url).toBe('public, max-age=31536000, immutable');
    }
  });

  test('the stray "shop copy" address redirects permanently to the shop', async ({ request }) => {
    const response = await request.get('/shop%20copy?categoryName=all', { maxRedirects: 0 });
    expect(response.status()).toBe(301);
    expect(response.headers().location).toBe('/shop?categoryName=all');
  });

  test('the navigation takes its fixed style once scrolled 110 px', async ({ page }) => {
    await page.goto('/');
    const header = page.getByRole('banner');
    await expect(header).toHaveAttribute('data-fixed', 'false');
    await page.evaluate(() => window.scrollTo(0, 120));
    await expect(header).toHaveAttribute('data-fixed', 'true');
    await page.evaluate(() => window.scrollTo(0, 100));
    await expect(header).toHaveAttribute('data-fixed', 'false');
  });

  test('a search for a model code goes to the shop with the model field', async ({ page }) => {
    await page.goto('/about');
    const field = page.getByRole('searchbox', { name: 'Search products or model numbers' });
    // On narrower desktops the field opens from the search icon first.
    if (!(await field.isVisible())) await page.getByRole('button', { name: 'Search' }).click();
    await field.fill('  afl-1021 ');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page).toHaveURL(/\/shop\?q=AFL-1021&categoryName=all&model=AFL-1021$/);
  });

  test('keyboard users can skip to the content', async ({ page }) => {
    await page.goto('/about');
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    await expect(skip).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/#main$/);
  });
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 360, height: 780 } });

  test('shopper opens the hamburger menu and goes to a page', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByRole('dialog', { name: 'Menu' });
    await expect(menu).toBeVisible();
    await menu.getByRole('link', { name: 'About Us' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'About Us' })).toBeVisible();
    await expect(menu).toBeHidden();
  });

  test('the footer groups open as an accordion', async ({ page }) => {
    await page.goto('/');
    const footer = page.getByRole('contentinfo');
    await expect(footer.getByRole('link', { name: 'Privacy Policy' })).toBeHidden();
    await footer.getByRole('button', { name: 'Customer Service' }).click();
    await footer.getByRole('link', { name: 'Privacy Policy' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeVisible();
  });

  test('an empty search only toggles the search field', async ({ page }) => {
    await page.goto('/');
    const field = page.getByRole('searchbox', { name: 'Search products or model numbers' });
    await expect(field).toBeHidden();
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(field).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(field).toBeHidden();
  });
});
