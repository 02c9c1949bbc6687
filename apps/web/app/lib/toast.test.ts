import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getToasts, subscribeToasts, toast } from './toast.ts';

// The toast store (spec §3 notification options, §4, §9) without a browser: timers are
// faked, so durations are exact.

describe('toasts', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    // The store only schedules removals where there is a window (never during SSR).
    vi.stubGlobal('window', {});
  });
  afterEach(() => {
    for (const t of getToasts()) toast.dismiss(t.id);
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it("the shop's success and error toasts: bottom right, 2000 ms, not dismissible", () => {
    toast.success('Subscription Successful');
    toast.error('Failed to Subscribe');
    expect(getToasts()).toEqual([
      expect.objectContaining({ type: 'success', message: 'Subscription Successful', duration: 2000, position: 'bottom-right', dismissible: false }),
      expect.objectContaining({ type: 'error', message: 'Failed to Subscribe', duration: 2000, position: 'bottom-right', dismissible: false }),
    ]);
    vi.advanceTimersByTime(1999);
    expect(getToasts()).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(getToasts()).toHaveLength(0);
  });

  it('the general toolkit defaults to 5000 ms and dismissible', () => {
    const id = toast.show({ type: 'success', message: 'Saved' });
    expect(getToasts()[0]).toMatchObject({ id, duration: 5000, dismissible: true, position: 'bottom-right', ripple: false });
    vi.advanceTimersByTime(4999);
    expect(getToasts()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(getToasts()).toHaveLength(0);
  });

  it('a dismissible toast closes at once when dismissed (clicked) and its timer is dropped', () => {
    const id = toast.show({ type: 'error', message: 'Oops' });
    toast.dismiss(id);
    expect(getToasts()).toHaveLength(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('takes every notification option of spec §3', () => {
    toast.success('Top', { duration: 800, position: 'top-center', ripple: true, dismissible: true });
    expect(getToasts()[0]).toMatchObject({ duration: 800, position: 'top-center', ripple: true, dismissible: true });
    vi.advanceTimersByTime(800);
    expect(getToasts()).toHaveLength(0);
  });

  it('keeps a toast with duration 0 until it is dismissed', () => {
    const id = toast.show({ type: 'success', message: 'Sticky', duration: 0 });
    vi.advanceTimersByTime(60_000);
    expect(getToasts()).toHaveLength(1);
    toast.dismiss(id);
    expect(getToasts()).toHaveLength(0);
  });

  it('tells subscribers about every change, and stops when they unsubscribe', () => {
    const seen: number[] = [];
    const stop = subscribeToasts((list) => seen.push(list.length));
    toast.success('a');
    toast.error('b');
    vi.advanceTimersByTime(2000);
    stop();
    toast.success('c');
    expect(seen).toEqual([1, 2, 1, 0]);
  });
});
