import { afterEach, describe, expect, it, vi } from 'vitest';
import { etagOf, ReadCache } from './read-cache.ts';

const options = { ttlMs: 1000, staleMs: 5000, maxEntries: 3, maxBytes: 1_000_000 };

afterEach(() => vi.useRealTimers());

describe('ReadCache', () => {
  it('computes once and serves the same body and ETag after', async () => {
    const c = new ReadCache(options);
    const produce = vi.fn(async () => '{"a":1}');
    const a = await c.get('k', produce);
    const b = await c.get('k', produce);
    expect(produce).toHaveBeenCalledTimes(1);
    expect(b).toMatchObject({ body: '{"a":1}', etag: etagOf('{"a":1}') });
    expect(a.etag).toBe(b.etag);
  });

  it('shares one computation between concurrent misses', async () => {
    const c = new ReadCache(options);
    let calls = 0;
    const produce = () => new Promise<string>((r) => setTimeout(() => r(String(++calls)), 10));
    const all = await Promise.all([c.get('k', produce), c.get('k', produce), c.get('k', produce)]);
    expect(calls).toBe(1);
    expect(new Set(all.map((x) => x.body))).toEqual(new Set(['1']));
  });

  it('serves a stale entry while one refresh replaces it', async () => {
    vi.useFakeTimers({ now: 0 });
    const c = new ReadCache(options);
    let n = 0;
    const produce = async () => String(++n);
    expect((await c.get('k', produce)).body).toBe('1');
    vi.setSystemTime(1500);
    expect((await c.get('k', produce)).body).toBe('1');
    await Promise.resolve();
    await Promise.resolve();
    expect((await c.get('k', produce)).body).toBe('2');
    expect(n).toBe(2);
    vi.setSystemTime(100_000);
    expect((await c.get('k', produce)).body).toBe('3');
  });

  it('forgets the least recently used entry beyond its size, and everything on clear()', async () => {
    const c = new ReadCache(options);
    for (const k of ['a', 'b', 'c']) await c.get(k, async () => k);
    await c.get('a', async () => 'x');
    await c.get('d', async () => 'd');
    expect(c.size).toBe(3);
    const produce = vi.fn(async () => 'B');
    expect((await c.get('b', produce)).body).toBe('B');
    expect((await c.get('a', async () => 'y')).body).toBe('a');
    c.clear();
    expect(c.size).toBe(0);
  });

  it('a failed computation is not cached', async () => {
    const c = new ReadCache(options);
    await expect(c.get('k', async () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect((await c.get('k', async () => 'ok')).body).toBe('ok');
  });

  it('with a lifetime of 0 computes every time', async () => {
    const c = new ReadCache({ ...options, ttlMs: 0 });
    let n = 0;
    await c.get('k', async () => String(++n));
    await c.get('k', async () => String(++n));
    expect(n).toBe(2);
  });
});
