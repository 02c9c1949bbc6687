import { hasInvisibleCharacters } from './invisible-characters.ts';

// Email addresses as every form of the shop checks them (subscription, contact, sign-up).

/** RFC 5321 limits: 254 characters in all, 64 before the @. */
export const EMAIL_MAX_LENGTH = 254;
const LOCAL_MAX_LENGTH = 64;

// Deliberately plain: something@domain.tld, no spaces, no second @, a dot in the domain
// with no empty labels. Full RFC 5322 syntax (quoted local parts, comments, IP literals)
// accepts addresses no shopper types and mail providers reject anyway.
const EMAIL_SHAPE =
  /^[^\s@"(),:;<>[\]\\]+@[A-Za-z0-9\u00a1-\uffff](?:[A-Za-z0-9\u00a1-\uffff-]*[A-Za-z0-9\u00a1-\uffff])?(?:\.[A-Za-z0-9\u00a1-\uffff](?:[A-Za-z0-9\u00a1-\uffff-]*[A-Za-z0-9\u00a1-\uffff])?)+$/;

/** True for a value shaped like an email address (the caller trims first). */
export function isEmailShaped(value: string): boolean {
  if (value.length > EMAIL_MAX_LENGTH) return false;
  // A zero-width or control character would make a second address that reads as the first.
  if (hasInvisibleCharacters(value)) return false;
  const at = value.lastIndexOf('@');
  if (at < 1 || at > LOCAL_MAX_LENGTH) return false;
  const local = value.slice(0, at);
  if (local.startsWith('.') || local.endsWith('.') || local.includes('..')) return false;
  return EMAIL_SHAPE.test(value);
}

/**
 * The form of an address used to tell two addresses apart: Unicode NFKC (full-width
 * letters become plain ones), trimmed and lower-cased, and the domain in its ASCII (IDNA)
 * form. Mailbox names are case-sensitive in theory, but no provider shoppers use treats
 * Ali@x.com and ali@x.com as two people, and shoppers type either. The accounts' emailKey
 * gives the same result.
 */
export function normaliseEmail(value: string): string {
  const plain = value.normalize('NFKC').trim().toLowerCase();
  const at = plain.lastIndexOf('@');
  return at < 0 ? plain : `${plain.slice(0, at + 1)}${domainToAscii(plain.slice(at + 1))}`;
}

/** Letters, marks, digits, hyphens and the dots UTS #46 reads as dots: nothing a URL parser could take for more than a host. */
const IDN_DOMAIN = /^[\p{L}\p{M}\p{N}.\u3002\uff0e\uff61-]+$/u;

/**
 * The ASCII form of an internationalised domain (bücher.example → xn--bcher-kva.example):
 * one mailbox has both names, so both must give one address. The WHATWG URL parser does
 * the IDNA mapping, the same in browsers and in Node (node:url's domainToASCII is Node
 * only, and this runs in the browser too). An ASCII domain is only lower-cased; a domain
 * the mapping refuses is kept as it is (no mail can reach it anyway).
 */
export function domainToAscii(domain: string): string {
  const lower = domain.toLowerCase();
  if (/^[\x00-\x7f]*$/.test(lower) || !IDN_DOMAIN.test(lower)) return lower;
  try {
    return new URL(`http://${lower}/`).hostname;
  } catch {
    return lower;
  }
}
