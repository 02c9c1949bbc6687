import { describe, expect, it } from 'vitest';
import { BusyError } from '../../lib/errors.ts';
import { ImageWork } from './image-work.ts';

/** A piece of work that runs until `finish()` is called, counting how many run at once. */
function gatedWork(counter: { now: number; most: number }) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return {
    finish: () => finish(),
    work: async () => {
      counter.now++;
      counter.most = Math.max(counter.most, counter.now);
      await done;
      counter.now--;
      return 'made';
    },
  };
}

describe('ImageWork (docs/decisions/0050)', () => {
  it('runs at most its concurrency at once, queues up to its queue, and refuses the rest with BusyError', async () => {
    const work = new ImageWork({ concurrency: 2, queue: 1, waitMs: 10_000 });
    const counter = { now: 0, most: 0 };
    const jobs = Array.from({ length: 4 }, () => gatedWork(counter));
    const runs = jobs.map((j) => work.run(j.work));
    // The fourth finds two running and one waiting.
    await expect(runs[3]).rejects.toBeInstanceOf(BusyError);
    await new Promise((r) => setImmediate(r));
    expect(counter.now).toBe(2);
    expect(work.gate.queued).toBe(1);
    for (const j of jobs) j.finish();
    expect(await Promise.all(runs.slice(0, 3))).toEqual(['made', 'made', 'made']);
    expect(counter.most).toBe(2);
    expect(work.gate.active).toBe(0);
  });

  it('gives the turn back when the work fails', async () => {
    const work = new ImageWork({ concurrency: 1, queue: 0, waitMs: 10_000 });
    await expect(work.run(async () => Promise.reject(new Error('not a picture')))).rejects.toThrow('not a picture');
    expect(work.gate.active).toBe(0);
    expect(await work.run(async () => 'next')).toBe('next');
  });

  it('refuses work that waited longer than it may', async () => {
    const work = new ImageWork({ concurrency: 1, queue: 5, waitMs: 20 });
    const slow = gatedWork({ now: 0, most: 0 });
    const first = work.run(slow.work);
    await expect(work.run(async () => 'late')).rejects.toBeInstanceOf(BusyError);
    slow.finish();
    expect(await first).toBe('made');
  });
});
