/** Work done between two pauses for the event loop (docs/decisions/0051). */
const SLICE_MS = 8;

/** Lets the event loop run what waits (timers, sockets, other requests) before going on. */
export const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * For a long loop on the request path: call the answer on each turn and await it; once a few
 * milliseconds of work have passed since the last pause, it pauses for the event loop, so
 * other requests are answered meanwhile (docs/decisions/0051). Awaiting queries is not
 * enough on SQLite: better-sqlite3 answers at once, and the awaits chain without ever
 * leaving the current turn of the loop.
 */
export function timeSlices(ms = SLICE_MS): () => Promise<void> | undefined {
  let since = performance.now();
  return () => {
    if (performance.now() - since < ms) return undefined;
    return yieldToEventLoop().then(() => {
      since = performance.now();
    });
  };
}
