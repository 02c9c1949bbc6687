import { contentSearchBody, isHomePath, type PopupContent, popupDismissKey, popupVisibility, type TPage } from '@storefront/shared';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { apiFetch } from '../../lib/api-client.ts';
import { whenSettled } from '../../lib/when-settled.ts';
import { currentMemory, isClosed, POPUP_MEMORY_KEY, type PopupMemory, withClosed, withSubscribed } from './popup-memory.ts';

export type Item = PopupContent & { body?: string };

// The pop-ups themselves (a dialog each) load only when there is one to show (decision 0030).
const loadPopups = () => import('./popups.tsx');
const CampaignPopup = lazy(() => loadPopups().then((m) => ({ default: m.CampaignPopup })));
const OfferPopup = lazy(() => loadPopups().then((m) => ({ default: m.OfferPopup })));
type Kind = 'campaign' | 'offer';

type Stored = { memory: PopupMemory; now: number };

/** The pop-ups' memory (popup-memory.ts), read at a page view; null where storage is off. */
function load(): Stored | null {
  const now = Date.now();
  let raw: string | null;
  try {
    raw = localStorage.getItem(POPUP_MEMORY_KEY);
  } catch {
    return null;
  }
  let stored: unknown = null;
  try {
    stored = JSON.parse(raw ?? 'null');
  } catch {
    // Unreadable: start afresh (currentMemory treats it as a first visit).
  }
  return { memory: currentMemory(stored, now), now };
}

function save(memory: PopupMemory) {
  try {
    localStorage.setItem(POPUP_MEMORY_KEY, JSON.stringify(memory));
  } catch {
    // Storage may be off (private mode): the pop-up then closes for this page view only.
  }
}

function wasDismissed(item: Item | null, kind: Kind): boolean {
  if (!item) return false;
  const key = popupDismissKey(item);
  const stored = load();
  if (stored && isClosed(stored.memory, key, kind, stored.now)) return true;
  // Closed in this tab before pop-ups were remembered across tabs (and how the e2e
  // fixture skips them in one tab only).
  try {
    return sessionStorage.getItem(key) === '1';
  } catch {
    return false;
  }
}

function rememberDismissed(item: Item | null, kind: Kind) {
  const stored = item && load();
  if (stored) save(withClosed(stored.memory, popupDismissKey(item), kind, stored.now));
}

function rememberSubscribed() {
  const stored = load();
  if (stored) save(withSubscribed(stored.memory, stored.now));
}

/** How long after the page's load the pop-ups are asked for (decision 0046). */
export const POPUP_DELAY_MS = 5000;

/** spec §7, content search: the first item of the wanted type, or null (errors are ignored, §8). */
async function firstOfType(type: 'campaign' | 'subscription-offer'): Promise<Item | null> {
  const res = await apiFetch<TPage<Item>>('/api/cms/articles/search', { method: 'POST', body: contentSearchBody(type) });
  return res.ok ? (res.data.list.find((i) => i.type === type) ?? null) : null;
}

/**
 * The home page's pop-ups (spec §2, §4): the campaign image, and the first-order
 * subscription offer for guests. Rendered by the root layout on every page; the rules of
 * packages/shared decide what shows (home path only, live items, guests, never both).
 * A pop-up the visitor closes stays closed for the visit, in every tab; the offer rests for
 * 30 days once subscribed to or closed in two visits (popup-memory.ts).
 */
export function HomePopups({ signedIn }: { signedIn: boolean }) {
  const { pathname } = useLocation();
  const home = isHomePath(pathname);
  const [content, setContent] = useState<{ campaign: Item | null; offer: Item | null } | null>(null);
  const [dismissed, setDismissed] = useState({ campaign: false, offer: false });

  // Every page view keeps the visit going (a visit ends after 30 idle minutes).
  // biome-ignore lint/correctness/useExhaustiveDependencies: the trigger is the page view.
  useEffect(() => {
    const stored = load();
    if (stored) save(stored.memory);
  }, [pathname]);

  useEffect(() => {
    // Fetched once, the first time the visitor is on home.
    if (!home || content) return;
    let live = true;
    // Asked for a few seconds after the page has loaded: a pop-up is never the first thing a
    // shopper needs, one that covers the page on arrival is the kind search engines count
    // against a page, and opening it (its focus trap lays the whole page out) should not
    // fall on the page's first, busiest moments (decision 0046).
    void (async () => {
      await whenSettled(POPUP_DELAY_MS);
      if (!live) return;
      const [campaign, offer] = await Promise.all([firstOfType('campaign'), firstOfType('subscription-offer')]);
      // The dialogs' code loads only when there is a pop-up to show; if it cannot, none shows.
      const shown =
        (campaign || offer) &&
        (await loadPopups().then(
          () => true,
          () => false,
        ));
      if (!live) return;
      if (!shown) return setContent({ campaign: null, offer: null });
      setDismissed({ campaign: wasDismissed(campaign, 'campaign'), offer: wasDismissed(offer, 'offer') });
      setContent({ campaign, offer });
    })();
    return () => {
      live = false;
    };
  }, [home, content]);

  if (!content) return null;
  const visible = popupVisibility({ pathname, signedIn, campaign: content.campaign, offer: content.offer, dismissed });
  const dismiss = (kind: Kind) => {
    rememberDismissed(content[kind], kind);
    setDismissed((d) => ({ ...d, [kind]: true }));
  };

  return (
    <Suspense fallback={null}>
      {content.campaign && <CampaignPopup item={content.campaign} open={visible.campaign} onClose={() => dismiss('campaign')} />}
      {content.offer && <OfferPopup item={content.offer} open={visible.offer} onClose={() => dismiss('offer')} onSubscribed={rememberSubscribed} />}
    </Suspense>
  );
}
