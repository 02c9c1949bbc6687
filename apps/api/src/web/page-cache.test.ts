import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { PageCache, withNonce } from './page-cache.ts';

const req = (url: string, headers: Record<string, string> = {}, method = 'GET') => ({ url, method, headers }) as unknown as FastifyRequest;
const cache = () => new PageCache({ ttlMs: 5000, maxBytes: 1_000_000 });

describe('the page cache', () => {
  it('keeps guests’ catalogue pages, keyed by the address, the display currency and the language', () => {
    const c = cache();
    expect(c.keyFor(req('/shop?categoryId=3'))).toBe('||/shop?categoryId=3');
    expect(c.keyFor(req('/'))).toBe('||/');
    expect(c.keyFor(req('/products/aria-sofa'))).toBe('||/products/aria-sofa');
    expect(c.keyFor(req('/details?id=4', { cookie: 'currency=USD' }))).toBe('USD||/details?id=4');
    expect(c.keyFor(req('/shop.data?categoryId=3'))).toBe('||/shop.data?categoryId=3');
    // The language cookie (docs/decisions/0038) and ?lang= each make a page of their own.
    expect(c.keyFor(req('/shop', { cookie: 'lang=bn; currency=USD' }))).toBe('USD|bn|/shop');
    expect(c.keyFor(req('/shop?lang=bn'))).toBe('||/shop?lang=bn');
    expect(c.keyFor(req('/shop', { cookie: 'lang=bn' }))).not.toBe(c.keyFor(req('/shop')));
  });

  it('never keeps a page for a signed-in customer, another cookie, another path or method', () => {
    const c = cache();
    expect(c.keyFor(req('/shop', { cookie: 'sid=abc' }))).toBeNull();
    expect(c.keyFor(req('/shop', { cookie: 'currency=USD; order-access=xyz' }))).toBeNull();
    expect(c.keyFor(req('/shop', { 'x-auth-token': 't' }))).toBeNull();
    for (const path of ['/cart', '/checkout', '/orders', '/profile', '/outlets', '/about', '/products/a/b']) expect(c.keyFor(req(path))).toBeNull();
    expect(c.keyFor(req('/shop', {}, 'POST'))).toBeNull();
    expect(c.keyFor(req('/shop', {}, 'HEAD'))).toBeNull();
    expect(new PageCache({ ttlMs: 0, maxBytes: 1 }).keyFor(req('/shop'))).toBeNull();
  });

  it('keeps only plain successful pages without cookies', () => {
    const html = (status: number, headers: Record<string, string> = {}) =>
      new Response('x', { status, headers: { 'content-type': 'text/html; charset=utf-8', ...headers } });
    expect(PageCache.cacheable(html(200))).toBe(true);
    expect(PageCache.cacheable(html(404))).toBe(false);
    expect(PageCache.cacheable(html(200, { 'set-cookie': 'a=b' }))).toBe(false);
    expect(PageCache.cacheable(new Response('{}', { headers: { 'content-type': 'application/json' } }))).toBe(false);
  });

  it('gives each answer its own nonce', () => {
    const page = { status: 200, headers: [], body: '<script nonce="AAA+/=">1</script><script nonce="AAA+/=">2</script>', nonce: 'AAA+/=' };
    expect(withNonce(page, 'BBB').toString()).toBe('<script nonce="BBB">1</script><script nonce="BBB">2</script>');
    // A nonce of the same length is written over the old one in a copy of the encoded page.
    expect(withNonce(page, 'CCC+/=').toString()).toBe('<script nonce="CCC+/=">1</script><script nonce="CCC+/=">2</script>');
    expect(withNonce(page, 'DDDDDD').toString()).toBe('<script nonce="DDDDDD">1</script><script nonce="DDDDDD">2</script>');
    const plain = { status: 200, headers: [], body: 'ünïcode, no nonce', nonce: 'AAA+/=' };
    expect(withNonce(plain, 'CCC+/=').toString()).toBe('ünïcode, no nonce');
  });

  it('a page is fresh for its lifetime', async () => {
    const c = new PageCache({ ttlMs: 20, maxBytes: 1_000_000 });
    c.set('k', { status: 200, headers: [], body: 'x', nonce: 'n' });
    expect(c.get('k')?.body).toBe('x');
    await new Promise((r) => setTimeout(r, 30));
    expect(c.get('k')).toBeNull();
  });

  it('renders a page once for everyone asking at the same moment', async () => {
    const c = cache();
    let renders = 0;
    const produce = async () => {
      renders++;
      await new Promise((r) => setTimeout(r, 10));
      return { page: { status: 200, headers: [], body: 'x', nonce: 'n' }, response: null };
    };
    const leader = c.render('k', produce);
    const waiting = [c.inFlight('k'), c.inFlight('k')];
    expect((await leader).page?.body).toBe('x');
    expect((await Promise.all(waiting)).map((p) => p?.body)).toEqual(['x', 'x']);
    expect(renders).toBe(1);
    expect(c.inFlight('k')).toBeUndefined();
    expect(c.get('k')?.body).toBe('x');
  });

  it('does not keep what may not be kept, and waiting requests then render their own', async () => {
    const c = cache();
    const job = c.render('k', async () => ({ page: null, response: new Response('nope', { status: 404 }) }));
    const waiting = c.inFlight('k');
    expect((await job).response?.status).toBe(404);
    expect(await waiting).toBeNull();
    expect(c.lookup('k')).toBeNull();
  });

  it('serves an expired page as stale for two more lifetimes', async () => {
    const c = new PageCache({ ttlMs: 20, maxBytes: 1_000_000 });
    c.set('k', { status: 200, headers: [], body: 'x', nonce: 'n' });
    await new Promise((r) => setTimeout(r, 25));
    expect(c.lookup('k')).toMatchObject({ stale: true, page: { body: 'x' } });
    await new Promise((r) => setTimeout(r, 40));
    expect(c.lookup('k')).toBeNull();
  });
});
