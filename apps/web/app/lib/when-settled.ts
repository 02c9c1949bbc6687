/**
 * Resolves once the page has settled: its load event, then `afterMs` more, then an idle
 * moment of the browser (2 s at most). For work no shopper waits for on arrival: the home
 * pop-ups and the browser caches of later pages (decision 0046). Run earlier, that work
 * competes with the page's own first seconds (hydration, the first layouts), where every
 * long task delays the first tap.
 */
export function whenSettled(afterMs: number): Promise<void> {
  return new Promise((resolve) => {
    const idle = () => {
      const w = window as Window & { requestIdleCallback?: (cb: () => void, o?: { timeout: number }) => number };
      if (w.requestIdleCallback) w.requestIdleCallback(() => resolve(), { timeout: 2000 });
      else resolve();
    };
    const wait = () => setTimeout(idle, afterMs);
    if (document.readyState === 'complete') wait();
    else window.addEventListener('load', wait, { once: true });
  });
}
