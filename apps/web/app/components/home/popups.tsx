import { POPUP_TEXTS, SUBSCRIPTION_TYPE_FIRST_TIME, subscriptionToast, validateSubscriptionEmail } from '@storefront/shared';
import { type FormEvent, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { apiFetch } from '../../lib/api-client.ts';
import { useT } from '../../lib/i18n.tsx';
import { toast } from '../../lib/toast.ts';
import { Button } from '../ui/button.tsx';
import { Modal, ModalDescription, ModalTitle } from '../ui/modal.tsx';
import type { Item } from './home-popups.tsx';

// The home page's pop-ups (spec §2, §4), loaded by HomePopups only when one is to show.

export function CampaignPopup({ item, open, onClose }: { item: Item; open: boolean; onClose(): void }) {
  const { t } = useT();
  const image = String(item.fields.image);
  const link = typeof item.fields.link === 'string' && /^\/(?!\/)/.test(item.fields.link) ? item.fields.link : null;
  // spec §9: the image is at most 80 % of the viewport high below 991 px, 50 % from 991 px.
  const img = (
    <img src={image} alt="" width={1600} height={500} className="block h-auto max-h-[80vh] w-full bg-sand-100 object-contain min-[991px]:max-h-[50vh]" />
  );
  return (
    <Modal open={open} onOpenChange={(o) => !o && onClose()} bodyClassName="p-0" testId="campaign-popup">
      {link ? (
        <Link to={link} onClick={onClose} tabIndex={-1} aria-hidden="true" className="block">
          {img}
        </Link>
      ) : (
        img
      )}
      <div className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between md:px-6">
        <div>
          <ModalTitle className="text-lg font-semibold">{item.title}</ModalTitle>
          {item.body && <ModalDescription className="text-ink-muted">{item.body}</ModalDescription>}
        </div>
        {link && (
          <Link
            to={link}
            onClick={onClose}
            className="inline-flex h-11 shrink-0 items-center justify-center rounded-lg bg-brand-700 px-5 font-semibold text-white hover:bg-brand-800"
          >
            {t('See the offer')}
          </Link>
        )}
      </div>
    </Modal>
  );
}

export function OfferPopup({ item, open, onClose, onSubscribed }: { item: Item; open: boolean; onClose(): void; onSubscribed(): void }) {
  const id = useId();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [subscribed, setSubscribed] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const { t } = useT();

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (sending) return;
    const problem = validateSubscriptionEmail(email);
    setError(problem);
    if (problem) {
      input.current?.focus();
      return;
    }
    setSending(true);
    const res = await apiFetch('/api/emails/subscriptions', {
      method: 'POST',
      body: { userId: '', email: email.trim(), extras: { offer: item.title, type: SUBSCRIPTION_TYPE_FIRST_TIME } },
    });
    setSending(false);
    // spec §8: 201 success and the field cleared; 409 already subscribed; anything else failed.
    const outcome = subscriptionToast(res.status);
    toast[outcome.type](t(outcome.message));
    if (res.status === 201) {
      setEmail('');
      setSubscribed(true);
      onSubscribed();
    }
  }

  return (
    <Modal open={open} onOpenChange={(o) => !o && onClose()} bodyClassName="p-0" testId="offer-popup" className="md:w-[min(52rem,calc(100vw-2rem))]">
      <div className="grid md:grid-cols-2">
        <img
          src={String(item.fields.image)}
          alt=""
          width={800}
          height={600}
          className="block h-auto max-h-[32vh] w-full bg-sand-100 object-cover md:h-full md:max-h-none"
        />
        <div className="flex flex-col justify-center gap-4 p-5 md:p-8">
          <div>
            <p className="text-sm font-semibold uppercase tracking-wider text-accent-600">{item.title}</p>
            <ModalTitle className="mt-1 text-3xl font-bold tracking-tight">{t(POPUP_TEXTS.offerHeading)}</ModalTitle>
            <ModalDescription className="mt-2 text-ink-muted">{t(POPUP_TEXTS.offerLine)}</ModalDescription>
          </div>
          <form noValidate onSubmit={submit} className="space-y-3">
            <div>
              <label htmlFor={`${id}-email`} className="mb-1.5 block text-sm font-medium">
                {t('Your email')}
              </label>
              <input
                ref={input}
                id={`${id}-email`}
                name="email"
                type="email"
                inputMode="email"
                autoComplete="email"
                placeholder="you@example.com"
                value={email}
                onChange={(e) => {
                  setEmail(e.target.value);
                  if (error) setError(validateSubscriptionEmail(e.target.value));
                }}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${id}-error` : undefined}
                className={`h-11 w-full rounded-lg border bg-paper px-3 ${error ? 'border-danger-600' : 'border-ink-muted/70'}`}
              />
              {error && (
                <p id={`${id}-error`} className="mt-1.5 text-sm font-medium text-danger-600">
                  {t(error)}
                </p>
              )}
            </div>
            <Button type="submit" size="lg" className="w-full" disabled={sending} aria-busy={sending || undefined}>
              {sending ? t('Subscribing…') : t('Subscribe')}
            </Button>
            {subscribed && (
              <p role="status" className="text-sm font-medium text-success-600">
                {t('You are on the list. Look out for your offer in your inbox.')}
              </p>
            )}
          </form>
        </div>
      </div>
    </Modal>
  );
}
