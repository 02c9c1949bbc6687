import { expect, type Page, test } from '@playwright/test';
import { savingPercent } from '../../packages/shared/src/pricing.ts';
import { accountReady, newShopper, open, signUpByApi } from '../fixtures/accounts.ts';
import { skipHomePopups } from '../fixtures/popups.ts';

// Finding one's way around the storefront: the way to one's orders, the discount badge,
// focus after the contact modal, the category menu by keyboard, and the loading bar
// between pages.

test.beforeEach(({ page }) => skipHomePopups(page));

/** The page's script has started (the root layout marks the build it runs). */
const hydrated = (page: Page) => expect(page.locator('html[data-build]')).toHaveCount(1);

/** "৳12,345.60" → 1234560 poisha (the shop's default currency, BDT). */
const poisha = (text: string | null) => Math.round(Number((text ?? '').replace(/[^\d.]/g, '')) * 100);

test.describe('my orders', () => {
  test('a signed-in shopper finds My Orders in the account menu', async ({ page }) => {
    const s = await signUpByApi(page.request, newShopper('Sabrina Akter'));
    await open(page, '/about');
    await page.getByRole('button', { name: `Account menu for ${s.fullName}` }).click();
    const item = page.getByRole('menuitem', { name: 'My Orders' });
    await expect(item).toBeVisible();
    // Between Profile and Wishlist: what is the shopper's own, together.
    await expect(page.getByRole('menuitem')).toHaveText(['Profile', 'My Orders', 'Wishlist', 'Sign Out']);
    await item.click();
    await expect(page).toHaveURL(/\/orders$/);
    await expect(page.getByRole('heading', { level: 1, name: 'My Orders' })).toBeVisible();
  });

  test('the profile page links to My Orders beside its tabs', async ({ page }) => {
    await signUpByApi(page.request, newShopper('Sabrina Akter'));
    await open(page, '/profile?tab=addresses');
    const main = page.getByRole('main');
    await expect(main.getByRole('tab', { name: 'Addresses' })).toHaveAttribute('aria-selected', 'true');
    // A link, not a tab: it leaves the profile for the orders page.
    await expect(main.getByRole('tab', { name: 'My Orders' })).toHaveCount(0);
    await main.getByRole('link', { name: 'My Orders' }).click();
    await expect(page).toHaveURL(/\/orders$/);
    await expect(page.getByRole('heading', { level: 1, name: 'My Orders' })).toBeVisible();
  });

  test.describe('on a phone', () => {
    test.use({ viewport: { width: 390, height: 844 } });

    test('the menu has My Orders once the shopper is signed in', async ({ page }) => {
      await open(page, '/about');
      await page.getByRole('button', { name: 'Open menu' }).click();
      await expect(page.getByRole('dialog', { name: 'Menu' }).getByRole('link', { name: 'About Us' })).toBeVisible();
      await expect(page.getByRole('dialog', { name: 'Menu' }).getByRole('link', { name: 'My Orders' })).toHaveCount(0);

      await signUpByApi(page.request, newShopper('Sabrina Akter'));
      await page.reload();
      await accountReady(page);
      await page.getByRole('button', { name: 'Open menu' }).click();
      const menu = page.getByRole('dialog', { name: 'Menu' });
      await menu.getByRole('link', { name: 'My Orders' }).click();
      await expect(page).toHaveURL(/\/orders$/);
      await expect(page.getByRole('heading', { level: 1, name: 'My Orders' })).toBeVisible();
      await expect(menu).toBeHidden();
    });
  });
});

test('a discount that is not a whole per cent shows the nearest per cent on its badge', async ({ page }) => {
  await page.goto('/sales');
  const cards = page.getByTestId('product-card');
  await expect(cards.first()).toBeVisible();
  const shown = await cards.evaluateAll((els) =>
    els
      .map((el) => ({
        now: el.querySelector('[data-testid="price-now"]')?.textContent ?? null,
        was: el.querySelector('[data-testid="price-was"]')?.textContent ?? null,
        badge: el.querySelector('[data-testid="price-saving"]')?.textContent ?? null,
      }))
      .filter((c) => c.was !== null),
  );
  expect(shown.length).toBeGreaterThan(0);
  const priced = shown.map((c) => {
    const was = poisha(c.was);
    const saving = was - poisha(c.now);
    return { ...c, was, saving, exact: (saving * 100) / was };
  });
  // Where rounding down and to the nearest part (5.97% and the like), the badge says the nearest.
  const uneven = priced.find((c) => c.exact - Math.floor(c.exact) >= 0.5);
  expect(uneven, 'a product on sale whose saving is just under a whole per cent').toBeDefined();
  expect(uneven!.badge).toBe(`−${Math.round(uneven!.exact)}%`);
  for (const c of priced) expect(c.badge).toBe(`−${savingPercent(c.saving, c.was)}%`);
});

test('closing the contact modal gives focus back to the support email', async ({ page }) => {
  await page.goto('/about');
  await hydrated(page);
  const link = page.getByRole('contentinfo').getByRole('link', { name: 'support@nibash.com.bd' });
  await link.focus();
  await page.keyboard.press('Enter');
  const modal = page.getByRole('dialog', { name: "We'll love to hear from you" });
  await expect(modal).toBeVisible();
  await expect.poll(() => modal.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  await page.keyboard.press('Escape');
  await expect(modal).toBeHidden();
  await expect(link).toBeFocused();

  // The same with the close button, opened a second time.
  await page.keyboard.press('Enter');
  await expect(modal).toBeVisible();
  await modal.getByRole('button', { name: 'Close' }).click();
  await expect(modal).toBeHidden();
  await expect(link).toBeFocused();
});

test('the category menu works with the arrow keys and Escape', async ({ page, request }) => {
  // The links are in the server's markup, for crawlers and before the script runs.
  const html = await (await request.get('/shop')).text();
  expect(html).toMatch(/<nav aria-label="Categories"[^>]*>.*>All (<!-- -->)?Living Room<\/a>/s);

  await page.goto('/shop');
  await hydrated(page);
  const button = page.getByRole('button', { name: 'Categories' });
  const menu = page.getByRole('navigation', { name: 'Categories' });
  await expect(menu).toBeHidden();
  await button.focus();
  await page.keyboard.press('ArrowDown');
  await expect(menu).toBeVisible();
  await expect(button).toHaveAttribute('aria-expanded', 'true');

  const columns = menu.locator('[data-menu-column]');
  expect(await columns.count()).toBeGreaterThan(1);
  const first = columns.nth(0).getByRole('link');
  const second = columns.nth(1).getByRole('link');
  // Arrow Down opens the panel at its first top-level category…
  await expect(first.first()).toBeFocused();
  // …down and up through its links…
  await page.keyboard.press('ArrowDown');
  await expect(first.nth(1)).toBeFocused();
  await page.keyboard.press('End');
  await expect(first.last()).toBeFocused();
  await expect(first.last()).toHaveText(/^All /);
  await page.keyboard.press('Home');
  await expect(first.first()).toBeFocused();
  // …right and left between the top-level categories…
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  await expect(second.first()).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await expect(first.first()).toBeFocused();
  // …and up from a category's name back to the button, the panel still open.
  await page.keyboard.press('ArrowUp');
  await expect(button).toBeFocused();
  await expect(menu).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  await expect(second.first()).toBeFocused();

  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(button).toBeFocused();
  await expect(button).toHaveAttribute('aria-expanded', 'false');

  // Enter on a link goes there, as ever.
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  const target = (await first.nth(1).textContent())!.trim();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/categoryName=/);
  // The category's listing is read after the address changes: allow a busy machine its time.
  await expect(page.getByRole('heading', { level: 1, name: target })).toBeVisible({ timeout: 15_000 });
  await expect(menu).toBeHidden();
});

test.describe('between pages', () => {
  /** Holds every page-data request for a while: a slow connection. */
  const slowData = (page: Page, ms: number) =>
    page.route(
      (url) => url.pathname.endsWith('.data'),
      async (route) => {
        await new Promise((r) => setTimeout(r, ms));
        await route.continue().catch(() => {});
      },
    );

  /** Waits for the loading bar and reads it in the same moment (it goes with the page). */
  const shownBar = async (page: Page) =>
    (
      await page.waitForFunction(() => {
        const bar = document.querySelector('[role="progressbar"][aria-label="Loading page"]');
        if (!bar?.firstElementChild) return null;
        const box = bar.getBoundingClientRect();
        const status = document.querySelector('[data-testid="navigation-announce"][aria-live="polite"]');
        return { top: box.top, width: box.width, animation: getComputedStyle(bar.firstElementChild).animationName, status: status?.textContent ?? null };
      })
    ).jsonValue();

  test('a slow page shows a loading bar after the click, which goes when the page is there', async ({ page }) => {
    await page.goto('/about');
    await hydrated(page);
    const bar = page.getByRole('progressbar', { name: 'Loading page' });
    await expect(bar).toHaveCount(0);
    await slowData(page, 2500);
    await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy Policy', exact: true }).click();
    // Read at the moment it shows: along the top of the window, over the header, moving,
    // and said in the live region.
    expect(await shownBar(page)).toEqual({ top: 0, width: page.viewportSize()!.width, animation: 'nav-progress', status: 'Loading…' });
    await expect(page.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeVisible();
    await expect(bar).toHaveCount(0);
    await expect(page.getByTestId('navigation-announce')).toHaveText('');
  });

  test('with reduced motion the loading bar stands still', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto('/about');
    await hydrated(page);
    await slowData(page, 2500);
    await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy Policy', exact: true }).click();
    expect((await shownBar(page))?.animation).toBe('none');
    const bar = page.getByRole('progressbar', { name: 'Loading page' });
    await expect(page.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeVisible();
    await expect(bar).toHaveCount(0);
  });
});
