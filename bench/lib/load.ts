import autocannon from 'autocannon';

// Drives HTTP load with autocannon (in this process) and reduces its result to the few
// figures the table prints.

/** The storefront's API key (spec §7): not a secret, the browser sends it too. */
export const STOREFRONT_API_KEY = process.env.STOREFRONT_API_KEY ?? 'storefront-web';

/** Paths under /api that answer without the key (mirrors apps/api/src/plugins/api-key.ts). */
const OPEN_API_PREFIXES = ['/api/health', '/api/docs', '/api/openapi.json'];

/** The headers a storefront sends for this path: the API key on /api paths that need it. */
export function headersFor(path: string, apiKey = STOREFRONT_API_KEY): Record<string, string> {
  const p = path.split('?')[0];
  if (!(p === '/api' || p.startsWith('/api/'))) return {};
  if (OPEN_API_PREFIXES.some((o) => p === o || p.startsWith(`${o}/`))) return {};
  return { 'x-api-key': apiKey };
}

export interface LoadOptions {
  /** http://127.0.0.1:PORT */
  baseUrl: string;
  path: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Several requests each connection cycles through (paths relative to baseUrl). */
  requests?: autocannon.Request[];
  /** Default 50. */
  connections?: number;
  /** Seconds of measured load. Default 15. */
  durationS?: number;
  /** Seconds of unmeasured load first, so the JIT and caches settle. Default 0. */
  warmupS?: number;
  /** Per-request timeout, seconds. Default 10. */
  timeoutS?: number;
  /** Called about every 100 ms while load runs (used to sample memory). */
  onSample?: () => void;
}

export interface LoadResult {
  /** Mean of the per-second request counts. */
  requestsPerSec: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  /** Connection errors, timeouts included. */
  errors: number;
  timeouts: number;
  non2xx: number;
  /** Responses by status code, e.g. { "200": 51234 }. */
  statusCodes: Record<string, number>;
  totalRequests: number;
  durationS: number;
}

function assertLoopback(baseUrl: string) {
  const host = new URL(baseUrl).hostname;
  if (host !== '127.0.0.1') throw new Error(`benchmarks only target 127.0.0.1, not ${host}`);
}

function fire(opts: autocannon.Options, hardLimitMs: number, onSample?: () => void): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    let sampler: NodeJS.Timeout | undefined;
    // autocannon stops itself after `duration`; this only guards against it hanging.
    const guard = setTimeout(() => instance.stop(), hardLimitMs);
    const instance = autocannon(opts, (err, result) => {
      clearTimeout(guard);
      if (sampler) clearInterval(sampler);
      if (err) reject(err);
      else resolve(result);
    });
    if (onSample) sampler = setInterval(onSample, 100);
  });
}

export async function runLoad(o: LoadOptions): Promise<LoadResult> {
  assertLoopback(o.baseUrl);
  const durationS = o.durationS ?? 15;
  const timeoutS = o.timeoutS ?? 10;
  const base: autocannon.Options = {
    url: o.baseUrl + o.path,
    connections: o.connections ?? 50,
    timeout: timeoutS,
    method: o.method ?? 'GET',
    headers: { ...headersFor(o.path), ...o.headers },
  };
  // autocannon spreads options over its defaults: an explicit undefined would erase them.
  if (o.body !== undefined) base.body = o.body;
  if (o.requests) {
    base.requests = o.requests.map((r) => ({ ...r, headers: { ...base.headers, ...headersFor(r.path ?? o.path), ...r.headers } }));
  }
  const hardLimit = (s: number) => (s + timeoutS + 20) * 1000;
  if (o.warmupS && o.warmupS > 0) await fire({ ...base, duration: o.warmupS }, hardLimit(o.warmupS));
  const r = await fire({ ...base, duration: durationS }, hardLimit(durationS), o.onSample);
  const statusCodes: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(r.statusCodeStats ?? {})) statusCodes[code] = Number(count);
  return {
    requestsPerSec: r.requests.average,
    latencyP50Ms: r.latency.p50,
    latencyP99Ms: r.latency.p99,
    errors: r.errors,
    timeouts: r.timeouts,
    non2xx: r.non2xx,
    statusCodes,
    totalRequests: Object.values(statusCodes).reduce((a, b) => a + b, 0),
    durationS: r.duration,
  };
}

export interface ProbeResult {
  status: number;
  contentType: string;
  /** The first few hundred characters of the body. */
  snippet: string;
}

/** One request, to see what a scenario's URL answers before loading it. */
export async function probe(
  baseUrl: string,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<ProbeResult> {
  assertLoopback(baseUrl);
  const res = await fetch(baseUrl + path, {
    method: init.method ?? 'GET',
    headers: { ...headersFor(path), ...init.headers },
    body: init.body,
    redirect: 'manual',
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', snippet: text.slice(0, 300) };
}
