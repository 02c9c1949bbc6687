// Business constants of spec §9, in one place so the server and the browser agree.

export const DEFAULT_CURRENCY = {
  sourceId: 'BDT',
  sourceCountry: 'bangladesh',
  rate: 1,
  numCode: '+88',
} as const;

export const PASSWORD_MIN_LENGTH = 6;

export const PAGE_SIZE = {
  category: 50,
  discount: 100,
  currency: 10,
  wishlist: 10,
  attribute: 50,
  contentSearch: 100,
} as const;

/** Largest page any paged search returns, whatever the client asks for. */
export const MAX_PAGE_SIZE = 100;

export const CACHE_LIFETIME_MS = {
  categories: 24 * 60 * 60 * 1000,
  attributes: 24 * 60 * 60 * 1000,
} as const;

export const BUILD_CHECK_INTERVAL_MS = 60 * 60 * 1000;
export const RELOAD_GUARD_MS = 10_000;

export const TOAST = {
  defaultDurationMs: 5000,
  shopDurationMs: 2000,
} as const;

export const CAROUSEL_INTERVAL_MS = 5000;
export const SWIPE_THRESHOLD_PX = 40;
export const NAV_FIXED_SCROLL_PX = 110;
export const NARROW_SCREEN_PX = 991;

export const UPLOAD = {
  maxBytes: 50 * 1024 * 1024,
  multipartFromBytes: 25 * 1024 * 1024,
  chunkBytes: 5 * 1024 * 1024,
  minLastPartBytes: 1024 * 1024,
  concurrency: 4,
  defaultRetryAfterS: 15,
  pollIntervalMs: 500,
  networkRetries: 3,
  networkBackoffMs: 1000,
  /** A throttled (429) request is retried this many times, waiting for its Retry-After. */
  throttleRetries: 3,
  socketIdleMs: 30_000,
} as const;

/** Model numbers of the catalogue start with these prefixes (spec §5, search). */
export const MODEL_CODE_PREFIXES = ['AFL-', 'DFL-'] as const;
