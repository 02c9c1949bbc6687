import { UPLOAD } from '@storefront/shared';

export interface ThrottleOptions {
  /** Requests a client may make in a burst. */
  burst: number;
  /** One more request is allowed every this many ms. */
  refillMs: number;
}

/**
 * A token bucket per client (customer, or address for a guest). Refilling one token at a
 * time keeps the wait short and predictable: a throttled client is told to come back when
 * its next token is due, at most `refillMs` later (spec §9: Retry-After, 15 s by default).
 * Kept in process memory: with several processes each allows its own burst, which only
 * loosens a limit that is about abuse, not about correctness.
 */
export class UploadThrottle {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(readonly opts: ThrottleOptions) {}

  /** Takes a token: null when allowed, otherwise the seconds to wait (Retry-After). */
  take(key: string, now: number = Date.now()): number | null {
    let b = this.buckets.get(key);
    if (!b) {
      if (this.buckets.size > 50_000) this.prune(now);
      b = { tokens: this.opts.burst, at: now };
      this.buckets.set(key, b);
    }
    const earned = Math.floor((now - b.at) / this.opts.refillMs);
    if (earned > 0) {
      b.tokens = Math.min(this.opts.burst, b.tokens + earned);
      b.at = b.tokens === this.opts.burst ? now : b.at + earned * this.opts.refillMs;
    }
    if (b.tokens > 0) {
      b.tokens -= 1;
      return null;
    }
    return Math.max(1, Math.ceil((b.at + this.opts.refillMs - now) / 1000));
  }

  private prune(now: number) {
    for (const [key, b] of this.buckets) {
      if (now - b.at >= this.opts.refillMs * this.opts.burst) this.buckets.delete(key);
    }
  }
}

/** Starting an upload (direct, multipart or from a URL): 20 at once, then one every 15 s. */
export const DEFAULT_START_THROTTLE: ThrottleOptions = { burst: 20, refillMs: UPLOAD.defaultRetryAfterS * 1000 };
/** Sending parts of multipart uploads (a 50 MB file is 10 parts): 60 at once, then one a second. */
export const DEFAULT_PART_THROTTLE: ThrottleOptions = { burst: 60, refillMs: 1000 };
