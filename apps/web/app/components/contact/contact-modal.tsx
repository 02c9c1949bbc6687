import { CONTACT_TEXTS } from '@storefront/shared';
import { useT } from '../../lib/i18n.tsx';
import { Modal } from '../ui/modal.tsx';
import { ContactForm } from './contact-form.tsx';

/** The contact form in a modal, opened from the footer's support email (spec §2, §4). */
export function ContactModal({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
  const { t } = useT();
  return (
    <Modal open={open} onOpenChange={onOpenChange} title={t(CONTACT_TEXTS.title)} testId="contact-modal" className="md:w-[min(44rem,calc(100vw-2rem))]">
      {/* After a send the modal closes; the form's state goes with it, so it opens empty. */}
      <ContactForm showTitle={false} onSent={() => onOpenChange(false)} />
    </Modal>
  );
}
