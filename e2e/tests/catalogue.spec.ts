import { expect, type Page, test } from '@playwright/test';
import { open } from '../fixtures/accounts.ts';
import { skipHomePopups } from '../fixtures/popups.ts';

// The catalogue as a shopper uses it: the mega menu, facets and sorting, the
// product page's sku choice, search by word and by model number, and the home carousel.

const API = { 'x-api-key': process.env.STOREFRONT_API_KEY ?? 'storefront-web' };

/** Prices on the page in poisha, from their display text ("৳41,990.00"). */
async function prices(page: Page): Promise<number[]> {
  const texts = await page.getByTestId('product-card').getByTestId('price-now').allTextContents();
  return texts.map((t) => Math.round(Number(t.replace(/[^\d.]/g, '')) * 100));
}

async function resultCount(page: Page): Promise<number> {
  return Number((await page.getByTestId('result-count').textContent())!.replace(/\D/g, ''));
}

test.describe('browsing the catalogue', () => {
  test('shopper goes from the mega menu to a category, ticks a colour and sorts by price', async ({ page }) => {
    // Hydrated first: a click on the server's button before React owns it opens nothing.
    await open(page, '/shop');
    await page.getByRole('button', { name: 'Categories' }).click();
    const menu = page.getByRole('navigation', { name: 'Categories' });
    await expect(menu.getByRole('link', { name: 'All Living Room' })).toBeVisible();
    await menu.getByRole('link', { name: 'All Sofas' }).click();

    await expect(page).toHaveURL(/\/shop\?categoryId=\d+&categoryName=Sofas$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Sofas' })).toBeVisible();
    await expect(menu).toBeHidden();
    const all = await resultCount(page);
    expect(all).toBeGreaterThan(10);

    const filters = page.getByRole('complementary', { name: 'Filters' });
    const grey = filters.getByRole('checkbox', { name: /^Grey/ });
    await grey.check();
    await expect(page).toHaveURL(/color=Grey/);
    await expect(grey).toBeChecked();
    await expect.poll(() => resultCount(page)).toBeLessThan(all);
    await expect(page.getByRole('link', { name: 'Remove filter Color: Grey' })).toBeVisible();

    await page.getByLabel('Sort by').selectOption('price-asc');
    await expect(page).toHaveURL(/sort=price-asc/);
    await expect(page).toHaveURL(/color=Grey/);
    await expect
      .poll(async () => {
        const p = await prices(page);
        return p.length > 1 && p.every((x, i) => i === 0 || p[i - 1] <= x);
      })
      .toBe(true);

    await page.getByLabel('Sort by').selectOption('price-desc');
    await expect
      .poll(async () => {
        const p = await prices(page);
        return p.length > 1 && p.every((x, i) => i === 0 || p[i - 1] >= x);
      })
      .toBe(true);
  });

  test('shopper pages through a category and lands on page 2', async ({ page }) => {
    await page.goto('/shop?categoryName=Living%20Room');
    const first = await page.getByTestId('product-card').first().getByRole('heading').textContent();
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Next page' }).click();
    await expect(page).toHaveURL(/page=2/);
    await expect(page.getByRole('link', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByTestId('product-card').first().getByRole('heading')).not.toHaveText(first!);
  });

  test('on a phone the categories are in the menu behind the hamburger', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 780 });
    await page.goto('/shop');
    await page.getByRole('button', { name: 'Open menu' }).click();
    const sheet = page.getByRole('dialog', { name: 'Menu' });
    await sheet.getByRole('button', { name: 'Bedroom' }).click();
    await sheet.getByRole('link', { name: 'All Beds' }).click();
    await expect(page).toHaveURL(/categoryName=Beds/);
    await expect(page.getByRole('heading', { level: 1, name: 'Beds' })).toBeVisible();
    await expect(sheet).toBeHidden();
  });
});

test.describe('the product page', () => {
  test('shopper opens a product and switching Color and Size changes the price and the stock', async ({ page, request }) => {
    // Pick, through the API, a product whose sizes cost differently and whose colours have
    // different stock in the second size: what this test is about.
    const list = await request.post('/api/search/indices/items', {
      headers: API,
      data: { size: 50, textParams: [{ field: 'categoryName', value: 'Sofa Beds' }] },
    });
    let chosen: { id: number; title: string; sizes: string[]; colors: string[] } | null = null;
    for (const card of (await list.json()).list as { id: number; title: string; skuCount: number }[]) {
      if (card.skuCount < 4) continue;
      const item = await (await request.get(`/api/v3/items/joined?id=${card.id}`, { headers: API })).json();
      const stock = (
        await (
          await request.post('/api/stocks/items/skus/search', { headers: API, data: { size: 100, textParams: [{ field: 'itemId', value: card.id }] } })
        ).json()
      ).list as {
        skuCode: string;
        quantity: number;
      }[];
      type Sku = { code: string; attributeValues: { name: string; displayLabel: string }[] };
      const label = (s: Sku, name: string) => s.attributeValues.find((a) => a.name === name)!.displayLabel;
      const total = (s: Sku) => stock.filter((r) => r.skuCode === s.code).reduce((n, r) => n + r.quantity, 0);
      const sizes = [...new Set((item.skus as Sku[]).map((s) => label(s, 'size')))];
      const colors = [...new Set((item.skus as Sku[]).map((s) => label(s, 'color')))];
      if (sizes.length < 2 || colors.length < 2) continue;
      const big = (item.skus as Sku[]).filter((s) => label(s, 'size') === sizes[1]);
      if (big.length >= 2 && total(big[0]) !== total(big[1])) {
        chosen = { id: card.id, title: card.title, sizes, colors: big.map((s) => label(s, 'color')) };
        break;
      }
    }
    expect(chosen, 'the demo catalogue has a sofa bed with two sizes and colours of unequal stock').not.toBeNull();

    await page.goto('/shop?categoryName=Sofa%20Beds');
    await page.getByRole('link', { name: chosen!.title }).first().click();
    // The product page's data is read after the click: allow a busy machine its time.
    await expect(page.getByRole('heading', { level: 1, name: chosen!.title })).toBeVisible({ timeout: 15_000 });
    await expect(page).toHaveURL(/\/products\//);

    const price = page.getByTestId('price-now').first();
    const stock = page.getByTestId('stock-summary');
    const sizeGroup = page.getByRole('group', { name: /^Size/ });
    const colorGroup = page.getByRole('group', { name: /^Color/ });

    await sizeGroup.getByRole('radio', { name: chosen!.sizes[0] }).check();
    await colorGroup.getByRole('radio', { name: chosen!.colors[0] }).check();
    const priceSmall = await price.textContent();

    await sizeGroup.getByRole('radio', { name: chosen!.sizes[1] }).check();
    await expect(price).not.toHaveText(priceSmall!);
    await expect(page).toHaveURL(/sku=/);
    const stockFirst = await stock.textContent();
    const skuFirst = await page.getByTestId('sku-code').textContent();

    await colorGroup.getByRole('radio', { name: chosen!.colors[1] }).check();
    await expect(stock).not.toHaveText(stockFirst!);
    await expect(page.getByTestId('sku-code')).not.toHaveText(skuFirst!);
    await expect(sizeGroup.getByRole('radio', { name: chosen!.sizes[1] })).toBeChecked();
    await expect(page.getByTestId('main-image')).toHaveAttribute('alt', new RegExp(chosen!.colors[1]));

    // The chosen option survives a reload: it lives in the URL.
    const code = await page.getByTestId('sku-code').textContent();
    await page.reload();
    await expect(page.getByTestId('sku-code')).toHaveText(code!);
  });

  test('the product page is described for search engines', async ({ page }) => {
    await page.goto('/details?id=1');
    const canonical = await page.locator('link[rel=canonical]').getAttribute('href');
    expect(canonical).toMatch(/\/products\/[a-z0-9-]+$/);
    await expect(page.locator('meta[property="og:type"]')).toHaveAttribute('content', 'product');
    await expect(page.locator('meta[property="og:image"]')).toHaveAttribute('content', /^http.*\/images\/.*\.jpg$/);
    const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent())!);
    expect(ld).toMatchObject({ '@type': 'Product', name: expect.any(String), mpn: expect.stringMatching(/^(AFL|DFL)-/) });
    expect(ld.offers[0]).toMatchObject({ '@type': 'Offer', priceCurrency: 'BDT', availability: expect.stringMatching(/schema\.org\/(InStock|OutOfStock)/) });
    // The readable address shows the same product.
    await page.goto(new URL(canonical!).pathname);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(ld.name);
  });

  test('an unknown product is the 404 page', async ({ page }) => {
    const res = await page.goto('/products/no-such-thing');
    expect(res?.status()).toBe(404);
    await expect(page.getByTestId('error-status')).toHaveText('404');
  });
});

test.describe('search', () => {
  test('shopper searches for a word and gets matching products', async ({ page }) => {
    await page.goto('/shop');
    const box = page.getByRole('searchbox', { name: 'Search products or model numbers' });
    // Below 1400 px the field opens from the search icon first.
    if (!(await box.isVisible())) await page.getByRole('button', { name: 'Search', exact: true }).click();
    await box.fill('  oak sideboard ');
    await box.press('Enter');
    await expect(page).toHaveURL(/\/shop\?q=OAK\+SIDEBOARD&categoryName=all$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Results for “OAK SIDEBOARD”' })).toBeVisible();
    const titles = await page.getByTestId('product-card').getByRole('heading').allTextContents();
    expect(titles.length).toBeGreaterThan(0);
    expect(titles[0]).toMatch(/Sideboard|Buffet/);
  });

  test('shopper searches for a model number and finds that product', async ({ page, request }) => {
    const item = await (await request.get('/api/v3/items/joined?id=12', { headers: API })).json();
    // The home pop-ups (another feature) closed for the visit before the page loads.
    await skipHomePopups(page);
    await page.goto('/');
    const box = page.getByRole('searchbox', { name: 'Search products or model numbers' });
    if (!(await box.isVisible())) await page.getByRole('button', { name: 'Search', exact: true }).click();
    await box.fill(item.modelCode.toLowerCase());
    await box.press('Enter');
    await expect(page).toHaveURL(new RegExp(`model=${item.modelCode}`));
    await expect(page.getByTestId('result-count')).toHaveText('Exact model number match');
    await expect(page.getByTestId('product-card')).toHaveCount(1);
    await page.getByRole('link', { name: item.title }).click();
    await expect(page.getByTestId('model-code')).toHaveText(item.modelCode);
  });

  test('a search that finds nothing says so and offers a way on', async ({ page }) => {
    await page.goto('/shop?q=ZZQXV&categoryName=all');
    await expect(page.getByRole('heading', { name: 'No products found' })).toBeVisible();
    await page.getByRole('link', { name: 'Browse all furniture' }).click();
    await expect(page).toHaveURL(/\/shop$/);
    await expect(page.getByTestId('product-card').first()).toBeVisible();
  });
});

test.describe('home', () => {
  test('the carousel advances by itself and can be swiped both ways', async ({ page }) => {
    // A controlled clock: five seconds pass when the test says so, not on a busy machine's whim.
    await page.clock.install();
    await skipHomePopups(page);
    await page.goto('/');
    const carousel = page.getByTestId('carousel');
    const start = Number(await carousel.getAttribute('data-index'));
    await page.clock.runFor(5000);
    await expect(carousel).not.toHaveAttribute('data-index', String(start));

    const box = (await carousel.boundingBox())!;
    // Over the picture, right of the slide's text and its link (a link under a pressed
    // pointer may start the browser's own drag of the link, which is not a swipe).
    const x = box.x + box.width * 0.75;
    const y = box.y + box.height / 3;
    const track = carousel.locator('[aria-live]');
    const drag = async (dx: number) => {
      // The slide's move (a CSS transition, on the real clock) ends before the next swipe starts.
      await track.evaluate((el) => Promise.all(el.getAnimations().map((a) => a.finished)));
      await page.mouse.move(x, y);
      await page.mouse.down();
      await page.mouse.move(x + dx / 2, y, { steps: 4 });
      await page.mouse.move(x + dx, y, { steps: 4 });
      await page.mouse.up();
    };
    // The pointer over the carousel pauses it, so from here only the swipes move it.
    await page.mouse.move(x, y);
    const at = Number(await carousel.getAttribute('data-index'));
    await drag(-120);
    await expect(carousel).toHaveAttribute('data-index', String((at + 1) % 3));
    await drag(150);
    await expect(carousel).toHaveAttribute('data-index', String(at));
    // A drag shorter than 40 px (spec §9) is not a swipe.
    await drag(-25);
    await page.clock.runFor(6000);
    await expect(carousel).toHaveAttribute('data-index', String(at));
    await expect(carousel.getByRole('group', { name: `${at + 1} of 3` })).toHaveAttribute('aria-hidden', 'false');
  });

  test('the carousel can be driven by keyboard and stopped', async ({ page }) => {
    await page.clock.install();
    await skipHomePopups(page);
    await page.goto('/');
    const carousel = page.getByTestId('carousel');
    const start = Number(await carousel.getAttribute('data-index'));
    await carousel.getByRole('button', { name: 'Next slide' }).focus();
    await page.keyboard.press('Enter');
    await expect(carousel).toHaveAttribute('data-index', String((start + 1) % 3));
    await page.keyboard.press('ArrowLeft');
    await expect(carousel).toHaveAttribute('data-index', String(start));
    await carousel.getByRole('button', { name: 'Stop automatic slides' }).focus();
    await page.keyboard.press('Enter');
    await expect(carousel.getByRole('button', { name: 'Start automatic slides' })).toBeFocused();
    // Focus and pointer leave the carousel: stopped, it stays where it is.
    await page.getByRole('heading', { level: 1 }).click();
    await page.clock.runFor(12_000);
    await expect(carousel).toHaveAttribute('data-index', String(start));
  });

  test('home shows new arrivals and items on sale, and fills the browser caches of categories and attributes', async ({ page }) => {
    await skipHomePopups(page);
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'New arrivals' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'On sale now' })).toBeVisible();
    // The two caches are filled side by side, in either order.
    await expect.poll(() => page.evaluate(() => localStorage.getItem('all-attributes'))).not.toBeNull();
    await expect.poll(() => page.evaluate(() => localStorage.getItem('categories'))).not.toBeNull();
    const attrs = JSON.parse((await page.evaluate(() => localStorage.getItem('all-attributes')))!);
    expect(attrs.list.map((a: { sortOrder: number }) => a.sortOrder)).toEqual([1, 2]);
    expect(attrs.expiresOn - attrs.timestamp).toBe(24 * 60 * 60 * 1000);
    const cats = JSON.parse((await page.evaluate(() => localStorage.getItem('categories')))!);
    expect(cats.list.length).toBeGreaterThan(20);
    expect(cats.expiresOn - cats.timestamp).toBe(24 * 60 * 60 * 1000);

    // An expired attribute cache is removed and filled again with a new initial timestamp.
    await page.evaluate(() => localStorage.setItem('all-attributes', JSON.stringify({ list: [], timestamp: 1, expiresOn: 2 })));
    await page.reload();
    // In between, the expired entry is removed (null) before the fresh one is written.
    await expect.poll(async () => JSON.parse((await page.evaluate(() => localStorage.getItem('all-attributes'))) ?? 'null')?.timestamp ?? 0).toBeGreaterThan(2);
  });

  test('robots.txt points at the sitemap', async ({ request }) => {
    const robots = await request.get('/robots.txt');
    expect(await robots.text()).toMatch(/Sitemap: http:\/\/127\.0\.0\.1:\d+\/sitemap\.xml/);
    const sitemap = await request.get('/sitemap.xml');
    expect(sitemap.status()).toBe(200);
  });
});
