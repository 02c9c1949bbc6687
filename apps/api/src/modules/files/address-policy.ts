import net from 'node:net';

// Which addresses a URL import may connect to. Everything that is not a
// public unicast address is refused: loopback, private networks, link-local (with the cloud
// metadata service at 169.254.169.254), carrier-grade NAT (Alibaba's metadata service at
// 100.100.100.200), multicast, documentation and reserved ranges, and the IPv6 forms that
// carry any of those inside (IPv4-mapped, NAT64, 6to4).

const V4: [string, number, string][] = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, 'reserved'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

const V6: [string, number, string][] = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['::', 96, 'reserved'], // IPv4-compatible (deprecated)
  ['100::', 64, 'reserved'], // discard
  ['2001::', 23, 'reserved'], // IETF protocol assignments (Teredo, ORCHID, …)
  ['2001:db8::', 32, 'documentation'],
  ['fc00::', 7, 'private'], // unique local (AWS metadata fd00:ec2::254 is here)
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'private'], // site-local (deprecated)
  ['ff00::', 8, 'multicast'],
];

const v4Lists = V4.map(([net4, bits, kind]) => {
  const l = new net.BlockList();
  l.addSubnet(net4, bits, 'ipv4');
  return { l, kind };
});
const v6Lists = V6.map(([net6, bits, kind]) => {
  const l = new net.BlockList();
  l.addSubnet(net6, bits, 'ipv6');
  return { l, kind };
});

/** Expands an IPv6 address to its eight 16-bit groups. */
function groups6(ip: string): number[] | null {
  let s = ip.toLowerCase().replace(/%.*$/, '');
  // A dotted IPv4 tail (::ffff:127.0.0.1) becomes two groups.
  const tail = s.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (tail) {
    const p = tail[1]!.split('.').map(Number);
    s = `${s.slice(0, -tail[1]!.length)}${((p[0]! << 8) | p[1]!).toString(16)}:${((p[2]! << 8) | p[3]!).toString(16)}`;
  }
  const [head, rest] = s.split('::') as [string, string | undefined];
  const a = head ? head.split(':') : [];
  const b = rest !== undefined && rest !== '' ? rest.split(':') : [];
  const fill = rest !== undefined ? 8 - a.length - b.length : 0;
  const all = [...a, ...Array(Math.max(0, fill)).fill('0'), ...b];
  if (all.length !== 8) return null;
  const n = all.map((g) => parseInt(g, 16));
  return n.some((x) => Number.isNaN(x) || x < 0 || x > 0xffff) ? null : n;
}

function v4From(hi: number, lo: number): string {
  return [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff].join('.');
}

/** The IPv4 address an IPv6 address carries (mapped, NAT64, 6to4), if any. */
export function embeddedIPv4(ip: string): string | null {
  const g = groups6(ip);
  if (!g) return null;
  const zero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zero(0, 5) && g[5] === 0xffff) return v4From(g[6]!, g[7]!); // ::ffff:a.b.c.d
  if (g[0] === 0x64 && g[1] === 0xff9b && zero(2, 6)) return v4From(g[6]!, g[7]!); // 64:ff9b::/96
  if (g[0] === 0x2002) return v4From(g[1]!, g[2]!); // 6to4
  return null;
}

/** Why an address may not be reached, or null when it is a public unicast address. */
export function refusedKind(address: string): string | null {
  const ip = address.replace(/^\[|\]$/g, '');
  const family = net.isIP(ip);
  if (family === 4) {
    if (ip === '169.254.169.254' || ip === '100.100.100.200') return 'metadata';
    return v4Lists.find(({ l }) => l.check(ip, 'ipv4'))?.kind ?? null;
  }
  if (family === 6) {
    const inner = embeddedIPv4(ip);
    if (inner) return refusedKind(inner);
    if (/^fd00:ec2::254$/i.test(ip)) return 'metadata';
    return v6Lists.find(({ l }) => l.check(ip, 'ipv6'))?.kind ?? null;
  }
  return 'not an address';
}

/**
 * Decides whether a URL import may connect to an address. Production uses the default;
 * tests may add exact address:port pairs (their own loopback servers) through the app's
 * build options, which no configuration or environment variable reaches (decision 0013).
 */
export interface AddressPolicy {
  /** null when allowed, otherwise why not. */
  check(address: string, port: number): string | null;
}

export function addressPolicy(extraAllowed: readonly string[] = []): AddressPolicy {
  const allowed = new Set(extraAllowed);
  return {
    check(address, port) {
      const ip = address.replace(/^\[|\]$/g, '');
      const key = net.isIP(ip) === 6 ? `[${ip}]:${port}` : `${ip}:${port}`;
      if (allowed.has(key)) return null;
      return refusedKind(ip);
    },
  };
}
