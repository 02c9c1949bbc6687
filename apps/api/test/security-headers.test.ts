import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail, uniqueIp, uniqueMobile } from './helpers/accounts.ts';
import { checkout, checkoutBody, plainSkus, setStock } from './helpers/checkout.ts';
import { pngBytes, uploadForm } from './helpers/files.ts';
import { rawSend } from './helpers/raw-http.ts';
import { startTestApp, TEST_API_KEY, type TestApp } from './helpers/test-app.ts';

// Security headers on every answer of the API: a Content-Security-Policy that
// allows no inline script and no framing, nosniff, a referrer policy; HSTS when the shop is
// served over https; and the session and order-access cookies httpOnly, SameSite, and
// Secure over https. The pages' own CSP (with a nonce per answer) is checked in the
// browser: e2e/tests/security-headers.spec.ts.

let t: TestApp;
let tls: TestApp;
beforeAll(async () => {
  [t, tls] = await Promise.all([
    startTestApp({ config: { trustProxy: true } }),
    startTestApp({ config: { trustProxy: true, publicUrl: 'https://shop.example' } }),
  ]);
});
afterAll(async () => {
  await Promise.all([t?.close(), tls?.close()]);
});

/** Directive name → its sources, from a CSP header. */
function parseCsp(header: string | null): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of (header ?? '').split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) out.set(name.toLowerCase(), sources);
  }
  return out;
}

type HeaderBag = Headers | Record<string, string | string[] | undefined>;
function header(h: HeaderBag, name: string): string | null {
  if (h instanceof Headers) return h.get(name);
  const v = h[name];
  return Array.isArray(v) ? v.join(', ') : (v ?? null);
}

/** The headers every answer carries, over http. */
function expectHardened(h: HeaderBag, what: string) {
  expect(header(h, 'x-content-type-options'), `nosniff on ${what}`).toBe('nosniff');
  expect(header(h, 'referrer-policy'), `referrer policy on ${what}`).toMatch(/^(no-referrer|same-origin|strict-origin|strict-origin-when-cross-origin)$/);
  expect(header(h, 'x-powered-by'), `no x-powered-by on ${what}`).toBeNull();
  const csp = parseCsp(header(h, 'content-security-policy'));
  expect(csp.size, `a CSP on ${what}`).toBeGreaterThan(0);
  expect(csp.get('frame-ancestors'), `frame-ancestors on ${what}`).toEqual(["'none'"]);
  // Scripts fall back to default-src when script-src is absent.
  const scripts = csp.get('script-src') ?? csp.get('default-src') ?? [];
  expect(scripts.length, `script sources limited on ${what}`).toBeGreaterThan(0);
  expect(scripts, `no inline script on ${what}`).not.toContain("'unsafe-inline'");
  expect(scripts, `no eval on ${what}`).not.toContain("'unsafe-eval'");
  expect(scripts, `no wildcard script source on ${what}`).not.toContain('*');
}

describe('security headers on every API answer', () => {
  it('every operation of the OpenAPI document answers with the hardened headers, and without HSTS over http', async () => {
    const doc = (await t.api('/api/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    let checked = 0;
    for (const [p, item] of Object.entries(doc.paths)) {
      for (const method of Object.keys(item)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
        // A guest's request with placeholder path parameters: whatever it answers (200,
        // 400, 401, 404), the headers must be there.
        const url = p.replace(/\{[^}]+\}/g, '1');
        const res = await t.api(url, { method: method.toUpperCase(), ...(method === 'get' || method === 'delete' ? {} : { json: {} }) });
        expectHardened(res.headers, `${method.toUpperCase()} ${p} (${res.status})`);
        expect(res.headers.get('strict-transport-security'), `no HSTS over http on ${p}`).toBeNull();
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('error answers carry them too: no API key, unknown paths, a broken URL, malformed JSON', async () => {
    const answers: [string, Awaited<ReturnType<typeof rawSend>>][] = [
      ['no API key', await rawSend(t.baseUrl, { method: 'GET', path: '/api/kvps' }, 10_000)],
      ['unknown API path', await rawSend(t.baseUrl, { method: 'GET', path: '/api/nothing-here', headers: { 'x-api-key': TEST_API_KEY } }, 10_000)],
      ['unknown path', await rawSend(t.baseUrl, { method: 'GET', path: '/nothing-here' }, 10_000)],
      ['broken percent-escape', await rawSend(t.baseUrl, { method: 'GET', path: '/api/files/%ZZ', headers: { 'x-api-key': TEST_API_KEY } }, 10_000)],
      [
        'malformed JSON',
        await rawSend(
          t.baseUrl,
          { method: 'POST', path: '/api/carts/quote', headers: { 'x-api-key': TEST_API_KEY, 'content-type': 'application/json' }, body: Buffer.from('{') },
          10_000,
        ),
      ],
    ];
    for (const [what, res] of answers) {
      expect(res.status, what).toBeGreaterThanOrEqual(400);
      expect(res.status, what).toBeLessThan(500);
      expectHardened(res.headers, what);
    }
  });

  it('a request head over the limit gets a 431 in the error shape, with nosniff and a CSP', async () => {
    const { port } = new URL(t.baseUrl);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1');
      let data = '';
      socket.on('data', (d) => (data += d.toString()));
      socket.on('close', () => resolve(data));
      socket.on('error', (err) => (data ? resolve(data) : reject(err)));
      socket.write(`GET /api/kvps?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    });
    const [head, body] = raw.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 431 /);
    expect(head.toLowerCase()).toContain('x-content-type-options: nosniff');
    expect(head.toLowerCase()).toContain("content-security-policy: default-src 'none'; frame-ancestors 'none'");
    expect(JSON.parse(body)).toEqual({ error: { code: 'headers_too_large', message: expect.any(String) } });
  });

  it('the API reference page allows its own scripts by hash only, and cannot be framed', async () => {
    const res = await fetch(`${t.baseUrl}/api/docs/`, { redirect: 'follow' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expectHardened(res.headers, '/api/docs');
    const csp = parseCsp(res.headers.get('content-security-policy'));
    expect(csp.has('upgrade-insecure-requests')).toBe(false);
    for (const source of csp.get('script-src') ?? []) expect(source).toMatch(/^('self'|'sha256-[A-Za-z0-9+/=]+')$/);
  });

  it('drawings, uploaded files and the sandbox gateway page have their own strict CSP', async () => {
    const drawing = await fetch(`${t.baseUrl}/media/badges/visa.svg`);
    expect(drawing.status).toBe(200);
    expectHardened(drawing.headers, 'a drawing');

    const upload = await fetch(`${t.baseUrl}/api/files`, {
      method: 'POST',
      headers: { 'x-api-key': TEST_API_KEY },
      body: uploadForm({ bytes: pngBytes(), name: 'a.png', contentType: 'image/png' }),
    });
    expect(upload.status).toBe(200);
    const { cdnUrl } = (await upload.json()) as { cdnUrl: string };
    const file = await fetch(new URL(new URL(cdnUrl, t.baseUrl).pathname, t.baseUrl));
    expect(file.status).toBe(200);
    expectHardened(file.headers, 'an uploaded file');
    expect(parseCsp(file.headers.get('content-security-policy')).has('sandbox')).toBe(true);

    const [sku] = await plainSkus(t.db.kysely, 1, 7);
    await setStock(t.db.kysely, sku.id, [10]);
    const order = await checkout(t, checkoutBody([{ skuCode: sku.code, quantity: 1 }], { paymentMethod: 'card' }), { 'x-forwarded-for': uniqueIp() });
    expect(order.status).toBe(201);
    const page = await fetch(new URL(new URL(order.body.paymentUrl).pathname + new URL(order.body.paymentUrl).search, t.baseUrl));
    expect(page.status).toBe(200);
    expectHardened(page.headers, 'the sandbox gateway page');
    const scripts = parseCsp(page.headers.get('content-security-policy')).get('script-src') ?? [];
    const nonce = scripts.find((s) => s.startsWith("'nonce-"));
    expect(nonce).toBeTruthy();
    // Every script tag of the page carries that nonce; nothing else could run.
    const html = await page.text();
    const tags = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    for (const tag of tags) expect(tag).toContain(`nonce="${nonce!.slice(7, -1)}"`);
    expect(html).not.toMatch(/\son[a-z]+=/i);
  });
});

describe('cookies', () => {
  async function signUpWithCookie(app: TestApp) {
    const res = await app.api('/api/signup', {
      method: 'POST',
      json: { source: 'DEFAULT', type: 'DEFAULT', fullName: 'Cookie Tester', email: uniqueEmail(), mobile: uniqueMobile(), password: 'secret-pass' },
      headers: { 'x-session-cookie': '1', 'x-forwarded-for': uniqueIp() },
    });
    expect(res.status).toBe(201);
    return res.headers.getSetCookie();
  }

  const attrs = (cookie: string) =>
    cookie
      .split(';')
      .slice(1)
      .map((a) => a.trim().toLowerCase());

  it('over http the session cookie sid is httpOnly and SameSite=Lax, and not Secure (it would never come back)', async () => {
    const [sid] = (await signUpWithCookie(t)).filter((c) => c.startsWith('sid='));
    expect(sid).toBeTruthy();
    expect(attrs(sid)).toContain('httponly');
    expect(attrs(sid)).toContain('samesite=lax');
    expect(attrs(sid)).toContain('path=/');
    expect(attrs(sid)).not.toContain('secure');
  });

  it('over https (PUBLIC_URL https://…) sid is also Secure, and every answer carries HSTS', async () => {
    const [sid] = (await signUpWithCookie(tls)).filter((c) => c.startsWith('sid='));
    expect(attrs(sid)).toEqual(expect.arrayContaining(['httponly', 'samesite=lax', 'secure']));
    for (const p of ['/api/health', '/api/kvps', '/api/nothing-here']) {
      const res = await tls.api(p);
      const hsts = res.headers.get('strict-transport-security') ?? '';
      expect(hsts, p).toMatch(/max-age=(\d+)/);
      expect(Number(/max-age=(\d+)/.exec(hsts)![1]), p).toBeGreaterThanOrEqual(180 * 86_400);
      expect(hsts, p).toContain('includeSubDomains');
    }
  });

  it("a guest's order-access cookie is httpOnly and SameSite too, and Secure over https", async () => {
    const [sku] = await plainSkus(t.db.kysely, 1, 3);
    await setStock(t.db.kysely, sku.id, [10]);
    const res = await checkout(t, checkoutBody([{ skuCode: sku.code, quantity: 1 }]), { 'x-forwarded-for': uniqueIp() });
    expect(res.status).toBe(201);
    const [access] = res.headers.getSetCookie().filter((c) => c.startsWith('order_access='));
    expect(attrs(access)).toEqual(expect.arrayContaining(['httponly', 'samesite=lax']));
    expect(attrs(access)).not.toContain('secure');

    const [tlsSku] = await plainSkus(tls.db.kysely, 1, 3);
    await setStock(tls.db.kysely, tlsSku.id, [10]);
    const overTls = await checkout(tls, checkoutBody([{ skuCode: tlsSku.code, quantity: 1 }]), { 'x-forwarded-for': uniqueIp() });
    expect(overTls.status).toBe(201);
    const [secure] = overTls.headers.getSetCookie().filter((c) => c.startsWith('order_access='));
    expect(attrs(secure)).toEqual(expect.arrayContaining(['httponly', 'samesite=lax', 'secure']));
  });
});
