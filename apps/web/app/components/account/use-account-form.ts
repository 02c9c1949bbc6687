import { type FieldErrors, hasErrors } from '@storefront/shared';
import { useEffect, useRef, useState } from 'react';
import type { ApiResult } from '../../lib/api-client.ts';
import { formFailure } from './auth-result.ts';
import { focusFirstError } from './form-field.tsx';

type Failure = Extract<ApiResult<unknown>, { ok: false }>;

/**
 * What the account forms share (sign-in, sign-up, profile, password, addresses): their
 * values, per-field errors that follow what the shopper types once they have tried to
 * submit, a form-level alert, a busy flag, and focus on the first field in error after
 * each try. What was typed is never cleared by a failure.
 */
export function useAccountForm<F extends object, A = string>(initial: F | (() => F), validate: (values: F) => FieldErrors<keyof F & string>) {
  const [values, setValues] = useState<F>(initial);
  const [errors, setErrors] = useState<FieldErrors<keyof F & string>>({});
  const [alert, setAlert] = useState<A | null>(null);
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

  /** Changes fields; after a try, the errors are checked again as the shopper types. */
  const update = (patch: Partial<F>) => {
    const next = { ...values, ...patch };
    setValues(next);
    if (tried) setErrors(validate(next));
  };
  const set = <K extends keyof F & string>(name: K, value: F[K]) => update({ [name]: value } as unknown as Partial<F>);
  const change = (name: keyof F & string) => (e: { target: { value: string } }) => set(name, e.target.value as F[typeof name]);

  /** Validates for a submit: true when the values may be sent (the alert is cleared). */
  const check = (): boolean => {
    setAlert(null);
    const found = validate(values);
    showErrors(found);
    return !hasErrors(found);
  };

  /** Shows a failed call's field errors (spec §8) and answers its form-level message, if any. */
  const failed = (res: Failure): string | null => {
    const f = formFailure(res);
    if (f.fields) showErrors(f.fields as FieldErrors<keyof F & string>);
    return f.form ?? null;
  };

  const reset = (next: F) => {
    setValues(next);
    setErrors({});
    setTried(0);
  };

  return { values, set, update, change, reset, errors, alert, setAlert, busy, setBusy, form, check, showErrors, failed };
}
