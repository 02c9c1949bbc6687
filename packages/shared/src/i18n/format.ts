import type { Locale } from './locales.ts';
import { INTL_LOCALE } from './locales.ts';

// One number formatter for the whole shop (docs/decisions/0038): South Asian grouping
// (the last three digits, then pairs: 1,23,456.00) in both languages, and Bangla digits in
// the Bangla shop (১,২৩,৪৫৬.০০). Written out rather than left to Intl so that the server
// and every browser print exactly the same characters (a hydration mismatch otherwise).

const BANGLA_DIGITS = '০১২৩৪৫৬৭৮৯';

/** Latin digits to Bangla digits; everything else unchanged. */
export function toBanglaDigits(text: string): string {
  return text.replace(/[0-9]/g, (d) => BANGLA_DIGITS[d.charCodeAt(0) - 48] as string);
}

/** Digits in the language's script. */
export function localDigits(text: string, locale: Locale): string {
  return locale === 'bn' ? toBanglaDigits(text) : text;
}

/** "1234567" -> "12,34,567". */
function groupSouthAsian(integer: string): string {
  if (integer.length <= 3) return integer;
  const last3 = integer.slice(-3);
  const rest = integer.slice(0, -3);
  return `${rest.replace(/\B(?=(\d{2})+(?!\d))/g, ',')},${last3}`;
}

export interface NumberFormatOptions {
  /** Digits after the decimal point, exactly (default 0; amounts are rounded half away from zero). */
  fractionDigits?: number;
}

/** A number with South Asian grouping, in the language's digits. Negative numbers get a minus sign. */
export function formatNumber(value: number, locale: Locale = 'en', opts: NumberFormatOptions = {}): string {
  const fd = opts.fractionDigits ?? 0;
  if (!Number.isFinite(value)) return localDigits(String(value), locale);
  const factor = 10 ** fd;
  const scaled = Math.round(Math.abs(value) * factor);
  const integer = Math.floor(scaled / factor).toString();
  const fraction = fd > 0 ? `.${(scaled % factor).toString().padStart(fd, '0')}` : '';
  const text = `${groupSouthAsian(integer)}${fraction}`;
  return localDigits(value < 0 && scaled !== 0 ? `−${text}` : text, locale);
}

const DATE_FORMATS = new Map<string, Intl.DateTimeFormat>();

export type DateStyle = 'date' | 'dateTime' | 'short';

function dateFormat(locale: Locale, style: DateStyle): Intl.DateTimeFormat {
  const key = `${locale}|${style}`;
  let f = DATE_FORMATS.get(key);
  if (!f) {
    const options: Intl.DateTimeFormatOptions =
      style === 'dateTime'
        ? { day: 'numeric', month: 'long', year: 'numeric', hour: 'numeric', minute: '2-digit' }
        : style === 'short'
          ? { day: 'numeric', month: 'short', year: 'numeric' }
          : { day: 'numeric', month: 'long', year: 'numeric' };
    // The shop's dates are Bangladesh's: the same on the server and in every browser.
    f = new Intl.DateTimeFormat(INTL_LOCALE[locale], { ...options, timeZone: 'Asia/Dhaka' });
    DATE_FORMATS.set(key, f);
  }
  return f;
}

/** A date (an ISO string, a Date or epoch milliseconds) in the shopper's language, in Dhaka's time. */
export function formatDate(value: string | number | Date, locale: Locale = 'en', style: DateStyle = 'date'): string {
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  return localDigits(dateFormat(locale, style).format(d), locale);
}
