import { type ComponentProps, type ReactNode, forwardRef, useId, useState } from 'react';
import { useT } from '../../lib/i18n.tsx';
import { translateMessage } from '../../lib/translate-message.ts';

// Labelled inputs of the account forms: the error sits under its field, is tied to it by
// aria-describedby and marks it aria-invalid, so screen readers read it with the field.
// Errors are the shared rules' and the API's English texts: they are translated here, where
// they are shown (docs/decisions/0038); labels and hints come translated by the caller.

const inputClass =
  'block w-full rounded-lg border bg-paper px-3 py-2.5 text-[0.95rem] text-ink placeholder:text-ink-muted/70 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600 disabled:bg-sand-100';

export function fieldBorder(error?: string) {
  return error ? 'border-danger-600' : 'border-sand-300';
}

type InputProps = Omit<ComponentProps<'input'>, 'id'> & { label: string; error?: string; hint?: ReactNode };

/** The ids a field's control points at with aria-describedby: its error, else its hint. */
function describedBy(id: string, error?: string, hint?: ReactNode): string | undefined {
  return [error ? `${id}-error` : '', hint && !error ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined;
}

/** The label above a control, and its hint or its error below, tied to it by id. */
function FieldFrame({
  id,
  label,
  error,
  hint,
  className,
  children,
}: {
  id: string;
  label: string;
  error?: string;
  hint?: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  const l = useT();
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-ink">
        {label}
      </label>
      {children}
      {hint && !error && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-ink-muted">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm font-medium text-danger-600" data-testid="field-error">
          {translateMessage(l, error)}
        </p>
      )}
    </div>
  );
}

export const TextField = forwardRef<HTMLInputElement, InputProps>(function TextField({ label, error, hint, className = '', ...props }, ref) {
  const id = useId();
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint} className={className}>
      <input
        ref={ref}
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        className={`${inputClass} ${fieldBorder(error)}`}
        {...props}
      />
    </FieldFrame>
  );
});

/** A password input with a Show/Hide switch (typing a password on a phone is error-prone). */
export const PasswordField = forwardRef<HTMLInputElement, Omit<InputProps, 'type'>>(function PasswordField(
  { label, error, hint, className = '', ...props },
  ref,
) {
  const id = useId();
  const { t } = useT();
  const [shown, setShown] = useState(false);
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint} className={className}>
      <div className="relative">
        <input
          ref={ref}
          id={id}
          type={shown ? 'text' : 'password'}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, error, hint)}
          className={`${inputClass} ${fieldBorder(error)} pr-16`}
          {...props}
        />
        <button
          type="button"
          onClick={() => setShown((s) => !s)}
          aria-pressed={shown}
          aria-label={shown ? t('Hide {field}', { field: label.toLowerCase() }) : t('Show {field}', { field: label.toLowerCase() })}
          className="absolute inset-y-1 right-1 rounded-md px-2.5 text-xs font-semibold text-brand-700 hover:bg-sand-100"
        >
          {shown ? t('Hide') : t('Show')}
        </button>
      </div>
    </FieldFrame>
  );
});

export const SelectField = forwardRef<HTMLSelectElement, Omit<ComponentProps<'select'>, 'id'> & { label: string; error?: string }>(function SelectField(
  { label, error, className = '', children, ...props },
  ref,
) {
  const id = useId();
  return (
    <FieldFrame id={id} label={label} error={error} className={className}>
      <select
        ref={ref}
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error)}
        className={`${inputClass} ${fieldBorder(error)} appearance-auto`}
        {...props}
      >
        {children}
      </select>
    </FieldFrame>
  );
});

/** A message about the whole form (network failure, too many attempts), announced at once. */
export function FormAlert({ children, tone = 'error' }: { children: ReactNode; tone?: 'error' | 'success' }) {
  const l = useT();
  if (!children) return null;
  const colours = tone === 'error' ? 'border-danger-600/30 bg-red-50 text-danger-600' : 'border-success-600/30 bg-brand-50 text-success-600';
  return (
    <div role={tone === 'error' ? 'alert' : 'status'} className={`rounded-lg border px-3 py-2.5 text-sm font-medium ${colours}`} data-testid="form-alert">
      {typeof children === 'string' ? translateMessage(l, children) : children}
    </div>
  );
}

/** Moves focus to the first field with an error, in form order. */
export function focusFirstError(form: HTMLFormElement | null) {
  const el = form?.querySelector<HTMLElement>('[aria-invalid="true"]');
  el?.focus();
}
