import { type APIRequestContext, type Page, expect, test } from '@playwright/test';
import { apiHeaders, open, signUpByApi } from '../fixtures/accounts.ts';
import { englishLeft } from '../fixtures/english-left.ts';
import { skipHomePopups } from '../fixtures/popups.ts';

// The shop in Bangla, screen by screen (docs/decisions/0038): no English left outside the
// shop's own data, and Bangla drawn in the shipped Bengali font.

test.beforeEach(({ page }) => skipHomePopups(page));

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The shop's data as the Bangla pages may show it in English: product, category, branch and
 * option names, the settings (brand, tagline, address), and the demo's content with no
 * Bangla version. Only what lacks Bangla comes back in English: the API answers in Bangla.
 */
async function dataTexts(request: APIRequestContext): Promise<RegExp[]> {
  const headers = { ...apiHeaders, cookie: 'lang=bn' };
  // The payment gateway's name, and the address the 404 page echoes back.
  const texts = new Set<string>(['SSLCOMMERZ', '/no-such-page']);
  const collect = (json: unknown) =>
    JSON.stringify(json, (_k, v) => {
      if (typeof v === 'string' && /[A-Za-z]/.test(v) && v.length < 2000 && !/^(https?:|\/)/.test(v)) texts.add(v.trim());
      return v;
    });
  for (const path of [
    '/api/kvps',
    '/api/branches',
    '/api/options',
    '/api/delivery/zones',
    '/api/cms/bullets',
    '/api/cms/sliders/images',
    '/api/cms/attrs/text',
  ]) {
    const res = await request.get(path, { headers });
    expect(res.ok(), path).toBe(true);
    collect(await res.json());
  }
  // The searches answer at most 100 a page (spec §3): read every page.
  for (const path of ['/api/categories/search', '/api/search/indices/items', '/api/cms/articles/search']) {
    for (let page = 1; ; page++) {
      const res = await request.post(path, { headers, data: { page, size: 100 } });
      expect(res.ok(), path).toBe(true);
      const json = (await res.json()) as { nextPageToken?: string };
      collect(json);
      if (!json.nextPageToken) break;
    }
  }
  return [
    ...[...texts]
      .filter((t) => t.length > 1)
      .sort((a, b) => b.length - a.length)
      .map((t) => new RegExp(escape(t))),
    // File formats and their size unit are names, in Bangla shops as well.
    /\b(?:PNG|JPEG|GIF|WebP|PDF|KB|MB)\b/,
  ];
}

/**
 * The product's own data as the API gives it in Bangla: what has no Bangla version (a product
 * another spec just added in English, its pictures' alternative texts) comes back in English.
 */
async function productTexts(request: APIRequestContext, url: string): Promise<RegExp[]> {
  const slug = new URL(url).pathname.split('/').pop() ?? '';
  const res = await request.get(`/api/v3/items/joined?slug=${encodeURIComponent(slug)}`, { headers: { ...apiHeaders, cookie: 'lang=bn' } });
  expect(res.ok()).toBe(true);
  const texts = new Set<string>();
  JSON.stringify(await res.json(), (_k, v) => {
    if (typeof v === 'string' && /[A-Za-z]/.test(v) && !/^(https?:|\/)/.test(v)) {
      texts.add(v.trim());
      // A description is shown paragraph by paragraph.
      for (const line of v.split(/\n+/)) if (/[A-Za-z]/.test(line)) texts.add(line.trim());
    }
    return v;
  });
  return [...texts]
    .filter((t) => t.length > 1)
    .sort((a, b) => b.length - a.length)
    .map((t) => new RegExp(escape(t)));
}

async function expectNoEnglish(page: Page, ignore: RegExp[]) {
  await expect(page.locator('html')).toHaveAttribute('lang', 'bn');
  // Longest first, whatever list each came from: "Size" must not cut "Size guide" in two.
  const longestFirst = [...ignore].sort((a, b) => b.source.length - a.source.length);
  const left = await englishLeft(page, { ignore: longestFirst });
  expect(left, `English left on ${page.url()}`).toEqual([]);
}

/** The font families Chromium drew the first element matching `selector` with. */
async function drawnWith(page: Page, selector: string): Promise<string> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('DOM.enable');
  await cdp.send('CSS.enable');
  const { root } = await cdp.send('DOM.getDocument', { depth: -1 });
  const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
  const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
  return fonts.map((f) => f.familyName).join(', ');
}

/** Pictures of the same text drawn in each of two styles (CSS declarations), once the fonts are in. */
async function drawnAs(page: Page, text: string, styles: [string, string]): Promise<[Buffer, Buffer]> {
  await page.evaluate(
    ([words, looks]) =>
      looks.forEach((look, i) => {
        const el = document.createElement('span');
        el.id = `drawn-sample-${i}`;
        el.textContent = words;
        el.style.cssText = `${look};font-size:32px;position:fixed;top:${80 + 80 * i}px;left:10px;z-index:99999;background:#fff;color:#000;padding:4px;white-space:nowrap`;
        document.body.append(el);
      }),
    [text, styles] as const,
  );
  await page.evaluate(() => document.fonts.ready);
  return [await page.locator('#drawn-sample-0').screenshot(), await page.locator('#drawn-sample-1').screenshot()];
}

test.describe('the shop in Bangla', () => {
  test('the main screens show no English but the shop’s own data', async ({ page, request }) => {
    test.setTimeout(120_000);
    for (const path of [
      '/',
      '/shop',
      '/new-arrival',
      '/sales',
      '/outlets',
      '/contact',
      '/about',
      '/sign-in',
      '/sign-up',
      '/forgot-password',
      '/cart',
      '/no-such-page',
    ]) {
      await open(page, `${path}${path.includes('?') ? '&' : '?'}lang=bn`);
      // Read after the page: other specs of the run add products (English only) meanwhile.
      await expectNoEnglish(page, await dataTexts(request));
    }
    // A product page, then its line in the cart and at checkout.
    await open(page, '/shop?lang=bn');
    // A single product: the demo's sets have no Bangla description (their English one is data).
    await page.locator('[data-testid="product-card"]').filter({ hasNotText: 'সেট' }).first().locator('a').first().click();
    // The listing has an h1 too: wait for the product's address before reading its pictures.
    await page.waitForURL(/\/products\//);
    await expect(page.getByTestId('main-image')).toBeVisible();
    await expectNoEnglish(page, [...(await productTexts(request, page.url())), ...(await dataTexts(request))]);
  });

  test('a signed-in shopper’s orders and profile are in Bangla', async ({ page, request }) => {
    test.setTimeout(60_000);
    const ignore = await dataTexts(request);
    const shopper = await signUpByApi(request);
    await open(page, '/sign-in?lang=bn');
    const form = page.getByTestId('sign-in-form');
    await form.locator('input[name="userName"]').fill(shopper.email);
    await form.locator('input[name="password"]').fill(shopper.password);
    await form.locator('button[type="submit"]').click();
    await page.waitForURL((u) => !u.pathname.startsWith('/sign-in'));
    for (const path of ['/orders', '/profile']) {
      await open(page, path);
      // The shopper's own name, address and initials (the account button) are theirs, not the shop's.
      const initials = shopper.fullName
        .split(/\s+/)
        .map((w) => w[0])
        .join('');
      await expectNoEnglish(page, [...ignore, new RegExp(escape(shopper.fullName)), new RegExp(escape(shopper.email)), new RegExp(`\\b${initials}\\b`)]);
    }
  });

  test('Bangla is drawn in the shipped Bengali font, not as boxes', async ({ page }) => {
    await open(page, '/?lang=bn');
    await page.evaluate(() => document.fonts.ready);
    // The font the browser actually drew the Bangla text with (this machine has no Bengali
    // font of its own: without the shop's, the text would be boxes).
    expect(await drawnWith(page, '[href="#main"]')).toMatch(/Noto Sans Bengali/);

    // And as a picture: the same Bangla and ৳ in the shop's stack and in a stack without the
    // shop's font must differ — they are the same picture when both fall back to boxes.
    const [withFont, withoutFont] = await drawnAs(page, 'সোফা ৳১,২৩,৪৫৬', ['font-family:"Shop Bengali", monospace', 'font-family:monospace']);
    expect(withFont.equals(withoutFont)).toBe(false);
  });

  test('a Bangla page downloads one Bengali face and draws its bold text from it', async ({ page }) => {
    const fonts: string[] = [];
    page.on('requestfinished', (req) => {
      if (req.resourceType() === 'font' && !req.url().startsWith('data:')) fonts.push(new URL(req.url()).pathname);
    });
    await open(page, '/details?id=1&lang=bn');
    const title = page.getByRole('heading', { level: 1 });
    await expect(title).toBeVisible();
    await page.evaluate(() => document.fonts.ready);
    // The regular face only (fonts.css, docs/decisions/0048): the page's first load has no
    // second 47 KB file for its bold text.
    expect(fonts).toHaveLength(1);
    expect(fonts[0]).toMatch(/noto-sans-bengali-bengali-400-normal/);
    // The bold title is still bold: drawn from that face, emboldened, it is a different
    // picture from the same words at the regular weight.
    expect(await title.evaluate((el) => Number(getComputedStyle(el).fontWeight))).toBeGreaterThanOrEqual(600);
    expect(await drawnWith(page, 'h1')).toMatch(/Noto Sans Bengali/);
    const [bold, regular] = await drawnAs(page, (await title.textContent()) ?? '', [
      'font-family:"Shop Bengali";font-weight:600',
      'font-family:"Shop Bengali";font-weight:400',
    ]);
    expect(bold.equals(regular)).toBe(false);
  });

  test('an English page draws ৳ in the shop’s font, inlined at about a kilobyte', async ({ page }) => {
    const fonts: { url: string; size: number }[] = [];
    page.on('requestfinished', async (req) => {
      if (req.resourceType() !== 'font') return;
      const sizes = await req.sizes().catch(() => null);
      fonts.push({ url: req.url(), size: sizes?.responseBodySize ?? -1 });
    });
    await open(page, '/shop');
    await expect(page.getByTestId('product-card').first()).toContainText('৳');
    await page.evaluate(() => document.fonts.ready);
    // The switch shown at this width (the phone menu has its own), named বাংলা.
    await page
      .getByTestId('language-switch')
      .filter({ visible: true })
      .first()
      .evaluate((el) => el.setAttribute('id', 'shown-switch'));
    expect(await drawnWith(page, '#shown-switch')).toMatch(/Noto Sans Bengali/);
    // Only the marks faces (fonts.css), inlined in the stylesheet, not the 44 KB Bengali subsets.
    expect(fonts.filter((f) => !f.url.startsWith('data:'))).toEqual([]);
    const loaded = await page.evaluate(() => [...document.fonts].filter((f) => f.status !== 'unloaded').map((f) => f.family.replace(/"/g, '')));
    expect(new Set(loaded)).toEqual(new Set(['Shop Bengali Marks']));
  });

  test('an English page is not laid out again when its ৳ faces arrive', async ({ page, browser }) => {
    // With `swap`, a face that arrives after the first layout lays out every text run in the
    // stack once more: the whole page (lib/fonts.ts asks for the faces while the body is
    // parsed). Chromium's trace names why each layout was needed.
    await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline.invalidationTracking'] });
    await open(page, '/');
    await page.evaluate(() => document.fonts.ready);
    await expect(page.getByTestId('product-card').first()).toContainText('৳');
    const trace = JSON.parse((await browser.stopTracing()).toString()) as {
      traceEvents: { name: string; ts: number; args?: { data?: { reason?: string } } }[];
    };
    const layouts = trace.traceEvents.filter((e) => e.name === 'Layout').map((e) => e.ts);
    expect(layouts.length).toBeGreaterThan(0);
    const firstLayout = Math.min(...layouts);
    const faces = await page.evaluate(() => [...document.fonts].filter((f) => f.family.includes('Shop Bengali Marks')).map((f) => `${f.weight} ${f.status}`));
    expect(faces.sort()).toEqual(['400 loaded', '600 loaded']);
    const relaid = trace.traceEvents.filter((e) => e.name === 'LayoutInvalidationTracking' && e.args?.data?.reason === 'Fonts changed' && e.ts > firstLayout);
    // Asked for late, the faces lay out the whole page again, once per face (over 700 text
    // runs); asked for early, none, or on a busy machine the few runs laid out before the
    // faces were ready.
    expect(relaid.length, 'text laid out again for a font that came after the first layout').toBeLessThan(25);
  });

  test('the language is remembered, and each page names its other-language twin', async ({ page }) => {
    await open(page, '/shop?lang=bn');
    await expect(page.locator('link[rel="alternate"][hreflang="bn"]')).toHaveAttribute('href', /\/shop\?lang=bn$/);
    await expect(page.locator('link[rel="alternate"][hreflang="en"]')).toHaveAttribute('href', /\/shop$/);
    await open(page, '/new-arrival');
    await expect(page.locator('html')).toHaveAttribute('lang', 'bn');
    await open(page, '/new-arrival?lang=en');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await open(page, '/sales');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  });
});
