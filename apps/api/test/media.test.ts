import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectApiError } from './helpers/assertions.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ seed: false });
});
afterAll(() => t?.close());

describe('generated demo pictures under /media', () => {
  it('a product picture is an SVG cached for a year as immutable', async () => {
    const res = await fetch(`${t.baseUrl}/media/demo/sofa/7d8790.svg`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    const cache = res.headers.get('cache-control') ?? '';
    expect(cache).toContain('immutable');
    expect(cache).toContain('max-age=31536000');
    expect(cache).toContain('public');
    const text = await res.text();
    expect(text).toMatch(/^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(text).toContain('#7d8790');
    // An SVG opened on its own runs no script.
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
  });

  it('the same URL always draws the same picture', async () => {
    const a = await (await fetch(`${t.baseUrl}/media/demo/bed/6a4c3a.svg`)).text();
    const b = await (await fetch(`${t.baseUrl}/media/demo/bed/6a4c3a.svg`)).text();
    expect(a).toBe(b);
  });

  it('every picture the seed refers to is served', async () => {
    const seeded = await startTestApp();
    try {
      const urls = new Set<string>();
      for (const r of await seeded.db.kysely.selectFrom('product_images').select('url').execute()) urls.add(r.url);
      for (const r of await seeded.db.kysely.selectFrom('categories').select(['image_url', 'banner_url']).execute()) {
        if (r.image_url) urls.add(r.image_url);
        if (r.banner_url) urls.add(r.banner_url);
      }
      for (const r of await seeded.db.kysely.selectFrom('currencies').select('image_url').execute()) urls.add(r.image_url);
      expect(urls.size).toBeGreaterThan(10);
      for (const url of urls) {
        const res = await fetch(`${seeded.baseUrl}${url}`);
        expect(res.status, url).toBe(200);
        expect(res.headers.get('content-type'), url).toMatch(/^image\/svg\+xml/);
        await res.arrayBuffer();
      }
    } finally {
      await seeded.close();
    }
  });

  it('banners, flags and payment badges are served too', async () => {
    for (const p of ['/media/banner/sofa/5f7a8a.svg?t=Monsoon%20Living', '/media/flags/BDT.svg', '/media/badges/visa.svg']) {
      const res = await fetch(`${t.baseUrl}${p}`);
      expect(res.status, p).toBe(200);
      expect(res.headers.get('content-type'), p).toMatch(/^image\/svg\+xml/);
    }
  });

  it('a banner heading cannot inject markup', async () => {
    const res = await fetch(`${t.baseUrl}/media/banner/sofa/5f7a8a.svg?t=${encodeURIComponent('<script>alert(1)</script>')}`);
    expect(await res.text()).not.toContain('<script');
  });

  it('a bad colour or an unknown shape is a JSON 404', async () => {
    for (const p of [
      '/media/demo/sofa/zzzzzz.svg',
      '/media/demo/sofa/7d879.svg',
      '/media/demo/sofa/7d87900.svg',
      '/media/demo/spaceship/7d8790.svg',
      '/media/demo/__proto__/7d8790.svg',
      '/media/banner/sofa/red.svg',
      '/media/flags/XXX.svg',
      '/media/badges/nope.svg',
      // Names of Object.prototype members are not pictures either.
      '/media/badges/toString.svg',
      '/media/badges/constructor.svg',
      '/media/badges/__proto__.svg',
      '/media/flags/constructor.svg',
      '/media/flags/__proto__.svg',
    ]) {
      const res = await t.api(p, { apiKey: null });
      expect(res.status, p).toBe(404);
      expectApiError(res, 404, 'not_found');
    }
  });
});
