// Server rendering under overload (docs/decisions/0029). A page render costs milliseconds
// of the one thread; beyond what the process can serve, waiting renders used to pile up
// until every shopper waited seconds and clients gave up on answers still being computed.
// The gate lets `concurrency` renders run, keeps at most `queue` more waiting (first come,
// first served) for at most `waitMs`, and refuses the rest at once: the caller answers 503
// with Retry-After, which a browser, a crawler or a load balancer knows how to handle. A
// waiting render whose client has gone is dropped without being started.
//
// A turn is handed over on the next turn of the event loop (setImmediate), never in the
// same one: with a synchronous database (SQLite) a whole search or render runs without
// yielding, so a turn granted at once would run to its end before the requests that
// arrived meanwhile were even read, and the gate would only ever see one at a time: no
// request refused, latency growing without bound. Deferred, everything that arrived in one
// pass of the event loop reaches the gate first; and a waiter granted a turn after waiting
// longer than `waitMs` (its timer could not fire while the thread was busy) is refused.

export interface RenderGateOptions {
  /** Renders that run at once. */
  concurrency: number;
  /** Renders that may wait for a turn; more are refused. */
  queue: number;
  /** How long a render may wait for its turn before it is refused. */
  waitMs: number;
}

export type Admission = { ok: true; release: () => void } | { ok: false; reason: 'full' | 'timeout' | 'gone' };

interface Waiter {
  grant: (a: Admission) => void;
  timer: NodeJS.Timeout;
  since: number;
  signal: AbortSignal;
  onAbort: () => void;
}

export class RenderGate {
  private running = 0;
  private readonly waiting: Waiter[] = [];
  /** Renders refused since the start (for /metrics). */
  refused = 0;

  constructor(readonly opts: RenderGateOptions) {}

  get active() {
    return this.running;
  }

  get queued() {
    return this.waiting.length;
  }

  /** Waits for a turn: `release()` must be called when the render is done (ok), else the answer is a refusal. */
  admit(signal: AbortSignal): Promise<Admission> {
    if (signal.aborted) return Promise.resolve({ ok: false, reason: 'gone' });
    if (this.running < this.opts.concurrency) {
      const turn = this.start();
      return new Promise((resolve) => setImmediate(() => resolve(turn)));
    }
    if (this.waiting.length >= this.opts.queue) {
      this.refused++;
      return Promise.resolve({ ok: false, reason: 'full' });
    }
    return new Promise<Admission>((resolve) => {
      const waiter: Waiter = {
        grant: resolve,
        since: Date.now(),
        signal,
        timer: setTimeout(() => {
          this.drop(waiter);
          this.refused++;
          resolve({ ok: false, reason: 'timeout' });
        }, this.opts.waitMs),
        onAbort: () => {
          this.drop(waiter);
          resolve({ ok: false, reason: 'gone' });
        },
      };
      signal.addEventListener('abort', waiter.onAbort, { once: true });
      this.waiting.push(waiter);
    });
  }

  private start(): Admission {
    this.running++;
    let released = false;
    return {
      ok: true,
      release: () => {
        if (released) return;
        released = true;
        this.running--;
        this.next();
      },
    };
  }

  private next() {
    while (this.running < this.opts.concurrency && this.waiting.length) {
      const w = this.waiting.shift()!;
      clearTimeout(w.timer);
      w.signal.removeEventListener('abort', w.onAbort);
      if (w.signal.aborted) {
        w.grant({ ok: false, reason: 'gone' });
        continue;
      }
      if (Date.now() - w.since > this.opts.waitMs) {
        this.refused++;
        w.grant({ ok: false, reason: 'timeout' });
        continue;
      }
      const turn = this.start();
      setImmediate(() => w.grant(turn));
    }
  }

  private drop(w: Waiter) {
    const i = this.waiting.indexOf(w);
    if (i >= 0) this.waiting.splice(i, 1);
    clearTimeout(w.timer);
    w.signal.removeEventListener('abort', w.onAbort);
  }
}
