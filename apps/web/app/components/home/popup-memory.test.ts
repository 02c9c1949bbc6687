import { describe, expect, it } from 'vitest';
import { currentMemory, isClosed, OFFER_AWAY_MS, VISIT_IDLE_MS, withClosed, withSubscribed } from './popup-memory.ts';

const T = 1_800_000_000_000;
const MIN = 60_000;

describe('what the home pop-ups remember', () => {
  it('keeps a closed pop-up closed while the visit lasts, and forgets it after 30 idle minutes', () => {
    let m = withClosed(currentMemory(null, T), 'campaign:1', 'campaign', T);
    m = currentMemory(m, T + 29 * MIN);
    expect(isClosed(m, 'campaign:1', 'campaign', T + 29 * MIN)).toBe(true);
    // Each page view keeps the visit going.
    m = currentMemory(m, T + 58 * MIN);
    expect(isClosed(m, 'campaign:1', 'campaign', T + 58 * MIN)).toBe(true);
    m = currentMemory(m, T + 58 * MIN + VISIT_IDLE_MS + 1);
    expect(isClosed(m, 'campaign:1', 'campaign', T + 58 * MIN + VISIT_IDLE_MS + 1)).toBe(false);
  });

  it('keeps the offer away for 30 days after the second visit it was closed in', () => {
    let now = T;
    let m = withClosed(currentMemory(null, now), 'offer:1', 'offer', now);
    now += 2 * VISIT_IDLE_MS;
    m = currentMemory(m, now);
    expect(isClosed(m, 'offer:1', 'offer', now)).toBe(false);
    m = withClosed(m, 'offer:1', 'offer', now);
    now += 2 * VISIT_IDLE_MS;
    m = currentMemory(m, now);
    expect(isClosed(m, 'offer:2', 'offer', now)).toBe(true);
    now += OFFER_AWAY_MS;
    m = currentMemory(m, now);
    expect(isClosed(m, 'offer:2', 'offer', now)).toBe(false);
    expect(m.offerDismissals).toBe(0);
  });

  it('keeps the offer away for 30 days after subscribing, but not the campaign', () => {
    let m = withSubscribed(currentMemory(null, T), T);
    const later = T + 3 * VISIT_IDLE_MS;
    m = currentMemory(m, later);
    expect(isClosed(m, 'offer:1', 'offer', later)).toBe(true);
    expect(isClosed(m, 'campaign:1', 'campaign', later)).toBe(false);
  });

  it('counts closing the same pop-up twice in one visit once', () => {
    let m = withClosed(currentMemory(null, T), 'offer:1', 'offer', T);
    m = withClosed(m, 'offer:1', 'offer', T + MIN);
    expect(m.offerDismissals).toBe(1);
    expect(m.offerAwayUntil).toBe(0);
  });

  it('treats anything unreadable as a first visit', () => {
    for (const stored of [null, 'x', 42, { seenAt: 'soon', closed: 'all' }, { seenAt: T + 10 * MIN, closed: ['a'] }]) {
      expect(currentMemory(stored, T)).toEqual({ seenAt: T, closed: [], offerDismissals: 0, offerAwayUntil: 0 });
    }
  });
});
