// Characters a person cannot see or that change how the text around them is shown: Unicode's
// controls (Cc: NUL, tab, line breaks, DEL, the C1 block) and format characters (Cf: zero-width
// space, non-joiner and joiner, word joiner, the byte-order mark, soft hyphen, the bidi
// embeddings, overrides and isolates U+202A–202E and U+2066–2069, …). In an email they make a
// second address that reads as an existing one (josé@… and josé<U+200B>@… are two accounts
// to the database and one to the eye); in a name they hide or reverse what staff, the courier
// and the shopper read. Forms refuse them with the field's message rather than strip them, so
// what is stored is what the person typed.

const INVISIBLE = /[\p{Cc}\p{Cf}]/u;
const INVISIBLE_ALL = /[\p{Cc}\p{Cf}]/gu;
const BENGALI = /[\u0980-\u09FF]/;

/** True when the text holds a control or format character (none is allowed in an email). */
export function hasInvisibleCharacters(text: string): boolean {
  return INVISIBLE.test(text);
}

/**
 * True when a person's name holds a control or format character. The one exception is a
 * zero-width joiner or non-joiner between two Bengali characters: Bangla keyboards write
 * র‍্য (ra, ZWJ, hasanta, ya) that way, and the joiner changes the letter shown, so Bangla
 * names keep it (docs/decisions/0038: names are written in Bangla as often as in English).
 */
export function nameHasInvisibleCharacters(name: string): boolean {
  for (const m of name.matchAll(INVISIBLE_ALL)) {
    const i = m.index;
    const joiner = m[0] === '\u200c' || m[0] === '\u200d';
    if (!joiner || !BENGALI.test(name[i - 1] ?? '') || !BENGALI.test(name[i + 1] ?? '')) return true;
  }
  return false;
}

/** The message under a name field that holds one. */
export const NAME_INVISIBLE_MESSAGE = 'Please Remove the Hidden or Control Characters From the Name';
