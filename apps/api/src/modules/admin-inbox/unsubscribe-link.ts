import { createHmac, timingSafeEqual } from 'node:crypto';

// The subscriber's own way out (docs/decisions/0036): a newsletter mail carries a token that
// names the subscription and is signed with this installation's secret, so the link works
// without signing in and nobody can make one for another address. It does not expire: an
// old mail must still let its reader leave. 4 bytes of id and 32 of HMAC-SHA-256 are 48
// base64url characters.

const TOKEN_LENGTH = 48;

function mac(secret: string, id: number, emailKey: string): Buffer {
  return createHmac('sha256', secret).update(`unsubscribe\n${id}\n${emailKey}`).digest();
}

export function signUnsubscribeToken(secret: string, sub: { id: number; email_key: string }): string {
  const head = Buffer.alloc(4);
  head.writeUInt32BE(sub.id);
  return Buffer.concat([head, mac(secret, sub.id, sub.email_key)]).toString('base64url');
}

/** The subscription id the token names; check it with `unsubscribeTokenMatches` against that row. */
export function unsubscribeTokenId(token: string): number | null {
  if (token.length !== TOKEN_LENGTH || !/^[\w-]+$/.test(token)) return null;
  return Buffer.from(token, 'base64url').readUInt32BE(0);
}

export function unsubscribeTokenMatches(secret: string, token: string, sub: { id: number; email_key: string }): boolean {
  if (unsubscribeTokenId(token) !== sub.id) return false;
  const raw = Buffer.from(token, 'base64url');
  return raw.length === 36 && timingSafeEqual(raw.subarray(4), mac(secret, sub.id, sub.email_key));
}

/** The address a newsletter mail links to (the List-Unsubscribe header can carry it too). */
export function unsubscribeUrl(publicUrl: string, secret: string, sub: { id: number; email_key: string }): string {
  return `${publicUrl}/unsubscribe?token=${signUnsubscribeToken(secret, sub)}`;
}
