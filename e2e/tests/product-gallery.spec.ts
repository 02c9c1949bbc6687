import { expect, type Page, test } from '@playwright/test';

// The product page's pictures: resized copies in srcset (a phone downloads a phone-sized
// file) and the zoomable gallery (keyboard, zoom, focus back on the picture).

/** A product page whose gallery has at least two pictures (a product in more than one colour). */
async function openProductWithSeveralPictures(page: Page): Promise<void> {
  await page.goto('/shop?categoryName=Sofas');
  const hrefs = await page
    .getByTestId('product-card')
    .locator('a[href*="/products/"]')
    .evaluateAll((links) => [...new Set(links.map((a) => (a as HTMLAnchorElement).getAttribute('href')!))]);
  for (const href of hrefs.slice(0, 12)) {
    await page.goto(href);
    if ((await page.getByRole('list', { name: 'Pictures' }).count()) > 0) return;
  }
  throw new Error('no product with several pictures among the first sofas');
}

test('the product picture lists its resized copies with sizes, width and height', async ({ page }) => {
  await openProductWithSeveralPictures(page);
  const img = page.getByTestId('main-image');
  await expect(img).toHaveAttribute('width', '800');
  await expect(img).toHaveAttribute('height', '600');
  await expect(img).toHaveAttribute('sizes', /100vw/);
  await expect(img).toHaveAttribute('srcset', /\/images\/demo\/[a-z-]+\/[0-9a-f]{6}\/320\.jpg 320w, .*\/1440\.jpg 1440w$/);
  const picture = page.locator('picture', { has: img });
  await expect(picture.locator('source[type="image/avif"]')).toHaveAttribute('srcset', /\/640\.avif 640w/);
  await expect(picture.locator('source[type="image/webp"]')).toHaveAttribute('srcset', /\/640\.webp 640w/);
  // Loaded, as AVIF (Chromium shows it), never the SVG drawing itself.
  await expect.poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth > 0)).toBe(true);
  expect(await img.evaluate((i: HTMLImageElement) => i.currentSrc)).toMatch(/\/images\/demo\/.+\.avif$/);
  // Open Graph points at a JPEG with its size.
  await expect(page.locator('meta[property="og:image"]')).toHaveAttribute('content', /\/images\/demo\/.+\/og\.jpg$/);
  await expect(page.locator('meta[property="og:image:width"]')).toHaveAttribute('content', '1200');
  await expect(page.locator('meta[property="og:image:height"]')).toHaveAttribute('content', '630');
});

test('a shopper opens the gallery with the keyboard, zooms, moves with the arrows and closes it with Escape', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'script') scripts.push(r.url());
  });
  await openProductWithSeveralPictures(page);
  // The gallery's code is not part of the page until it is opened.
  expect(scripts.filter((u) => /lightbox/i.test(u))).toEqual([]);

  const opener = page.getByTestId('open-gallery');
  await opener.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Picture gallery' });
  await expect(dialog).toBeVisible();
  expect(scripts.some((u) => /lightbox/i.test(u))).toBe(true);

  // Zoom in with +: "Zoom out" becomes possible; back out with −.
  const zoomOut = dialog.getByRole('button', { name: 'Zoom out' });
  await expect(zoomOut).toBeDisabled();
  await page.keyboard.press('+');
  await expect(zoomOut).toBeEnabled();
  await page.keyboard.press('-');
  await expect(zoomOut).toBeDisabled();

  // The right arrow shows the next picture (the page behind is hidden from assistive
  // technology while the gallery is open: its thumbnails are checked once it closes).
  await page.keyboard.press('ArrowRight');

  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  // Focus is back on the picture that opened it, which is now the second picture.
  await expect(opener).toBeFocused();
  await expect(page.getByRole('button', { name: /^Show picture 2 of / })).toHaveAttribute('aria-pressed', 'true');
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1 });

  test('the browser picks a phone-sized copy of the product picture', async ({ page }) => {
    await openProductWithSeveralPictures(page);
    const img = page.getByTestId('main-image');
    await expect.poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth > 0)).toBe(true);
    const src = await img.evaluate((i: HTMLImageElement) => i.currentSrc);
    // 390 CSS pixels wide at 1×: the 640 px copy, not the 960 or 1440 a desktop takes.
    expect(src).toMatch(/\/(320|640)\.avif$/);
    expect(await img.evaluate((i: HTMLImageElement) => i.naturalWidth)).toBeLessThanOrEqual(640);
  });
});
