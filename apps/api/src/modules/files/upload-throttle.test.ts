import { describe, expect, it } from 'vitest';
import { UploadThrottle } from './upload-throttle.ts';

describe('UploadThrottle', () => {
  it('allows a burst, then one request per refill, and says how long to wait', () => {
    const t = new UploadThrottle({ burst: 2, refillMs: 15_000 });
    expect(t.take('a', 0)).toBeNull();
    expect(t.take('a', 1)).toBeNull();
    expect(t.take('a', 2)).toBe(15);
    expect(t.take('a', 10_000)).toBe(5);
    expect(t.take('a', 15_000)).toBeNull();
    expect(t.take('a', 15_001)).toBe(15);
    // Another client has its own bucket.
    expect(t.take('b', 15_001)).toBeNull();
  });

  it('refills to the burst and no further', () => {
    const t = new UploadThrottle({ burst: 2, refillMs: 1000 });
    t.take('a', 0);
    t.take('a', 0);
    expect(t.take('a', 1_000_000)).toBeNull();
    expect(t.take('a', 1_000_000)).toBeNull();
    expect(t.take('a', 1_000_000)).toBe(1);
  });
});
