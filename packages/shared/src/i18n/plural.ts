import { formatNumber } from './format.ts';
import type { Locale } from './locales.ts';

// Plurals without Intl (docs/decisions/0038). Lingui chooses a plural's branch with
// Intl.PluralRules and writes its # with Intl.NumberFormat: the first of each costs a phone
// about 30 ms of the page's start-up, and Intl would print # with western grouping, unlike
// every other number of the shop. The catalogues are rewritten when they are compiled
// (compile.ts): a plural becomes a choice on the value's exact number, then on its category,
// and # becomes a value; createI18n (translator.ts) supplies those values from each number.

const SEP = '\u0000';
/** The value holding a number's exact text (for branches such as =0). */
export const exactOf = (name: string) => `${name}${SEP}exact`;
/** The value holding a number's plural category (one, other). */
export const categoryOf = (name: string) => `${name}${SEP}category`;
/** The value holding a number as the page writes it (# in a plural). */
export const shownOf = (name: string) => `${name}${SEP}shown`;

/** CLDR's cardinal categories of the shop's languages: English "one" is exactly 1; Bangla's is i = 0 or n = 1. */
export function pluralCategory(n: number, locale: Locale): 'one' | 'other' {
  if (locale === 'bn') return Math.trunc(Math.abs(n)) === 0 || n === 1 ? 'one' : 'other';
  return n === 1 ? 'one' : 'other';
}

/** The values a rewritten message reads, added for each number among `values`. */
export function withPluralValues(values: Record<string, unknown>, locale: Locale): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (const [name, v] of Object.entries(values)) {
    if (typeof v !== 'number') continue;
    out ??= { ...values };
    out[exactOf(name)] = String(v);
    out[categoryOf(name)] = pluralCategory(v, locale);
    out[shownOf(name)] = formatNumber(v, locale);
  }
  return out ?? values;
}

type Token = string | [string] | [string, string, Record<string, Message>?] | [string, string, unknown];
export type Message = string | Token[];

/** `message` with each plural turned into choices on the values above, and each # into a value. */
export function rewritePlurals(message: Message): Message {
  if (typeof message === 'string') return message;
  return message.map((token) => rewriteToken(token, undefined));
}

function rewriteTokens(tokens: Message, plural: string | undefined): Message {
  if (typeof tokens === 'string') return tokens;
  return tokens.map((t) => rewriteToken(t, plural));
}

function rewriteToken(token: Token, plural: string | undefined): Token {
  if (token === '#' && plural) return [shownOf(plural)];
  if (typeof token === 'string' || token.length < 2) return token;
  const [name, type, cases] = token as [string, string, Record<string, Message>];
  if (type === 'select') {
    return [name, type, Object.fromEntries(Object.entries(cases).map(([k, v]) => [k, rewriteTokens(v, plural)]))];
  }
  if (type !== 'plural') return token;
  if (cases.offset) throw new Error('plural offsets are not supported');
  const exact: Record<string, Message> = {};
  const byCategory: Record<string, Message> = {};
  for (const [k, v] of Object.entries(cases)) {
    if (k === 'offset') continue;
    (/^\d+$/.test(k) ? exact : byCategory)[k] = rewriteTokens(v, name);
  }
  const category: Token = [categoryOf(name), 'select', byCategory];
  if (!Object.keys(exact).length) return category;
  return [exactOf(name), 'select', { ...exact, other: [category] }];
}
