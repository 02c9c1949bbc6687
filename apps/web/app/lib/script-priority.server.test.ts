import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { lowPriorityPreloads, scriptsAfterContent } from './script-priority.server.ts';

const HEAD =
  '<!DOCTYPE html><html lang="bn"><head><title>নিবাস ফার্নিচার</title><link rel="stylesheet" href="/assets/app.css" data-precedence="high"/>' +
  '<link rel="modulepreload" href="/assets/entry.client.js" nonce="n"/><link rel="modulepreload" href="/assets/vendor.js" nonce="n"/></head>';
const BODY =
  '<body><p>সোফা ৳১,২৩,৪৫৬.০০</p><link rel="modulepreload" href="/assets/later.js"/><script type="module">import "/assets/entry.client.js"</script></body></html>';

/** The page through the transform, cut into chunks of `size` bytes (splitting Bangla characters). */
async function through(html: string, size: number): Promise<string> {
  const bytes = Buffer.from(html);
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
  return (await buffer(Readable.from(chunks).pipe(scriptsAfterContent()))).toString('utf8');
}

describe('page scripts at low priority (decision 0046)', () => {
  it('marks every module preload of the head, and nothing else', () => {
    const out = lowPriorityPreloads(HEAD);
    expect(out.match(/<link rel="modulepreload" fetchpriority="low" /g)).toHaveLength(2);
    expect(out).toContain('<link rel="stylesheet" href="/assets/app.css" data-precedence="high"/>');
  });

  it('streams the same page whatever the chunks, a Bangla character cut in two included', async () => {
    const expected = lowPriorityPreloads(HEAD) + BODY;
    for (const size of [1, 2, 3, 7, 64, 100_000]) expect(await through(HEAD + BODY, size)).toBe(expected);
  });

  it('leaves the body alone, and a page without a head whole', async () => {
    expect(await through(HEAD + BODY, 5)).toContain('<link rel="modulepreload" href="/assets/later.js"/>');
    expect(await through(BODY, 4)).toBe(BODY);
  });
});
