import type { Locale } from './locales.ts';

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

export type DateStyle = 'date' | 'dateTime' | 'short';

// Dates are written out too: the server's ICU and a browser's differ (Node prints
// "১ ফেব্রুয়ারি, ২০২৬", Chromium may not), and a page's text must not change when it hydrates.
const MONTHS: Record<Locale, string[]> = {
  en: ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'],
  bn: ['জানুয়ারি', 'ফেব্রুয়ারি', 'মার্চ', 'এপ্রিল', 'মে', 'জুন', 'জুলাই', 'আগস্ট', 'সেপ্টেম্বর', 'অক্টোবর', 'নভেম্বর', 'ডিসেম্বর'],
};

/** The part of the day as Bangla speakers name it, by the hour (0–23). */
function banglaDayPart(hour: number): string {
  if (hour < 4) return 'রাত';
  if (hour < 6) return 'ভোর';
  if (hour < 12) return 'সকাল';
  if (hour < 15) return 'দুপুর';
  if (hour < 18) return 'বিকাল';
  if (hour < 20) return 'সন্ধ্যা';
  return 'রাত';
}

/** Bangladesh keeps UTC+6 all year. */
const DHAKA_OFFSET_MS = 6 * 60 * 60 * 1000;

/** A date (an ISO string, a Date or epoch milliseconds) in the shopper's language, in Dhaka's time. */
export function formatDate(value: string | number | Date, locale: Locale = 'en', style: DateStyle = 'date'): string {
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  const dhaka = new Date(d.getTime() + DHAKA_OFFSET_MS);
  const month = MONTHS[locale][dhaka.getUTCMonth()] as string;
  const day = `${dhaka.getUTCDate()} ${style === 'short' && locale === 'en' ? month.slice(0, 3) : month} ${dhaka.getUTCFullYear()}`;
  if (style !== 'dateTime') return localDigits(day, locale);
  const hour = dhaka.getUTCHours();
  const clock = `${hour % 12 === 0 ? 12 : hour % 12}:${String(dhaka.getUTCMinutes()).padStart(2, '0')}`;
  return locale === 'bn' ? localDigits(`${day}, ${banglaDayPart(hour)} ${clock}`, locale) : `${day}, ${clock} ${hour < 12 ? 'am' : 'pm'}`;
}
