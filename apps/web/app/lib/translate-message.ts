import type { Localized } from './i18n.tsx';

// Messages from the shared validation rules and from the API's answers are English ids
// (docs/decisions/0038): `t(message)` finds most of them in the Bangla catalogue word for
// word. A few are built with a value (a length, a wait, an amount), so no fixed id matches
// them: in Bangla these are recognised by their English shape and translated as the ICU id
// that says the same with the value in its place. Every id named here has its Bangla in
// packages/shared/src/i18n/bn/ (validation.ts for the shared rules' texts, checkout.ts and
// account.ts for the API's).

type Pattern = readonly [shape: RegExp, id: string, names: readonly string[]];

const PATTERNS: readonly Pattern[] = [
  // packages/shared: account-validation.ts, engagement.ts, coupon.ts, messages.ts
  [/^Must Be At Most (\d+) Characters$/, 'Must Be At Most {max} Characters', ['max']],
  [/^Too many attempts\. Please try again in (\d+) seconds\.$/, 'Too many attempts. Please try again in {seconds} seconds.', ['seconds']],
  [/^Too many attempts\. Please try again in (\d+) minutes\.$/, 'Too many attempts. Please try again in {minutes} minutes.', ['minutes']],
  [/^Please keep this under (\d+) characters$/, 'Please keep this under {max} characters', ['max']],
  [/^Spend at least (.+) to use this coupon$/, 'Spend at least {minimum} to use this coupon', ['minimum']],
  [/^File uploading from (.+) is not supported$/, 'File uploading from {source} is not supported', ['source']],
  [/^Page not found: (.*)$/, 'Page not found: {path}', ['path']],
  [/^The file is larger than the (\d+) MB limit$/, 'The file is larger than the {size} MB limit', ['size']],
  // The API's answers (apps/api/src/modules)
  [/^You can keep at most (\d+) addresses\. Please delete one first\.$/, 'You can keep at most {max} addresses. Please delete one first.', ['max']],
  [
    /^Too many orders in a short time\. Please try again in (\d+) minutes, or call us\.$/,
    'Too many orders in a short time. Please try again in {minutes} minutes, or call us.',
    ['minutes'],
  ],
  [
    /^This order's payment was checked too often\. Please try again in (\d+) minutes\.$/,
    'This order’s payment was checked too often. Please try again in {minutes} minutes.',
    ['minutes'],
  ],
  [
    /^Card payments are limited to (.+) per order\. Please choose pay later or cash on delivery\.$/,
    'Card payments are limited to {amount} per order. Please choose pay later or cash on delivery.',
    ['amount'],
  ],
  [/^Card payments start at (.+)\. Please choose cash on delivery\.$/, 'Card payments start at {amount}. Please choose cash on delivery.', ['amount']],
  [
    /^Some items are no longer in stock in the quantity you asked for: (.+)$/,
    'Some items are no longer in stock in the quantity you asked for: {items}',
    ['items'],
  ],
  [/^These items are no longer sold: (.+)$/, 'These items are no longer sold: {items}', ['items']],
  [/^At most (\d+) of one item per order$/, 'At most {max} of one item per order', ['max']],
];

/** The ids the shapes above translate to (their Bangla must exist; see translate-message.test.ts). */
export const MESSAGE_PATTERN_IDS: readonly string[] = PATTERNS.map(([, id]) => id);

/**
 * A message from shared validation or the API in the page's language: by its id, or by its
 * shape when it carries a value. Unknown messages are shown as they came.
 */
export function translateMessage(l: Pick<Localized, 't' | 'digits' | 'lang'>, message: string): string;
export function translateMessage(l: Pick<Localized, 't' | 'digits' | 'lang'>, message: string | null | undefined): string | null | undefined;
export function translateMessage(l: Pick<Localized, 't' | 'digits' | 'lang'>, message: string | null | undefined): string | null | undefined {
  // English shows what was sent, exactly (the ids below may differ in punctuation).
  if (!message || l.lang === 'en') return message;
  for (const [shape, id, names] of PATTERNS) {
    const m = shape.exec(message);
    if (m) return l.t(id, Object.fromEntries(names.map((name, i) => [name, l.digits(m[i + 1] ?? '')])));
  }
  return l.t(message);
}
