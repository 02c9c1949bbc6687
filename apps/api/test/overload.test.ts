import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/config.ts';
import { startTestApp, TEST_API_KEY, type TestApp } from './helpers/test-app.ts';

// Beyond what it can render or search, the shop answers at once with 503 and Retry-After rather than
// making every shopper wait (docs/decisions/0029). One render at a time here; the test
// holds that turn itself, so that what the pages meet does not depend on timing.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({
    config: {
      webBuildDir: path.join(REPO_ROOT, 'apps/web/build'),
      pageCacheMs: 0,
      renders: { concurrency: 1, queue: 2, waitMs: 5_000 },
      searches: { concurrency: 1, queue: 2, waitMs: 5_000 },
    },
  });
});
afterAll(() => t?.close());

async function holdTheTurn(): Promise<() => void> {
  const turn = await t.app.renderGate!.admit(new AbortController().signal);
  if (!turn.ok) throw new Error('the turn was not free');
  return turn.release;
}

describe('overload', () => {
  it('refuses pages beyond the queue at once with 503, Retry-After and a page saying so', async () => {
    const release = await holdTheTurn();
    const queued = [fetch(`${t.baseUrl}/cart`), fetch(`${t.baseUrl}/cart`)];
    await new Promise((r) => setTimeout(r, 200));
    const refused = await fetch(`${t.baseUrl}/cart`);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('2');
    expect(refused.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await refused.text()).toContain('The shop is very busy right now');
    // The waiting ones are rendered once the turn is free.
    release();
    const served = await Promise.all(queued);
    expect(served.map((r) => r.status)).toEqual([200, 200]);
    await Promise.all(served.map((r) => r.text()));
    expect(t.app.renderGate!.refused).toBe(1);
  });

  it('refuses catalogue searches beyond the queue with 503 in the API error shape, and serves the waiting ones', async () => {
    const turn = await t.app.searchGate.admit(new AbortController().signal);
    if (!turn.ok) throw new Error('the turn was not free');
    const search = (word: string) =>
      fetch(`${t.baseUrl}/api/search/indices/items`, {
        method: 'POST',
        headers: { 'x-api-key': TEST_API_KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ textParams: [{ field: 'query', value: word }], fetchCount: true }),
      });
    const queued = [search('SOFA'), search('BED')];
    await new Promise((r) => setTimeout(r, 200));
    const refused = await search('TABLE');
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('2');
    expect(await refused.json()).toEqual({ error: { code: 'service_unavailable', message: expect.stringContaining('very busy') } });
    turn.release();
    const served = await Promise.all(queued);
    expect(served.map((r) => r.status)).toEqual([200, 200]);
    await Promise.all(served.map((r) => r.json()));
  });

  it('refuses a page that waited longer than the wait allows', async () => {
    const app = await startTestApp({
      config: { webBuildDir: path.join(REPO_ROOT, 'apps/web/build'), pageCacheMs: 0, renders: { concurrency: 1, queue: 5, waitMs: 300 } },
    });
    try {
      const turn = await app.app.renderGate!.admit(new AbortController().signal);
      const started = Date.now();
      const res = await fetch(`${app.baseUrl}/cart`);
      expect(res.status).toBe(503);
      await res.text();
      expect(Date.now() - started).toBeLessThan(5_000);
      if (turn.ok) turn.release();
      const again = await fetch(`${app.baseUrl}/cart`);
      expect(again.status).toBe(200);
      await again.text();
    } finally {
      await app.close();
    }
  });
});
