import { type FieldErrors, hasErrors } from '@storefront/shared';
import { useEffect, useRef, useState } from 'react';
import { focusFirstError } from './form-field.tsx';

/**
 * What the sign-in and sign-up forms share: their values, per-field errors that follow
 * what the shopper types once they have tried to submit, a form-level alert, a busy flag,
 * and focus on the first field in error after each try.
 */
export function useAccountForm<F extends Record<string, string>>(initial: F, validate: (values: F) => FieldErrors<keyof F & string>) {
  const [values, setValues] = useState<F>(initial);
  const [errors, setErrors] = useState<FieldErrors<keyof F & string>>({});
  const [alert, setAlert] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [tried, setTried] = useState(0);
  const form = useRef<HTMLFormElement>(null);

  useEffect(() => {
    if (tried) focusFirstError(form.current);
  }, [tried]);

  /** Shows these errors and moves focus to the first of them. */
  const showErrors = (found: FieldErrors<keyof F & string>) => {
    setErrors(found);
    setTried((n) => n + 1);
  };

  const change = (name: keyof F & string) => (e: { target: { value: string } }) => {
    const next = { ...values, [name]: e.target.value };
    setValues(next);
    if (tried) setErrors(validate(next));
  };

  /** Validates for a submit: true when the values may be sent (the alert is cleared). */
  const check = (): boolean => {
    setAlert(null);
    const found = validate(values);
    showErrors(found);
    return !hasErrors(found);
  };

  return { values, errors, alert, setAlert, busy, setBusy, form, change, check, showErrors };
}
