import { isIP } from 'node:net';

// Who a per-address limit counts (docs/decisions/0049). An internet subscriber on IPv6 is
// handed a whole /64 (often more), and may pick any of its 2^64 host addresses for each
// request, so a limit keyed on the full IPv6 address is no limit at all. Every limit that
// counts clients by address (sign-in, sign-up, resets, coupon guesses, checkouts and the
// stock they hold, contact messages, uploads and their quotas, provider checks) takes its
// key from clientAddress() and nothing else: the type below is made only here, and
// apps/api/test/abuse-ipv6.test.ts scans both the code (no limit reads request.ip) and the
// keys a run leaves behind (none names a full IPv6 address).

declare const clientAddressBrand: unique symbol;

/**
 * A client as per-address limits count it: an IPv4 address, or the /64 of an IPv6 one
 * written `2001:db8:1:2::/64`. Only clientAddress() makes one; a request carries its own as
 * `request.clientAddress`.
 */
export type ClientAddress = string & { readonly [clientAddressBrand]: true };

/** The 16-bit groups of an IPv6 address (a trailing dotted IPv4 part becomes two groups); null when it is not one. */
function ipv6Groups(ip: string): number[] | null {
  let text = ip;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  const tail: number[] = [];
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    tail.push((a << 8) | b, (c << 8) | d);
    text = text.slice(0, -dotted[1]!.length);
    if (text.endsWith(':') && !text.endsWith('::')) text = text.slice(0, -1);
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const parse = (s: string) => (s ? s.split(':').map((g) => Number.parseInt(g, 16)) : []);
  const left = parse(halves[0]!);
  const right = [...parse(halves[1] ?? ''), ...tail];
  const missing = 8 - left.length - right.length;
  if (halves.length === 1 ? missing !== 0 : missing < 0) return null;
  const groups = [...left, ...Array<number>(Math.max(0, missing)).fill(0), ...right];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

/**
 * The key per-address limits count `ip` under: an IPv4 address as it is; an IPv4-mapped
 * IPv6 address (`::ffff:203.0.113.7`, what a dual-stack socket reports for an IPv4 client)
 * as its IPv4 address; any other IPv6 address as its /64. Anything else (no address, as on
 * a Unix socket) is 'unknown', which all such requests share.
 */
export function clientAddress(ip: string | null | undefined): ClientAddress {
  const text = (ip ?? '')
    .trim()
    .replace(/^\[|\]$/g, '')
    .replace(/%.*$/, '');
  const kind = isIP(text);
  if (kind === 4) return text as ClientAddress;
  if (kind !== 6) return 'unknown' as ClientAddress;
  const g = ipv6Groups(text.toLowerCase());
  if (!g) return 'unknown' as ClientAddress;
  if (g[0] === 0 && g[1] === 0 && g[2] === 0 && g[3] === 0 && g[4] === 0 && g[5] === 0xffff) {
    return `${g[6]! >> 8}.${g[6]! & 0xff}.${g[7]! >> 8}.${g[7]! & 0xff}` as ClientAddress;
  }
  return `${g
    .slice(0, 4)
    .map((n) => n.toString(16))
    .join(':')}::/64` as ClientAddress;
}
