import { describe, expect, it } from 'vitest';
import { RenderGate } from './render-gate.ts';

const live = () => new AbortController();

describe('RenderGate', () => {
  it('runs up to its concurrency, queues up to its queue, and refuses the rest at once', async () => {
    const gate = new RenderGate({ concurrency: 2, queue: 1, waitMs: 10_000 });
    const a = await gate.admit(live().signal);
    const b = await gate.admit(live().signal);
    expect(a.ok && b.ok).toBe(true);
    const c = gate.admit(live().signal);
    expect(await gate.admit(live().signal)).toEqual({ ok: false, reason: 'full' });
    expect(gate.queued).toBe(1);
    if (a.ok) a.release();
    const granted = await c;
    expect(granted.ok).toBe(true);
    expect(gate.active).toBe(2);
    expect(gate.refused).toBe(1);
  });

  it('refuses a render that waited too long', async () => {
    const gate = new RenderGate({ concurrency: 1, queue: 5, waitMs: 20 });
    await gate.admit(live().signal);
    expect(await gate.admit(live().signal)).toEqual({ ok: false, reason: 'timeout' });
    expect(gate.queued).toBe(0);
  });

  it('drops a waiting render whose client went away, and never starts it', async () => {
    const gate = new RenderGate({ concurrency: 1, queue: 5, waitMs: 10_000 });
    const first = await gate.admit(live().signal);
    const gone = live();
    const waiting = gate.admit(gone.signal);
    const next = gate.admit(live().signal);
    gone.abort();
    expect(await waiting).toEqual({ ok: false, reason: 'gone' });
    if (first.ok) first.release();
    expect((await next).ok).toBe(true);
    expect(gate.active).toBe(1);
  });

  it('a release counts once', async () => {
    const gate = new RenderGate({ concurrency: 1, queue: 0, waitMs: 10 });
    const a = await gate.admit(live().signal);
    if (a.ok) {
      a.release();
      a.release();
    }
    expect(gate.active).toBe(0);
  });

  it('sees everything that arrived in one pass of the event loop before any of it runs, even when the work never yields', async () => {
    // Each arrival is its own callback, as requests read from different sockets are; the
    // work is synchronous, as a search on SQLite is. Were a turn granted at once, each
    // arrival would run to its end before the next one was even seen, and none refused.
    const gate = new RenderGate({ concurrency: 2, queue: 3, waitMs: 10_000 });
    const outcomes: string[] = [];
    const done: Promise<void>[] = [];
    await new Promise<void>((arrived) => {
      for (let i = 0; i < 10; i++) {
        setImmediate(() => {
          done.push(
            gate.admit(live().signal).then((turn) => {
              if (!turn.ok) return void outcomes.push(turn.reason);
              const until = Date.now() + 5;
              while (Date.now() < until);
              outcomes.push('ran');
              turn.release();
            }),
          );
          if (i === 9) arrived();
        });
      }
    });
    await Promise.all(done);
    expect(outcomes.filter((o) => o === 'full')).toHaveLength(5);
    expect(outcomes.filter((o) => o === 'ran')).toHaveLength(5);
  });

  it('refuses a waiter whose turn comes after its wait was over, though its timer could not fire', async () => {
    const gate = new RenderGate({ concurrency: 1, queue: 1, waitMs: 20 });
    const first = await gate.admit(live().signal);
    const waiting = gate.admit(live().signal);
    // The thread is busy past the waiter's deadline; then the running turn ends.
    const until = Date.now() + 40;
    while (Date.now() < until);
    if (first.ok) first.release();
    expect(await waiting).toEqual({ ok: false, reason: 'timeout' });
  });
});
