// What the home pop-ups remember between pages and tabs (spec §4: a closed pop-up stays
// closed; decided here how long).
//
// A visit, as web analytics count one: it ends after 30 minutes without a page view.
// Kept in localStorage with the time of the last page view, so every tab of the visit shares
// it (sessionStorage is one tab's: a pop-up closed in one tab came back in each new one).
// Not a session cookie: browsers that restore the last session ("continue where you left
// off", and phones, where the browser is seldom closed) keep session cookies for days, so a
// visit would never end; and a cookie would travel with every request for nothing.
//
// The subscription offer stays away for 30 days once the shopper subscribed from it, or
// closed it in two visits: asking a third time within the month is nagging.

export const POPUP_MEMORY_KEY = 'home-popups';
export const VISIT_IDLE_MS = 30 * 60 * 1000;
export const OFFER_AWAY_MS = 30 * 24 * 60 * 60 * 1000;
/** Closing the offer this many times (once per visit at most) keeps it away for OFFER_AWAY_MS. */
export const OFFER_DISMISSALS_TO_REST = 2;

export interface PopupMemory {
  /** The last page view of the visit (ms since the epoch). */
  seenAt: number;
  /** The pop-ups (popupDismissKey) closed during this visit. */
  closed: string[];
  /** How many visits the offer was closed in, since it last rested. */
  offerDismissals: number;
  /** No offer before this time (ms since the epoch); 0 for none. */
  offerAwayUntil: number;
}

/** The memory as it stands at `now`: a visit idle for longer than VISIT_IDLE_MS is over, and what it closed is forgotten. */
export function currentMemory(stored: unknown, now: number): PopupMemory {
  const m = (stored && typeof stored === 'object' ? stored : {}) as Partial<PopupMemory>;
  const seenAt = typeof m.seenAt === 'number' && m.seenAt <= now ? m.seenAt : 0;
  const sameVisit = now - seenAt <= VISIT_IDLE_MS;
  return {
    seenAt: now,
    closed: sameVisit && Array.isArray(m.closed) ? m.closed.filter((k): k is string => typeof k === 'string').slice(-20) : [],
    offerDismissals: typeof m.offerDismissals === 'number' && m.offerDismissals > 0 ? Math.floor(m.offerDismissals) : 0,
    offerAwayUntil: typeof m.offerAwayUntil === 'number' && m.offerAwayUntil > now ? m.offerAwayUntil : 0,
  };
}

export function isClosed(m: PopupMemory, key: string, kind: 'campaign' | 'offer', now: number): boolean {
  return m.closed.includes(key) || (kind === 'offer' && m.offerAwayUntil > now);
}

/** After the shopper closes a pop-up. */
export function withClosed(m: PopupMemory, key: string, kind: 'campaign' | 'offer', now: number): PopupMemory {
  if (m.closed.includes(key)) return m;
  const next = { ...m, seenAt: now, closed: [...m.closed, key] };
  if (kind !== 'offer') return next;
  const dismissals = m.offerDismissals + 1;
  return dismissals >= OFFER_DISMISSALS_TO_REST
    ? { ...next, offerDismissals: 0, offerAwayUntil: now + OFFER_AWAY_MS }
    : { ...next, offerDismissals: dismissals };
}

/** After the shopper subscribed from the offer. */
export function withSubscribed(m: PopupMemory, now: number): PopupMemory {
  return { ...m, seenAt: now, offerDismissals: 0, offerAwayUntil: now + OFFER_AWAY_MS };
}
