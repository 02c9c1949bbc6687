import { expect, type Page, test } from '@playwright/test';
import { API_KEY, signUpByApi } from '../fixtures/accounts.ts';

// Home pop-ups, newsletter, contact, showrooms, the 3D viewer, toasts and build
// freshness, in a real Chromium against the production build.

const campaignPopup = (page: Page) => page.getByRole('dialog', { name: 'Winter Sale' });
const offerPopup = (page: Page) => page.getByRole('dialog', { name: 'Limited Time' });
const contactModal = (page: Page) => page.getByRole('dialog', { name: "We'll love to hear from you" });
/** The pop-ups are asked for 5 s after the page's load event, then at an idle moment (decision 0046): on a busy machine later still. */
const POPUP_WAIT = { timeout: 15_000 };
const bodyOverflow = (page: Page) => page.evaluate(() => getComputedStyle(document.body).overflow);
/** The page's script has started (the root layout marks the build it runs). */
const hydrated = (page: Page) => expect(page.locator('html[data-build]')).toHaveCount(1);
/**
 * The page just opened on home has its pop-ups due: they are asked for 5 s after the load
 * event, then at an idle moment (2 s at most; decision 0046), and the test moves the page's
 * clock (installed before the page loads) past that instead of waiting it out. Should the
 * jump come before the page has set its timer, the timer runs in real time and POPUP_WAIT
 * still covers it.
 */
async function popupsDue(page: Page) {
  await hydrated(page);
  await page.waitForLoadState('load');
  await page.clock.runFor(7_000);
}

test.describe('home pop-ups', () => {
  test.beforeEach(({ page }) => page.clock.install());

  test('the campaign pop-up shows on home, locks scrolling, and closes with its close button', async ({ page }) => {
    await page.goto('/');
    await popupsDue(page);
    await expect(campaignPopup(page)).toBeVisible(POPUP_WAIT);
    await expect(campaignPopup(page)).toContainText('Up to 30% off');
    await expect.poll(() => bodyOverflow(page)).toBe('hidden');
    // spec §9: at most 60 % of a wide screen.
    const box = (await campaignPopup(page).boundingBox())!;
    expect(box.width).toBeLessThanOrEqual(page.viewportSize()!.width * 0.6 + 1);

    await campaignPopup(page).getByRole('button', { name: 'Close' }).click();
    await expect(campaignPopup(page)).toBeHidden();
    // Closed for the rest of the visit: a reload does not bring it back.
    await page.reload();
    await popupsDue(page);
    await expect(offerPopup(page)).toBeVisible(POPUP_WAIT);
    await expect(campaignPopup(page)).toHaveCount(0);
  });

  test('the campaign pop-up closes with Escape and gives scrolling back', async ({ page }) => {
    await page.goto('/');
    await popupsDue(page);
    await expect(campaignPopup(page)).toBeVisible(POPUP_WAIT);
    await page.keyboard.press('Escape');
    await expect(campaignPopup(page)).toBeHidden();
    await offerPopup(page).getByRole('button', { name: 'Close' }).click();
    await expect(offerPopup(page)).toBeHidden();
    await expect.poll(() => bodyOverflow(page)).not.toBe('hidden');
  });

  test('the pop-ups show on the home page only', async ({ page }) => {
    for (const path of ['/about', '/contact', '/outlets']) {
      await page.goto(path);
      await hydrated(page);
      await expect(page.getByRole('dialog')).toHaveCount(0);
    }
  });

  test('leaving home closes the campaign pop-up, and coming back shows it again', async ({ page }) => {
    await page.goto('/about');
    await hydrated(page);
    await page.getByRole('link', { name: 'Nibash Furniture home' }).first().click();
    await expect(page).toHaveURL(/\/$/);
    await popupsDue(page);
    await expect(campaignPopup(page)).toBeVisible(POPUP_WAIT);
    await page.goBack();
    await expect(page).toHaveURL(/\/about$/);
    await expect(page.getByRole('dialog')).toHaveCount(0);
    // Leaving is not closing: it was not dismissed.
    await page.goForward();
    await expect(campaignPopup(page)).toBeVisible(POPUP_WAIT);
  });

  test('a guest sees the offer once the campaign is closed, never both at once', async ({ page }) => {
    await page.goto('/');
    await popupsDue(page);
    await expect(campaignPopup(page)).toBeVisible(POPUP_WAIT);
    await expect(offerPopup(page)).toHaveCount(0);
    await campaignPopup(page).getByRole('button', { name: 'Close' }).click();
    const offer = offerPopup(page);
    await expect(offer).toBeVisible();
    await expect(offer.getByRole('heading', { name: 'Limited Time' })).toBeVisible();
    await expect(offer).toContainText('Save your first order and get email only offer when you join');
  });

  test('a signed-in customer sees the campaign but never the subscription offer', async ({ page }) => {
    await signUpByApi(page.request);
    await page.goto('/');
    await popupsDue(page);
    await expect(campaignPopup(page)).toBeVisible(POPUP_WAIT);
    await campaignPopup(page).getByRole('button', { name: 'Close' }).click();
    await expect(campaignPopup(page)).toBeHidden();
    await expect(offerPopup(page)).toHaveCount(0);
  });
});

test.describe('newsletter subscription', () => {
  test.beforeEach(({ page }) => page.clock.install());

  test('subscribing shows the green toast and clears the field; the same email again says already subscribed', async ({ page }, info) => {
    const email = `news.${info.project.name}.${Date.now()}@example.com`;
    await page.goto('/');
    await popupsDue(page);
    await campaignPopup(page).getByRole('button', { name: 'Close' }).click();
    const offer = offerPopup(page);
    const field = offer.getByLabel('Your email');
    const subscribe = offer.getByRole('button', { name: 'Subscribe' });

    await subscribe.click();
    await expect(offer.getByText('Please Provide Your Email')).toBeVisible();
    await field.fill('not-an-email');
    await subscribe.click();
    await expect(offer.getByText('Please Provide a Correct Email')).toBeVisible();
    await expect(field).toHaveAttribute('aria-invalid', 'true');

    const shownFor = await recordToasts(page);
    await field.fill(email);
    await subscribe.click();
    await expectShopToast(page, 'Subscription Successful', 'rgb(26, 127, 55)');
    await expect(field).toHaveValue('');
    // spec §9: the shop's toasts go by themselves after 2000 ms (the timer never fires early;
    // the margin is for the render that shows the toast, which may come a little late).
    await expect(page.getByRole('status').filter({ hasText: 'Subscription Successful' })).toBeHidden({ timeout: 10_000 });
    expect(await shownFor('Subscription Successful')).toBeGreaterThanOrEqual(1_800);

    await field.fill(email.toUpperCase());
    await subscribe.click();
    await expectShopToast(page, 'Already Subscribed with this email', 'rgb(180, 35, 24)');
  });

  test('a failed request says "Failed to Subscribe" and keeps the email', async ({ page }) => {
    await page.route('**/api/emails/subscriptions', (route) => route.abort('connectionreset'));
    await page.goto('/');
    await popupsDue(page);
    await campaignPopup(page).getByRole('button', { name: 'Close' }).click();
    await offerPopup(page).getByLabel('Your email').fill('keep.me@example.com');
    await offerPopup(page).getByRole('button', { name: 'Subscribe' }).click();
    await expectShopToast(page, 'Failed to Subscribe', 'rgb(180, 35, 24)');
    await expect(offerPopup(page).getByLabel('Your email')).toHaveValue('keep.me@example.com');
  });
});

/** The shop's own toast: in the bottom-right live region, its colour on white, and no close control. */
async function expectShopToast(page: Page, text: string, background: string) {
  const toast = page.locator('[data-toast-region="bottom-right"] > li').filter({ hasText: text });
  await expect(toast).toBeVisible();
  // One look, taken at once: the toast is gone 2 seconds after it came.
  const seen = await toast.evaluate((li) => {
    const inner = li.firstElementChild as HTMLElement;
    const cs = getComputedStyle(inner);
    const r = inner.getBoundingClientRect();
    const region = li.closest('ol')!;
    return {
      role: li.getAttribute('role'),
      regionLive: region.getAttribute('aria-live'),
      regionName: region.getAttribute('aria-label'),
      background: cs.backgroundColor,
      color: cs.color,
      right: window.innerWidth - r.right,
      bottom: window.innerHeight - r.bottom,
      buttons: li.querySelectorAll('button').length,
    };
  });
  expect(seen).toMatchObject({
    role: background === 'rgb(26, 127, 55)' ? 'status' : 'alert',
    regionLive: 'polite',
    regionName: 'Notifications',
    background,
    color: 'rgb(255, 255, 255)',
    buttons: 0,
  });
  expect(seen.right).toBeLessThanOrEqual(24);
  expect(seen.bottom).toBeLessThanOrEqual(24);
}

/** Records when toasts enter and leave the bottom-right region (page clock, ms). */
async function recordToasts(page: Page) {
  await page.evaluate(() => {
    const log: { text: string; kind: 'add' | 'remove'; t: number }[] = [];
    (window as unknown as { __toastLog: typeof log }).__toastLog = log;
    const region = document.querySelector('[data-toast-region="bottom-right"]')!;
    new MutationObserver((records) => {
      for (const r of records) {
        r.addedNodes.forEach((n) => log.push({ text: n.textContent ?? '', kind: 'add', t: performance.now() }));
        r.removedNodes.forEach((n) => log.push({ text: n.textContent ?? '', kind: 'remove', t: performance.now() }));
      }
    }).observe(region, { childList: true });
  });
  return async (text: string) => {
    const log = await page.evaluate(() => (window as unknown as { __toastLog: { text: string; kind: string; t: number }[] }).__toastLog);
    const added = log.find((e) => e.kind === 'add' && e.text.includes(text));
    const removed = log.find((e) => e.kind === 'remove' && e.text.includes(text));
    return added && removed ? removed.t - added.t : null;
  };
}

test.describe('contact', () => {
  test('the footer email opens the contact modal, which validates, sends, closes and comes back empty', async ({ page }) => {
    await page.goto('/about');
    await hydrated(page);
    await page.getByRole('contentinfo').getByRole('link', { name: 'support@nibash.com.bd' }).click();
    const modal = contactModal(page);
    await expect(modal).toBeVisible();
    await expect.poll(() => bodyOverflow(page)).toBe('hidden');
    expect((await modal.boundingBox())!.width).toBeLessThanOrEqual(page.viewportSize()!.width * 0.6 + 1);

    await modal.getByRole('button', { name: 'Send Your Message' }).click();
    for (const message of ['Please Give Your Name', 'Please Give Your Email', 'Please Give a Subject', 'Please Write Your Message']) {
      await expect(modal.getByText(message, { exact: true })).toBeVisible();
    }
    await expect(modal.getByLabel('Your Name')).toBeFocused();

    await modal.getByLabel('Your Name').fill('Tanvir Hasan');
    await modal.getByLabel('Enter e-mail').fill('tanvir@');
    await modal.getByLabel('Subject').fill('Dining table delivery');
    await modal.getByLabel('Body').fill('Can you deliver a six-seater dining table to Mirpur this week?');
    await modal.getByRole('button', { name: 'Send Your Message' }).click();
    await expect(modal.getByText('Please Give a Correct Email')).toBeVisible();
    await expect(modal.getByText('Please Give Your Name')).toHaveCount(0);

    await modal.getByLabel('Enter e-mail').fill('tanvir@example.com');
    await modal.getByRole('button', { name: 'Send Your Message' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Thank you! Your message has been sent.' })).toBeVisible();
    await expect(modal).toBeHidden();
    await expect.poll(() => bodyOverflow(page)).not.toBe('hidden');

    await page.getByRole('contentinfo').getByRole('link', { name: 'support@nibash.com.bd' }).click();
    for (const label of ['Your Name', 'Enter e-mail', 'Subject', 'Body']) await expect(contactModal(page).getByLabel(label)).toHaveValue('');
  });

  test('a failed send says so and keeps what was typed', async ({ page }) => {
    await page.route('**/api/contact', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":{"code":"service_unavailable","message":"down"}}' }),
    );
    await page.goto('/contact');
    await hydrated(page);
    const form = page.getByTestId('contact-form');
    await form.getByLabel('Your Name').fill('Tanvir Hasan');
    await form.getByLabel('Enter e-mail').fill('tanvir@example.com');
    await form.getByLabel('Subject').fill('Hello');
    await form.getByLabel('Body').fill('Is the Gulshan showroom open on Friday morning?');
    await form.getByRole('button', { name: 'Send Your Message' }).click();
    await expect(form.getByRole('alert')).toHaveText('Your message could not be sent. Please try again.');
    await expect(form.getByLabel('Body')).toHaveValue('Is the Gulshan showroom open on Friday morning?');
    await expect(form.getByLabel('Your Name')).toHaveValue('Tanvir Hasan');
  });

  test('the contact page sends a message and clears the form', async ({ page }) => {
    await page.goto('/contact');
    await hydrated(page);
    await expect(page.getByRole('heading', { level: 1, name: 'Contact us' })).toBeVisible();
    const form = page.getByTestId('contact-form');
    await expect(form.getByRole('heading', { name: "We'll love to hear from you" })).toBeVisible();
    await form.getByLabel('Your Name').fill('Sadia Islam');
    await form.getByLabel('Enter e-mail').fill('sadia@example.com');
    await form.getByLabel('Subject').fill('Warranty');
    await form.getByLabel('Body').fill('How do I claim the frame warranty?');
    await form.getByRole('button', { name: 'Send Your Message' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Thank you! Your message has been sent.' })).toBeVisible();
    await expect(form.getByLabel('Body')).toHaveValue('');
  });
});

test.describe('showrooms', () => {
  test('the outlets page lists every showroom with address, phone, hours and a map link', async ({ page }) => {
    await page.goto('/about');
    await hydrated(page);
    await page.getByRole('contentinfo').getByRole('link', { name: 'Our Showroom' }).click();
    await expect(page).toHaveURL(/\/outlets$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Our showrooms' })).toBeVisible();
    const branches = page.getByTestId('branch');
    await expect(branches).toHaveCount(6);
    const gulshan = branches.filter({ hasText: 'Gulshan Flagship Showroom' });
    await expect(gulshan).toContainText('House 42, Road 11, Gulshan-1, Dhaka');
    await expect(gulshan).toContainText('Sat–Thu 10:00–21:00, Fri 15:00–21:00');
    await expect(gulshan.getByRole('link', { name: '+880 9612 016771' })).toHaveAttribute('href', 'tel:+8809612016771');
    await expect(gulshan.getByRole('link', { name: /Open in map/ })).toHaveAttribute(
      'href',
      /^https:\/\/www\.openstreetmap\.org\/\?mlat=23\.78060&mlon=90\.41930/,
    );
    for (const b of await branches.all()) {
      await expect(b.getByRole('link', { name: /Open in map/ })).toHaveAttribute('target', '_blank');
      await expect(b.getByRole('link', { name: /^\+880/ })).toBeVisible();
    }
  });

  test('opened for a product, the outlets page says which showrooms have it in stock', async ({ page }) => {
    const res = await page.request.post('/api/stocks/items/skus/search', {
      headers: { 'x-api-key': API_KEY },
      data: { page: 1, size: 100, textParams: [], sortParams: [{ field: 'quantity', type: 'DESC' }] },
    });
    const rows = (await res.json()).list as { skuCode: string; branchId: number; quantity: number }[];
    const sku = rows[0]!.skuCode;
    const all = await page.request.post('/api/stocks/items/skus/search', {
      headers: { 'x-api-key': API_KEY },
      data: { page: 1, size: 100, textParams: [{ field: 'skuCode', value: sku, matchType: 'EXACT' }] },
    });
    const stocked = ((await all.json()).list as { quantity: number }[]).filter((r) => r.quantity > 0).length;
    expect(stocked).toBeGreaterThan(0);

    await page.goto(`/outlets?sku=${encodeURIComponent(sku)}`);
    const panel = page.getByTestId('availability');
    await expect(panel).toContainText(`Product code ${sku}`);
    await expect(panel).toContainText(`In stock at ${stocked === 1 ? 'one showroom' : `${stocked} showrooms`}`);
    await expect(page.getByTestId('branch-stock').filter({ hasText: /^In stock/ })).toHaveCount(stocked);
    // The showrooms that have it come first.
    await expect(page.getByTestId('branch').first().getByTestId('branch-stock')).toHaveText(/^In stock/);
  });

  test('/showrooms leads to the outlets page', async ({ page }) => {
    await page.goto('/showrooms');
    await expect(page).toHaveURL(/\/outlets$/);
  });
});

test.describe('3D viewer', () => {
  test('renders the generated sofa in a canvas that is not blank, with zoom and reset', async ({ page }) => {
    test.setTimeout(90_000);
    await page.goto('/sofa-3d');
    const viewer = page.locator('model-viewer');
    await expect(viewer).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
    expect(await viewer.evaluate((el: any) => el.modelIsVisible)).toBe(true);
    await expect(viewer.locator('canvas').first()).toBeAttached();
    // Let the first frames settle, then look at the pixels the shopper sees.
    await page.waitForFunction(() => (document.querySelector('model-viewer') as any)?.modelIsVisible === true);
    const stats = async () => pixelStats(page, (await viewer.screenshot()).toString('base64'));
    // The sofa covers a good part of the frame and is teal (green and blue well above red).
    await expect.poll(async () => (await stats()).differentFromBackground, { timeout: 20_000 }).toBeGreaterThan(0.05);
    expect((await stats()).teal).toBeGreaterThan(0.03);

    const radius = () => viewer.evaluate((el: any) => el.getCameraOrbit().radius as number);
    const start = await radius();
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await expect.poll(radius).toBeLessThan(start * 0.95);
    await page.getByRole('button', { name: 'Reset view' }).click();
    await expect.poll(async () => Math.abs((await radius()) - start)).toBeLessThan(start * 0.02);
  });

  test('loads the 3D viewer code only on its own page', async ({ page }) => {
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(r.url());
    });
    await page.goto('/');
    await hydrated(page);
    expect(scripts.some((u) => u.includes('model-viewer'))).toBe(false);
    const html = await (await page.request.get('/sofa-3d')).text();
    expect(html).not.toMatch(/assets\/model-viewer-[^"]+\.js/);
  });
});

/** Share of pixels unlike the top-left corner, and of teal pixels, in a PNG screenshot. */
async function pixelStats(page: Page, pngBase64: string) {
  return page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.naturalWidth;
    c.height = img.naturalHeight;
    const ctx = c.getContext('2d')!;
    ctx.drawImage(img, 0, 0);
    const { data } = ctx.getImageData(0, 0, c.width, c.height);
    const [r0, g0, b0] = [data[0]!, data[1]!, data[2]!];
    let different = 0;
    let teal = 0;
    const n = data.length / 4;
    for (let i = 0; i < data.length; i += 4) {
      const [r, g, b] = [data[i]!, data[i + 1]!, data[i + 2]!];
      if (Math.abs(r - r0) + Math.abs(g - g0) + Math.abs(b - b0) > 60) different++;
      if (g - r > 30 && b - r > 20) teal++;
    }
    return { differentFromBackground: different / n, teal: teal / n };
  }, pngBase64);
}

test.describe('build freshness', () => {
  /** The module of the contact page, from React Router's manifest. */
  const contactModule = async (page: Page) => {
    // React Router learns of routes as links to them appear (lazy route discovery).
    await page.waitForFunction(() => (window as any).__reactRouterManifest?.routes?.['routes/contact']);
    return page.evaluate(() => (window as any).__reactRouterManifest.routes['routes/contact'].module as string);
  };

  test('a failed page chunk with a newer build reloads once, and not again within 10 seconds', async ({ page }) => {
    let documents = 0;
    page.on('request', (r) => {
      if (r.resourceType() === 'document') documents++;
    });
    await page.goto('/about');
    await hydrated(page);
    const chunk = await contactModule(page);
    // A deploy happened: the old chunk is gone and the latest build is another one.
    await page.route(
      (url) => url.pathname === chunk,
      (route) => route.abort('failed'),
    );
    await page.route('**/latest-build.json*', (route) =>
      route.fulfill({ contentType: 'application/json', body: JSON.stringify({ buildId: 'a-newer-build' }) }),
    );

    await page.getByRole('contentinfo').getByRole('link', { name: 'Contact Us', exact: true }).click();
    await expect.poll(() => documents).toBe(2);
    await hydrated(page);
    await expect(page).toHaveURL(/\/about$/);
    const marker = Number(await page.evaluate(() => sessionStorage.getItem('build-reload-at')));
    expect(Date.now() - marker).toBeLessThan(10_000);

    // Within 10 seconds of that reload, the same failure shows an error instead.
    await page.getByRole('contentinfo').getByRole('link', { name: 'Contact Us', exact: true }).click();
    await expect(page.getByTestId('error-description')).toHaveText('This page could not be loaded. Please check your connection and try again.');
    expect(documents).toBe(2);

    // Once the marker is older than 10 seconds, a reload is allowed again.
    await page.evaluate(() => sessionStorage.setItem('build-reload-at', String(Date.now() - 10_001)));
    await page.goto('/about');
    await hydrated(page);
    const before = documents;
    await page.getByRole('contentinfo').getByRole('link', { name: 'Contact Us', exact: true }).click();
    await expect.poll(() => documents).toBe(before + 1);
  });

  test('a menu whose code fails to load keeps its button, says so, and opens on the next try', async ({ page }) => {
    await page.goto('/about');
    await hydrated(page);
    // The cart dropdown loads on first use; its chunk cannot be fetched (no newer build).
    let blocked = true;
    await page.route(
      (url) => /\/assets\/cart-popover-[^/]+\.js$/.test(url.pathname),
      (route) => (blocked ? route.abort('failed') : route.fallback()),
    );
    const button = page.getByTestId('cart-button');
    await button.click();
    await expect(page.getByRole('status').or(page.getByRole('alert')).filter({ hasText: 'This could not be opened' })).toBeVisible();
    await expect(page.getByTestId('cart-dropdown')).toHaveCount(0);
    await expect(page.getByTestId('error-description')).toHaveCount(0);
    await expect(button).toBeVisible();

    blocked = false;
    await button.click();
    await expect(page.getByTestId('cart-dropdown')).toBeVisible();
  });

  test('a failed page chunk without a newer build does not reload', async ({ page }) => {
    let documents = 0;
    page.on('request', (r) => {
      if (r.resourceType() === 'document') documents++;
    });
    await page.goto('/about');
    await hydrated(page);
    const chunk = await contactModule(page);
    await page.route(
      (url) => url.pathname === chunk,
      (route) => route.abort('failed'),
    );
    await page.getByRole('contentinfo').getByRole('link', { name: 'Contact Us', exact: true }).click();
    await expect(page.getByTestId('error-description')).toHaveText(/could not be loaded/);
    expect(documents).toBe(1);
  });

  test('the app knows its build id and the latest-build file names it', async ({ page }) => {
    await page.goto('/about');
    await hydrated(page);
    const id = await page.locator('html').getAttribute('data-build');
    const res = await page.request.get('/latest-build.json');
    expect(res.headers()['cache-control']).toBe('no-cache');
    expect((await res.json()).buildId).toBe(id);
  });
});
