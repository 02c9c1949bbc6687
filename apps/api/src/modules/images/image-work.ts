import { BusyError } from '../../lib/errors.ts';
import { RenderGate, type RenderGateOptions } from '../../web/render-gate.ts';

// Decoding a picture is the costliest thing the shop does for one request: up to a few
// hundred MB and seconds of a core for the largest picture it takes (docs/decisions/0050).
// Every decode — the clean copy of an upload, each resized copy — takes a turn here: a few
// run at once (IMAGE_CONCURRENCY), so the process's memory peaks at that many pictures'
// worth whatever is asked at once; a bounded number wait (IMAGE_QUEUE), holding nothing but
// their request; the rest, and any that waited too long, are answered 503 with Retry-After
// (BusyError), as pages and searches are under overload (docs/decisions/0029).

/** A signal that never aborts: a copy or a clean upload is worth finishing once started. */
const STAYS = new AbortController().signal;

export class ImageWork {
  readonly gate: RenderGate;

  constructor(opts: RenderGateOptions) {
    this.gate = new RenderGate(opts);
  }

  /** Runs `work` in its turn; throws BusyError when no turn comes in time. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    const turn = await this.gate.admit(STAYS);
    if (!turn.ok) throw new BusyError();
    try {
      return await work();
    } finally {
      turn.release();
    }
  }
}
