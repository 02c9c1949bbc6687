import dns from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { AddressPolicy } from './address-policy.ts';

// Fetching a URL a client gave us, without letting it reach our own network (SSRF). Every
// hop — the first URL and each redirect — is checked BEFORE any connection: the scheme must
// be http(s), the host is resolved here and every address it resolves to must pass the
// policy, and the socket then connects to the address that was checked (no second DNS
// lookup that could answer differently). Redirects are followed by hand, so each target is
// checked the same way.

export class FetchRefusedError extends Error {
  constructor(
    readonly code: 'unsupported_source' | 'address_not_allowed' | 'source_unreachable' | 'source_error' | 'too_many_redirects',
    message: string,
  ) {
    super(message);
  }
}

const MAX_REDIRECTS = 5;

export type Resolver = (host: string) => Promise<{ address: string; family: number }[]>;

const systemResolver: Resolver = (host) => dns.promises.lookup(host, { all: true, verbatim: true });

/** Checks a URL's scheme and, for an IP literal, its address; no network use. */
export function precheckUrl(raw: string, policy: AddressPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new FetchRefusedError('unsupported_source', 'The address is not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new FetchRefusedError('unsupported_source', `Only http and https addresses can be imported, not ${url.protocol.replace(/:$/, '')}`);
  }
  if (url.username || url.password) throw new FetchRefusedError('unsupported_source', 'Addresses with a user name or password cannot be imported');
  // The WHATWG parser has already turned 2130706433, 0x7f.1 and 017700000001 into 127.0.0.1.
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host)) {
    const why = policy.check(host, portOf(url));
    if (why) throw refused(url, why);
  } else if (host === 'localhost' || host.endsWith('.localhost')) {
    throw refused(url, 'loopback');
  }
  return url;
}

function portOf(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
}

function refused(url: URL, why: string) {
  return new FetchRefusedError('address_not_allowed', `Importing from ${url.hostname} is not allowed (${why} address)`);
}

/** Resolves the host and picks an address that passes the policy; refuses if any answer does not. */
async function checkedAddress(url: URL, policy: AddressPolicy, resolve: Resolver): Promise<{ address: string; family: number }> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = portOf(url);
  let answers: { address: string; family: number }[];
  if (net.isIP(host)) answers = [{ address: host, family: net.isIP(host) }];
  else {
    try {
      answers = await resolve(host);
    } catch {
      throw new FetchRefusedError('source_unreachable', `The host ${host} could not be found`);
    }
  }
  if (answers.length === 0) throw new FetchRefusedError('source_unreachable', `The host ${host} could not be found`);
  // A name that answers with one public and one private address is refused as a whole:
  // DNS rebinding tricks rely on mixing the two.
  for (const a of answers) {
    const why = policy.check(a.address, port);
    if (why) throw refused(url, why);
  }
  return answers[0]!;
}

function request(url: URL, target: { address: string; family: number }, signal: AbortSignal): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const lib = url.protocol === 'https:' ? https : http;
    const req = lib.request(url, {
      method: 'GET',
      agent: false,
      signal,
      headers: { 'user-agent': 'NibashFurnitureFileImport/1.0', accept: '*/*' },
      // Connect to the checked address whatever the name resolves to by now; TLS still
      // verifies the certificate against the host name of the URL.
      lookup: ((_host: string, opts: { all?: boolean }, cb: (...args: unknown[]) => void) => {
        if (opts?.all) cb(null, [{ address: target.address, family: target.family }]);
        else cb(null, target.address, target.family);
      }) as unknown as typeof dns.lookup,
    });
    req.on('response', resolve);
    req.on('error', (err) => {
      if (signal.aborted) reject(signal.reason ?? err);
      else reject(new FetchRefusedError('source_unreachable', `The file could not be fetched from ${url.host}`));
    });
    req.end();
  });
}

/**
 * GETs `raw`, following up to 5 redirects, each hop checked before connecting. Answers the
 * final 2xx response (its body not yet read) and the URL it came from.
 */
export async function safeGet(
  raw: string,
  opts: { policy: AddressPolicy; signal: AbortSignal; resolve?: Resolver },
): Promise<{ response: IncomingMessage; url: URL }> {
  let url = precheckUrl(raw, opts.policy);
  for (let hop = 0; ; hop++) {
    const target = await checkedAddress(url, opts.policy, opts.resolve ?? systemResolver);
    const response = await request(url, target, opts.signal);
    const status = response.statusCode ?? 0;
    if (status >= 300 && status < 400 && response.headers.location) {
      response.resume();
      if (hop >= MAX_REDIRECTS) throw new FetchRefusedError('too_many_redirects', 'The address redirects too many times');
      let next: string;
      try {
        next = new URL(response.headers.location, url).href;
      } catch {
        throw new FetchRefusedError('source_error', 'The address redirects to an invalid location');
      }
      url = precheckUrl(next, opts.policy);
      continue;
    }
    if (status < 200 || status >= 300) {
      response.resume();
      throw new FetchRefusedError('source_error', `The source answered ${status} instead of a file`);
    }
    return { response, url };
  }
}
