import { BRAND_COLOURS, contrastWithWhite } from '@storefront/shared';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { expectApiError } from './helpers/assertions.ts';
import { checkout, checkoutBody, generousOrderLimits, guestContact, plainSkus, setStock, type TestSku } from './helpers/checkout.ts';
import { pngBytes, uploadForm } from './helpers/files.ts';
import { type SmtpSink, startSmtpSink } from './helpers/smtp-sink.ts';
import { signedInStaff, type TestStaff } from './helpers/staff.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';
import { ShellMemo } from '../src/web/shop-reads.ts';

// The shop's settings and currencies in the back office (docs/decisions/0037), on both
// databases: each group saved on its own with its version, bad values refused with the one
// error shape, the storefront's reads (GET /api/kvps, the currency list) showing a change on
// the next request, the logo checked by its bytes and sent in the next order mail.

let t: TestApp;
let smtp: SmtpSink;
let manager: TestStaff;
let readOnly: TestStaff;
let sku: TestSku;
/** The header and footer data every storefront page renders from, kept between requests. */
let shell: ShellMemo;

beforeAll(async () => {
  smtp = await startSmtpSink();
  t = await startTestApp({
    // The read caches on, as in production: a save must reach the storefront through them.
    config: {
      trustProxy: true,
      readCacheMs: 60_000,
      shellCacheMs: 60_000,
      orders: generousOrderLimits(),
      mail: { ...loadConfig({}).mail, smtpUrl: smtp.url, from: 'Shop <orders@shop.example>' },
    },
  });
  t.app.config.publicUrl = t.baseUrl;
  shell = new ShellMemo(t.app);
  await shell.get();
  manager = await signedInStaff(t, 'manager');
  readOnly = await signedInStaff(t, 'read_only');
  [sku] = await plainSkus(t.db.kysely, 1, 40);
  await setStock(t.db.kysely, sku.id, [100]);
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const settings = async () => {
  const res = await t.api('/api/admin/settings', { headers: manager.headers });
  expect(res.status, res.text).toBe(200);
  return res.body;
};
const put = (group: string, json: unknown) => t.api(`/api/admin/settings/${group}`, { method: 'PUT', json, headers: manager.headers });
/** The group as read, without its metadata: the body PUT takes, with `over` changed. */
async function bodyOf(group: string, over: Record<string, unknown> = {}) {
  const { updatedAt: _a, updatedBy: _b, logoWidth: _w, logoHeight: _h, ...values } = (await settings())[group];
  return { ...values, ...over };
}
const kvps = async () => (await t.api('/api/kvps')).body as Record<string, string>;

async function uploadLogo(bytes: Buffer, name: string, type = 'image') {
  return t.api('/api/files', { method: 'POST', body: uploadForm({ bytes, name, contentType: 'image/png' }, type) });
}

describe('the settings groups', () => {
  it('reads every group with the values the storefront shows, for every back-office role', async () => {
    const res = await t.api('/api/admin/settings', { headers: readOnly.headers });
    expect(res.status, res.text).toBe(200);
    expect(res.body.brand).toMatchObject({ name: 'Nibash Furniture', colour: '#1f4d3a', logo: '', version: 1 });
    expect(res.body.contact).toMatchObject({ hotline: '16770', supportEmail: 'support@nibash.com.bd' });
    expect(res.body.social.facebook).toBe('https://www.facebook.com/nibashfurniture');
    expect(res.body.company.tin).toBe('TIN 482915736104');
    expect(res.body.payments).toMatchObject({ logos: ['visa', 'mastercard', 'amex', 'bkash', 'nagad', 'rocket'], sslLogo: true });
    // Seeing is not changing: read-only staff cannot save.
    const refused = await t.api('/api/admin/settings/contact', { method: 'PUT', json: { ...(await bodyOf('contact')) }, headers: readOnly.headers });
    expectApiError(refused, 403, 'forbidden');
  });

  it('saves each group on its own, with an audit entry, and GET /api/kvps shows it at once', async () => {
    // Read once first, so a stale cache would show if a save did not clear it.
    expect((await kvps())['contact.hotline']).toBe('16770');

    const contact = await put('contact', await bodyOf('contact', { hotline: '09612 016771', orderEmail: '' }));
    expect(contact.status, contact.text).toBe(200);
    expect(contact.body).toMatchObject({ hotline: '09612 016771', version: 2, updatedBy: manager.email });
    expect((await kvps())['contact.hotline']).toBe('09612 016771');
    expect((await shell.get()).settings['contact.hotline']).toBe('09612 016771');

    const brand = await put('brand', await bodyOf('brand', { tagline: 'Teak, oak and mahogany', colour: '#B4532A' }));
    expect(brand.status, brand.text).toBe(200);
    expect(brand.body).toMatchObject({ tagline: 'Teak, oak and mahogany', colour: '#b4532a' });

    const social = await put('social', await bodyOf('social', { linkedin: '' }));
    expect(social.status, social.text).toBe(200);

    const company = await put('company', await bodyOf('company', { tradeLicence: 'Trade Licence TRAD/DNCC/099999/2026' }));
    expect(company.status, company.text).toBe(200);

    const payments = await put('payments', await bodyOf('payments', { logos: ['bkash', 'visa'], sslLogo: false }));
    expect(payments.status, payments.text).toBe(200);

    const site = await kvps();
    expect(site).toMatchObject({
      'brand.tagline': 'Teak, oak and mahogany',
      'brand.colour': '#b4532a',
      'social.linkedin': '',
      'company.tradeLicence': 'Trade Licence TRAD/DNCC/099999/2026',
      // In the footer's order, whatever the order ticked.
      'payment.logos': 'visa,bkash',
      'payment.sslLogo': '',
    });
    // Each group has its own version: saving one moves no other.
    const all = await settings();
    expect([all.brand.version, all.contact.version, all.social.version, all.company.version, all.payments.version]).toEqual([2, 2, 2, 2, 2]);

    const audit = await t.db.kysely.selectFrom('audit_log').selectAll().where('entity', '=', 'settings').where('entity_id', '=', 'contact').execute();
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0].diff)).toMatchObject({ hotline: ['16770', '09612 016771'], orderEmail: ['orders@nibash.com.bd', ''] });
    expect(audit[0].staff_email).toBe(manager.email);
  });

  it('answers 409 to a save made on a version someone else has since changed, and keeps theirs', async () => {
    const read = await bodyOf('contact');
    const first = await put('contact', { ...read, address: 'House 1, Road 2, Banani, Dhaka 1213' });
    expect(first.status, first.text).toBe(200);
    const second = await put('contact', { ...read, address: 'Somewhere else' });
    expectApiError(second, 409, 'stale_version');
    expect((await kvps())['contact.address']).toBe('House 1, Road 2, Banani, Dhaka 1213');
  });

  it('refuses bad values field by field with the one error shape, and changes nothing', async () => {
    const before = await kvps();
    const cases: [string, Record<string, unknown>, string][] = [
      ['contact', { supportEmail: 'support@' }, 'supportEmail'],
      ['contact', { orderEmail: 'orders at nibash' }, 'orderEmail'],
      ['contact', { hotline: 'call us' }, 'hotline'],
      ['contact', { hotline: '12' }, 'hotline'],
      ['contact', { hotlineInternational: '09612 016770' }, 'hotlineInternational'],
      ['social', { facebook: 'javascript:alert(1)' }, 'facebook'],
      ['social', { instagram: 'http://instagram.com/nibash' }, 'instagram'],
      ['social', { youtube: 'data:text/html,<script>alert(1)</script>' }, 'youtube'],
      ['brand', { colour: '#ff0000' }, 'colour'],
      // A colour of the design system that carries dark text, not white.
      ['brand', { colour: '#eaf3ee' }, 'colour'],
      ['brand', { name: '   ' }, 'name'],
      ['brand', { logo: 'https://elsewhere.example/logo.png' }, 'logo'],
      ['brand', { logo: 'javascript:alert(1)' }, 'logo'],
      ['company', { tin: 'TIN 123' }, 'tin'],
      ['payments', { logos: ['visa', 'paypal'] }, 'logos'],
    ];
    for (const [group, over, field] of cases) {
      const res = await put(group, await bodyOf(group, over));
      expectApiError(res, 400);
      expect(Object.keys(res.body.error.fields ?? {}).join(','), `${group} ${JSON.stringify(over)}: ${res.text}`).toContain(field);
    }
    expect(await kvps()).toEqual(before);
  });

  it('offers only brand colours that carry white text at WCAG AA', () => {
    expect(BRAND_COLOURS.length).toBeGreaterThan(2);
    for (const c of BRAND_COLOURS) expect(contrastWithWhite(c.value), c.label).toBeGreaterThanOrEqual(4.5);
  });
});

describe('the logo', () => {
  it('refuses an SVG and a file that is not a picture, at upload or when set', async () => {
    const svg = Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    expectApiError(await uploadLogo(svg, 'logo.svg'), 415, 'unsupported_media_type');
    expectApiError(await uploadLogo(Buffer.from('just some words\n'), 'logo.png'), 415, 'unsupported_media_type');
    // A PDF is a document the shop stores, but never a logo.
    const pdf = await uploadLogo(Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n'), 'logo.pdf', 'document');
    expect(pdf.status, pdf.text).toBe(200);
    const res = await put('brand', await bodyOf('brand', { logo: new URL(pdf.body.cdnUrl, t.baseUrl).pathname }));
    expectApiError(res, 400);
    expect(res.body.error.fields.logo).toMatch(/PNG, JPEG or WebP/);
    // A path of the right shape to no file.
    const none = await put('brand', await bodyOf('brand', { logo: '/files/00000000-0000-4000-8000-000000000000/logo.png' }));
    expectApiError(none, 400);
    expect((await kvps())['brand.logo'] ?? '').toBe('');
  });

  it('refuses a picture wider or higher than a logo needs, naming its size (docs/decisions/0050)', async () => {
    const up = await uploadLogo(pngBytes(2001, 40), 'wide-logo.png');
    expect(up.status, up.text).toBe(200);
    const res = await put('brand', await bodyOf('brand', { logo: new URL(up.body.cdnUrl, t.baseUrl).pathname }));
    expectApiError(res, 400);
    expect(res.body.error.fields.logo).toMatch(/at most 2000 pixels wide and high; this one is 2001 × 40/);
    expect((await kvps())['brand.logo'] ?? '').toBe('');
  });

  it('is shown by the storefront with its size and sent in the next order mail', async () => {
    const up = await uploadLogo(pngBytes(120, 40), 'nibash-logo.png');
    expect(up.status, up.text).toBe(200);
    const path = new URL(up.body.cdnUrl, t.baseUrl).pathname;
    const saved = await put('brand', await bodyOf('brand', { logo: path, colour: '#173a2c' }));
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body).toMatchObject({ logo: path, logoWidth: 120, logoHeight: 40 });
    expect(await kvps()).toMatchObject({ 'brand.logo': path, 'brand.logoWidth': '120', 'brand.logoHeight': '40' });
    // The file is the shop's now: the sweep of unclaimed guest uploads leaves it.
    await t.app.files.sweepGuestFiles(new Date(Date.now() + 365 * 24 * 3600_000));
    expect((await t.api(path)).status).toBe(200);

    // What every storefront page's header and footer are rendered from (the same kept shell
    // the page server uses, read before the change so a stale one would show).
    expect((await shell.get()).settings).toMatchObject({ 'brand.logo': path, 'brand.logoWidth': '120', 'brand.logoHeight': '40' });

    const contact = guestContact();
    const mark = smtp.mails.length;
    const order = await checkout(t, checkoutBody([{ skuCode: sku.code, quantity: 1 }], { contact }));
    expect(order.status, order.text).toBe(201);
    const mail = await smtp.waitForMail((m) => m.to.includes(contact.email), mark);
    const parsed = await simpleParser(mail.raw);
    const html = String(parsed.html);
    // An absolute address, so mail programs can fetch it; the new hotline and colour with it.
    expect(html).toContain(`<img src="${t.baseUrl}${path}" alt="Nibash Furniture"`);
    expect(html).toContain('background:#173a2c');
    expect(html).toContain('Hotline 09612 016771');
    expect(parsed.text).toContain('Hotline 09612 016771');

    // The PDF invoice embeds it (a PNG): an image of the logo's 120 × 40 pixels.
    const key = /key=([\w-]+)/.exec(parsed.text ?? '')?.[1];
    expect(key).toBeTruthy();
    const pdf = await t.api(`/api/sales/invoice?invoiceId=${order.body.invoiceId}`, { headers: { 'x-order-token': key! } });
    expect(pdf.status).toBe(200);
    expect(pdf.text).toMatch(/\/Subtype \/Image[^>]*\/Width 120[^>]*\/Height 40|\/Width 120\s*\/Height 40/);
  });
});

describe('currencies', () => {
  const list = async () => {
    const res = await t.api('/api/admin/currencies', { headers: readOnly.headers });
    expect(res.status, res.text).toBe(200);
    return res.body.items as any[];
  };
  const patch = (code: string, json: unknown) => t.api(`/api/admin/currencies/${code}`, { method: 'PATCH', json, headers: manager.headers });
  const storefront = async () => (await t.api('/api/currencies/conversions?size=50')).body.list as any[];

  it('lists every currency with its rate, whether it is offered, and its last change', async () => {
    const items = await list();
    expect(items.map((c) => c.code)).toEqual(['BDT', 'USD', 'EUR', 'GBP', 'INR', 'AED']);
    expect(items[0]).toMatchObject({ code: 'BDT', rate: 1, enabled: true, version: 1 });
  });

  it('adds a currency by its ISO code, once', async () => {
    const made = await t.api('/api/admin/currencies', {
      method: 'POST',
      json: { code: 'sar', country: 'saudi arabia', rate: 32.5, numCode: '+966' },
      headers: manager.headers,
    });
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({ code: 'SAR', rate: 32.5, enabled: true, updatedBy: manager.email });
    expect((await storefront()).find((c) => c.sourceId === 'SAR')).toMatchObject({ rate: 32.5 });
    const again = await t.api('/api/admin/currencies', {
      method: 'POST',
      json: { code: 'SAR', country: 'saudi arabia', rate: 33, numCode: '' },
      headers: manager.headers,
    });
    expectApiError(again, 409, 'duplicate_code');
    const bad = await t.api('/api/admin/currencies', { method: 'POST', json: { code: 'US$', country: 'x', rate: 1, numCode: '' }, headers: manager.headers });
    expectApiError(bad, 400);
  });

  it('changes a rate, which the storefront’s next list uses, and refuses a rate of zero or beyond reason', async () => {
    const usd = (await list()).find((c) => c.code === 'USD');
    expect((await storefront()).find((c) => c.sourceId === 'USD').rate).toBe(122);
    const saved = await patch('USD', { rate: 121.25, version: usd.version });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body).toMatchObject({ rate: 121.25, version: usd.version + 1, updatedBy: manager.email });
    expect((await storefront()).find((c) => c.sourceId === 'USD').rate).toBe(121.25);

    for (const rate of [0, -3, 1_000_000]) {
      const res = await patch('USD', { rate, version: usd.version + 1 });
      expectApiError(res, 400);
      expect(res.body.error.fields).toHaveProperty('rate');
    }
    expectApiError(await patch('USD', { rate: 120, version: usd.version }), 409, 'stale_version');
    expectApiError(await patch('XYZ', { rate: 1, version: 1 }), 404, 'not_found');
  });

  it('hides a disabled currency from the storefront and shows it again when enabled', async () => {
    const eur = (await list()).find((c) => c.code === 'EUR');
    const off = await patch('EUR', { enabled: false, version: eur.version });
    expect(off.status, off.text).toBe(200);
    expect((await storefront()).map((c) => c.sourceId)).not.toContain('EUR');
    // The storefront's pages: their currency switcher is built from the kept shell.
    expect((await shell.get()).currencies.map((c) => c.sourceId)).not.toContain('EUR');
    expect((await list()).find((c) => c.code === 'EUR').enabled).toBe(false);
    const on = await patch('EUR', { enabled: true, version: off.body.version });
    expect(on.status, on.text).toBe(200);
    expect((await storefront()).map((c) => c.sourceId)).toContain('EUR');
  });

  it('keeps BDT, the currency the shop charges in, enabled and at rate 1', async () => {
    const bdt = (await list()).find((c) => c.code === 'BDT');
    const off = await patch('BDT', { enabled: false, version: bdt.version });
    expectApiError(off, 409, 'base_currency');
    expect(off.body.error.message).toMatch(/cannot be disabled/);
    expectApiError(await patch('BDT', { rate: 2, version: bdt.version }), 409, 'base_currency');
    expect((await list()).find((c) => c.code === 'BDT')).toMatchObject({ enabled: true, rate: 1, version: bdt.version });
    expect((await storefront())[0]).toMatchObject({ sourceId: 'BDT', rate: 1 });
  });
});
