import { lazy, type MouseEvent, Suspense, useState } from 'react';
import { useLoadedWhenOpen } from '../ui/first-use.tsx';

// The contact form loads when the shopper first opens it, not with every page.
const loadContactModal = () => import('./contact-modal.tsx');
const ContactModal = lazy(() => loadContactModal().then((m) => ({ default: m.ContactModal })));

/**
 * The footer's support email (spec §2): a click opens the contact form in a modal. It
 * stays a mailto link underneath, so it still works before the page's script has loaded,
 * and a modified click (new window, copy) keeps the browser's own behaviour.
 */
export function SupportEmailLink({ email, className }: { email: string; className?: string }) {
  const [open, setOpen] = useState(false);
  const loaded = useLoadedWhenOpen(open, loadContactModal, () => setOpen(false));
  function onClick(e: MouseEvent<HTMLAnchorElement>) {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    setOpen(true);
  }
  return (
    <>
      <a className={className} href={`mailto:${email}`} onClick={onClick} aria-haspopup="dialog" data-support-email>
        {email}
      </a>
      {loaded && (
        <Suspense fallback={null}>
          <ContactModal open={open} onOpenChange={setOpen} />
        </Suspense>
      )}
    </>
  );
}
