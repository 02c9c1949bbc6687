import { contentSearchBody, isHomePath, type PopupContent, popupDismissKey, popupVisibility, type TPage } from '@storefront/shared';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { apiFetch } from '../../lib/api-client.ts';

export type Item = PopupContent & { body?: string };

// The pop-ups themselves (a dialog each) load only when there is one to show (decision 0030).
const loadPopups = () => import('./popups.tsx');
const CampaignPopup = lazy(() => loadPopups().then((m) => ({ default: m.CampaignPopup })));
const OfferPopup = lazy(() => loadPopups().then((m) => ({ default: m.OfferPopup })));
type Kind = 'campaign' | 'offer';

function wasDismissed(item: Item | null): boolean {
  if (!item) return false;
  try {
    return sessionStorage.getItem(popupDismissKey(item)) === '1';
  } catch {
    return false;
  }
}

function rememberDismissed(item: Item | null) {
  if (!item) return;
  try {
    sessionStorage.setItem(popupDismissKey(item), '1');
  } catch {
    // Storage may be off (private mode): the pop-up then closes for this page view only.
  }
}

/** spec §7, content search: the first item of the wanted type, or null (errors are ignored, §8). */
async function firstOfType(type: 'campaign' | 'subscription-offer'): Promise<Item | null> {
  const res = await apiFetch<TPage<Item>>('/api/cms/articles/search', { method: 'POST', body: contentSearchBody(type) });
  return res.ok ? (res.data.list.find((i) => i.type === type) ?? null) : null;
}

/**
 * The home page's pop-ups (spec §2, §4): the campaign image, and the first-order
 * subscription offer for guests. Rendered by the root layout on every page; the rules of
 * packages/shared decide what shows (home path only, live items, guests, never both).
 * A pop-up the visitor closes stays closed for the visit (session storage).
 */
export function HomePopups({ signedIn }: { signedIn: boolean }) {
  const { pathname } = useLocation();
  const home = isHomePath(pathname);
  const [content, setContent] = useState<{ campaign: Item | null; offer: Item | null } | null>(null);
  const [dismissed, setDismissed] = useState({ campaign: false, offer: false });

  useEffect(() => {
    // Fetched once, the first time the visitor is on home.
    if (!home || content) return;
    let live = true;
    Promise.all([firstOfType('campaign'), firstOfType('subscription-offer')]).then(async ([campaign, offer]) => {
      // The dialogs' code loads only when there is a pop-up to show; if it cannot, none shows.
      const shown =
        (campaign || offer) &&
        (await loadPopups().then(
          () => true,
          () => false,
        ));
      if (!live) return;
      if (!shown) return setContent({ campaign: null, offer: null });
      setDismissed({ campaign: wasDismissed(campaign), offer: wasDismissed(offer) });
      setContent({ campaign, offer });
    });
    return () => {
      live = false;
    };
  }, [home, content]);

  if (!content) return null;
  const visible = popupVisibility({ pathname, signedIn, campaign: content.campaign, offer: content.offer, dismissed });
  const dismiss = (kind: Kind) => {
    rememberDismissed(content[kind]);
    setDismissed((d) => ({ ...d, [kind]: true }));
  };

  return (
    <Suspense fallback={null}>
      {content.campaign && <CampaignPopup item={content.campaign} open={visible.campaign} onClose={() => dismiss('campaign')} />}
      {content.offer && (
        <OfferPopup item={content.offer} open={visible.offer} onClose={() => dismiss('offer')} onSubscribed={() => rememberDismissed(content.offer)} />
      )}
    </Suspense>
  );
}
