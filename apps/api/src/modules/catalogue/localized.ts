import type { Locale } from '@storefront/shared';

// The catalogue in the shopper's language (docs/decisions/0038): a text's Bangla version
// where one was entered, the English otherwise. The shapes of the answers never change, only
// the values of their text fields.

/** The Bangla text when the page is in Bangla and the text has one; the English otherwise. */
export function localText(en: string, bn: string | null | undefined, lang: Locale): string {
  return lang === 'bn' && bn ? bn : en;
}

/** A category's name in the page's language. */
export function localName(c: { name: string; name_bn?: string | null }, lang: Locale): string {
  return localText(c.name, c.name_bn, lang);
}
