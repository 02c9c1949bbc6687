import { CONTACT_FIELDS, CONTACT_LIMITS, CONTACT_TEXTS, type ContactField, type ContactForm as TContactForm, validateContactForm } from '@storefront/shared';
import { type FormEvent, useId, useRef, useState } from 'react';
import { apiFetch } from '../../lib/api-client.ts';
import { useT } from '../../lib/i18n.tsx';
import { toast } from '../../lib/toast.ts';
import { Button } from '../ui/button.tsx';

const EMPTY: TContactForm = { client_name: '', client_email: '', client_subject: '', client_message: '' };

const INPUT = {
  client_name: { type: 'text', autoComplete: 'name' },
  client_email: { type: 'email', autoComplete: 'email' },
  client_subject: { type: 'text', autoComplete: 'off' },
  client_message: { type: 'textarea', autoComplete: 'off' },
} as const;

/**
 * The contact form (spec §2, §3): 'We'll love to hear from you', four fields, 'Send Your
 * Message'. Every field is checked with its own message before sending (decisions.md);
 * the API checks the same rules. A sent message clears the form; a failed send keeps
 * what was typed and says so.
 */
export function ContactForm({ onSent, showTitle = true }: { onSent?(): void; showTitle?: boolean }) {
  const id = useId();
  const [values, setValues] = useState<TContactForm>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<ContactField, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const refs = useRef<Partial<Record<ContactField, HTMLInputElement | HTMLTextAreaElement | null>>>({});
  // The texts and messages (CONTACT_TEXTS, the API's field messages) are English ids.
  const { t } = useT();

  function update(field: ContactField, value: string) {
    const next = { ...values, [field]: value };
    setValues(next);
    // After a first attempt, messages follow the typing so the shopper sees them clear.
    if (submitted) setErrors(validateContactForm(next));
  }

  function focusFirst(errs: Partial<Record<ContactField, string>>) {
    const first = CONTACT_FIELDS.find((f) => errs[f]);
    if (first) refs.current[first]?.focus();
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (sending) return;
    setSubmitted(true);
    setFormError(null);
    const errs = validateContactForm(values);
    setErrors(errs);
    if (Object.keys(errs).length) {
      focusFirst(errs);
      return;
    }
    setSending(true);
    const res = await apiFetch<{ id: number }>('/api/contact', { method: 'POST', body: values });
    setSending(false);
    if (res.ok) {
      setValues(EMPTY);
      setErrors({});
      setSubmitted(false);
      toast.success(t(CONTACT_TEXTS.sent));
      onSent?.();
      return;
    }
    const fields = (res.error?.fields ?? {}) as Partial<Record<ContactField, string>>;
    const known = Object.fromEntries(Object.entries(fields).filter(([k]) => (CONTACT_FIELDS as readonly string[]).includes(k)));
    if (res.status === 400 && Object.keys(known).length) {
      setErrors(known);
      focusFirst(known);
      return;
    }
    // decisions.md: a failed send is shown, not only logged; nothing typed is lost.
    const message = res.status === 429 ? CONTACT_TEXTS.rateLimited : CONTACT_TEXTS.failed;
    setFormError(t(message));
    toast.error(t(message));
  }

  return (
    <form noValidate onSubmit={submit} aria-labelledby={showTitle ? `${id}-title` : undefined} className="space-y-4" data-testid="contact-form">
      {showTitle && (
        <h2 id={`${id}-title`} className="text-xl font-semibold tracking-tight">
          {t(CONTACT_TEXTS.title)}
        </h2>
      )}
      <div className="grid gap-4 md:grid-cols-2">
        {CONTACT_FIELDS.map((field) => {
          const inputId = `${id}-${field}`;
          const errorId = `${inputId}-error`;
          const common = {
            id: inputId,
            name: field,
            value: values[field],
            maxLength: CONTACT_LIMITS[field],
            autoComplete: INPUT[field].autoComplete,
            'aria-invalid': errors[field] ? true : undefined,
            'aria-describedby': errors[field] ? errorId : undefined,
            className: `w-full rounded-lg border bg-paper px-3 text-ink placeholder:text-ink-muted/80 ${errors[field] ? 'border-danger-600' : 'border-ink-muted/70'}`,
          };
          return (
            <div key={field} className={field === 'client_message' || field === 'client_subject' ? 'md:col-span-2' : ''}>
              <label htmlFor={inputId} className="mb-1.5 block text-sm font-medium">
                {t(CONTACT_TEXTS.labels[field])}
              </label>
              {field === 'client_message' ? (
                <textarea
                  {...common}
                  ref={(el) => {
                    refs.current[field] = el;
                  }}
                  rows={5}
                  className={`${common.className} min-h-32 py-2.5`}
                  onChange={(e) => update(field, e.target.value)}
                />
              ) : (
                <input
                  {...common}
                  ref={(el) => {
                    refs.current[field] = el;
                  }}
                  type={INPUT[field].type}
                  className={`${common.className} h-11`}
                  onChange={(e) => update(field, e.target.value)}
                />
              )}
              {errors[field] && (
                <p id={errorId} className="mt-1.5 text-sm font-medium text-danger-600">
                  {t(errors[field])}
                </p>
              )}
            </div>
          );
        })}
      </div>
      {formError && (
        <p role="alert" className="rounded-lg border border-danger-600/30 bg-red-50 px-3 py-2.5 text-sm font-medium text-danger-600">
          {formError}
        </p>
      )}
      <Button type="submit" size="lg" disabled={sending} aria-busy={sending || undefined} className="w-full md:w-auto">
        {sending ? t('Sending…') : t(CONTACT_TEXTS.submit)}
      </Button>
    </form>
  );
}
