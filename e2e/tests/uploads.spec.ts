import { expect, type Page, type Request, test } from '@playwright/test';
import { newShopper, signUpByApi } from '../fixtures/accounts.ts';
import { skuFrom, withCart } from '../fixtures/checkout.ts';
import { pdfBytes, pngBytes } from '../fixtures/files.ts';

// File uploads in the browser: the upload helper and its progress bar on a
// booking's payment proof (#6), and the profile picture (#5) served to an <img>. Product
// ranges 260+ and 290+ are this file's own, so its bookings never take stock another spec counts.

const MB = 1024 * 1024;

/** Books one item to pay later and opens the booking's page. */
async function openNewBooking(page: Page, from: number): Promise<string> {
  await signUpByApi(page.request, newShopper('Mahmuda Akter'));
  const sku = await skuFrom(page.request, from);
  await withCart(page, [{ sku, quantity: 1 }]);
  await page.getByRole('radio', { name: /Collect from a showroom/ }).check();
  await page.getByLabel('Showroom', { exact: true }).selectOption({ index: 1 });
  await page.getByRole('radio', { name: /Pay later/ }).check();
  await page.getByTestId('place-order').click();
  await expect(page).toHaveURL(/\/payments\/response\/later\?invoiceId=/);
  const invoice = (await page.getByTestId('invoice-id').first().textContent())!;
  await page.goto('/orders?tab=bookings');
  await page.getByRole('link', { name: `View booking ${invoice}` }).click();
  await expect(page.getByRole('button', { name: 'Upload payment proof' })).toBeVisible();
  return invoice;
}

async function chooseFile(page: Page, file: { name: string; mimeType: string; buffer: Buffer }) {
  const chooser = page.waitForEvent('filechooser');
  await page
    .getByRole('button', { name: /Upload payment proof|Choose another file|Try again/ })
    .first()
    .click();
  await (await chooser).setFiles(file);
}

test.describe('uploading files', () => {
  test('a customer attaches a payment proof to a booking, watching the progress bar, after cancelling a first try', async ({ page }) => {
    await openNewBooking(page, 260);

    // Hold the server's answer so the running upload can be seen and cancelled: no timing guesses.
    let release!: () => void;
    let gate = new Promise<void>((r) => (release = r));
    await page.route('**/api/files', async (route) => {
      const held = gate;
      const response = await route.fetch();
      await held;
      await route.fulfill({ response }).catch(() => {}); // the browser may have cancelled it
    });

    await chooseFile(page, { name: 'deposit-slip.pdf', mimeType: 'application/pdf', buffer: pdfBytes() });
    const bar = page.getByRole('progressbar', { name: 'Uploading deposit slip or receipt' });
    await expect(bar).toBeVisible();
    await expect(page.getByTestId('upload-progress')).toContainText('deposit-slip.pdf');
    await page.getByRole('button', { name: 'Cancel uploading deposit-slip.pdf' }).click();
    await expect(page.getByText('Upload cancelled')).toBeVisible();
    await expect(bar).toHaveCount(0);
    release();

    gate = new Promise<void>((r) => (release = r));
    await chooseFile(page, { name: 'deposit-slip.pdf', mimeType: 'application/pdf', buffer: pdfBytes() });
    await expect(bar).toBeVisible();
    release();
    const attachments = page.getByTestId('attachments');
    await expect(attachments).toContainText('deposit-slip.pdf');
    await expect(page.getByTestId('upload-progress')).toContainText('Uploaded');
    // The proof is served as a download, never shown inline.
    const href = await attachments.getByRole('link').first().getAttribute('href');
    const served = await page.request.get(href!);
    expect(served.status()).toBe(200);
    expect(served.headers()['content-disposition']).toMatch(/^attachment;/);
    expect(served.headers()['x-content-type-options']).toBe('nosniff');
  });

  test('a 25 MB proof goes up in parts, at most 4 at a time, and a part that fails is sent again', async ({ page }) => {
    // 25 MB crosses from the test into the browser and on to the server: slow on a busy machine.
    test.setTimeout(150_000);
    await openNewBooking(page, 290);

    const parts: string[] = [];
    // A part is in flight from its request until its answer's headers (or its failure): the
    // uploader goes on when fetch resolves, which is at the headers; the "request finished"
    // event (the body read) can reach the test after the next part's request.
    const inFlight = new Set<Request>();
    let maxInFlight = 0;
    page.on('request', (r) => {
      if (!/\/api\/files\/multipart\/[^/]+\/parts\/\d+$/.test(r.url())) return;
      parts.push(r.url().split('/').pop()!);
      inFlight.add(r);
      maxInFlight = Math.max(maxInFlight, inFlight.size);
    });
    page.on('response', (r) => inFlight.delete(r.request()));
    page.on('requestfailed', (r) => inFlight.delete(r));
    // The network drops part 3 once.
    let dropped = false;
    await page.route('**/api/files/multipart/*/parts/3', async (route) => {
      if (!dropped) {
        dropped = true;
        return route.abort('connectionreset');
      }
      return route.continue();
    });
    const direct: string[] = [];
    page.on('request', (r) => r.url().endsWith('/api/files') && r.method() === 'POST' && direct.push(r.url()));

    await chooseFile(page, { name: 'statement.pdf', mimeType: 'application/pdf', buffer: pdfBytes(25 * MB) });
    await expect(page.getByRole('progressbar', { name: 'Uploading deposit slip or receipt' })).toBeVisible();
    await expect(page.getByTestId('attachments')).toContainText('statement.pdf', { timeout: 120_000 });

    // 25 MB (the multipart threshold): five 5 MB parts, part 3 twice; 4 at once.
    expect(direct).toEqual([]);
    expect(parts.filter((p) => p === '3')).toHaveLength(2);
    expect([...new Set(parts)].sort()).toEqual(['1', '2', '3', '4', '5']);
    expect(parts).toHaveLength(6);
    expect(maxInFlight).toBe(4);
  });

  test('a profile picture is uploaded with a progress bar and shown from its file address', async ({ page }) => {
    await signUpByApi(page.request, newShopper('Rafiq Islam'));
    await page.goto('/profile');
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    await page.route('**/api/files', async (route) => {
      const response = await route.fetch();
      await gate;
      await route.fulfill({ response });
    });
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Upload a picture' }).click();
    await (await chooser).setFiles({ name: 'me.png', mimeType: 'image/png', buffer: pngBytes(160, 160) });
    await expect(page.getByRole('progressbar', { name: 'Uploading profile picture' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Cancel uploading me.png' })).toBeVisible();
    release();
    await expect(page.getByRole('progressbar')).toHaveCount(0);
    const avatar = page.getByRole('button', { name: 'Account menu for Rafiq Islam' }).locator('img');
    await expect(avatar).toHaveAttribute('src', /\/files\/[0-9a-f-]{36}\//);
    // The browser really loaded it: the <img> sent no API key and got a picture.
    await expect.poll(() => avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(160);
    const served = await page.request.get((await avatar.getAttribute('src'))!);
    expect(served.headers()['content-type']).toBe('image/png');
    expect(served.headers()['content-disposition']).toMatch(/^inline;/);
    expect(served.headers()['x-content-type-options']).toBe('nosniff');
  });
});
