import { isIP } from 'node:net';
import fs from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type PathaoOptions, pathaoFromEnv } from './modules/couriers/pathao.client.ts';
import { type SteadfastOptions, steadfastFromEnv } from './modules/couriers/steadfast.client.ts';
import { BKASH_LIVE_URL, fromEnv as bkashFromEnv } from './modules/payments/bkash/bkash.client.ts';
import type { BkashOptions } from './modules/payments/bkash/types.ts';
import { NAGAD_LIVE_URL, fromEnv as nagadFromEnv } from './modules/payments/nagad/nagad.client.ts';
import type { NagadOptions } from './modules/payments/nagad/types.ts';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export type DbConfig = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string; schema?: string };

export interface AppConfig {
  port: number;
  host: string;
  db: DbConfig;
  /** Folder for the shop's own data: the SQLite file by default, uploaded files under files/. */
  dataDir: string;
  /** Identifies the storefront to the API (spec §7). Not a secret: the browser sends it. */
  apiKey: string;
  /** Base URL prefixed to relative image urls (spec §7, files). Empty: same origin. */
  imageHost: string;
  logLevel: string;
  /** Built React Router app to serve pages from; null serves the API only. */
  webBuildDir: string | null;
  /** Public URL of the shop, for canonical links and payment return URLs. */
  publicUrl: string;
  /**
   * Which proxies in front may name the client in X-Forwarded-For (TRUST_PROXY,
   * docs/decisions/0023): false trusts none (the connection's address is the client), a
   * number trusts that many hops (the client is that many entries from the right), a list
   * trusts those proxy addresses or CIDR ranges. `true` is taken as one hop, never as
   * "trust every entry", which would let a client choose its own address.
   */
  trustProxy: boolean | number | string[];
  mail: {
    /** smtp://user:pass@host:port; unset keeps mail in the database outbox. */
    smtpUrl: string | null;
    from: string;
  };
  /** Customer accounts: session lifetimes and sign-in limits (docs/decisions/0008, 0009). */
  accounts: AccountsConfig;
  /** How long catalogue and site reads are kept in the in-process cache (READ_CACHE_MS, default 30000; 0 turns it off; docs/decisions/0007). */
  readCacheMs: number;
  /**
   * How long the data every page's header and footer show (settings, categories, currencies,
   * discounts in force) is kept once computed (SHELL_CACHE_MS, default 5000; 0 computes it for
   * every page). A catalogue change made through this process clears it at once
   * (docs/decisions/0029).
   */
  shellCacheMs: number;
  /**
   * Overload shedding of server renders (docs/decisions/0029): at most `concurrency` run at
   * once (RENDER_CONCURRENCY, default 4), `queue` more wait for a turn (RENDER_QUEUE,
   * default 64) for at most `waitMs` (RENDER_WAIT_MS, default 2000); others get 503 with
   * Retry-After at once.
   */
  renders: { concurrency: number; queue: number; waitMs: number };
  /**
   * The same for computing catalogue searches and listings through the API, which cost more
   * than a render at 100k products: SEARCH_CONCURRENCY (default 4), SEARCH_QUEUE (256),
   * SEARCH_WAIT_MS (1000).
   */
  searches: { concurrency: number; queue: number; waitMs: number };
  /** Compress pages and JSON for clients that accept it (COMPRESSION, default on; off behind a proxy or CDN that compresses). */
  compression: boolean;
  /** How long a guest's catalogue page stays in the page cache (PAGE_CACHE_MS, default 5000; 0 turns it off; docs/decisions/0007). */
  pageCacheMs: number;
  /** Card payments (docs/decisions/0017). */
  payments: PaymentsConfig;
  /** Limits on placing orders and bookings, and how long a booking holds stock (docs/decisions/0022). */
  orders: OrdersConfig;
  /** Upload quotas, the room kept for guests' files and the sweep of unclaimed ones (docs/decisions/0024). */
  uploads: UploadsConfig;
  /**
   * Decoding pictures, for uploads and resized copies (docs/decisions/0050): IMAGE_CONCURRENCY
   * at once (default the cores, at most 2), IMAGE_QUEUE more waiting (default 64) for at most
   * 30 s; the rest are answered 503.
   */
  images: { concurrency: number; queue: number; waitMs: number };
  /** Prometheus metrics (docs/decisions/0027): off unless a port or a token is given. */
  metrics: MetricsConfig;
  /** Couriers that carry parcels (docs/decisions/0040): booking is offered only with one configured. */
  couriers: CouriersConfig;
}

export interface CouriersConfig {
  /** STEADFAST_API_KEY, STEADFAST_SECRET_KEY, STEADFAST_BASE_URL, STEADFAST_WEBHOOK_TOKEN; null when unset. */
  steadfast: SteadfastOptions | null;
  /** PATHAO_CLIENT_ID, PATHAO_CLIENT_SECRET, PATHAO_USERNAME, PATHAO_PASSWORD, PATHAO_STORE_ID, …; null when unset. */
  pathao: PathaoOptions | null;
  /** How often each process asks the courier about parcels it has not heard of lately (COURIER_POLL_MINUTES, default 10). */
  pollEveryMs: number;
  /** A live parcel not updated for this long is asked about (COURIER_POLL_STALE_MINUTES, default 60). */
  pollStaleMs: number;
  /**
   * DELIVERY_PRICE_FROM=pathao: home delivery costs what Pathao quotes for the address where
   * it can (docs/decisions/0045); otherwise, and by default, the delivery zones' fee.
   */
  deliveryPriceFrom?: 'zones' | 'pathao';
  /** What one item weighs for Pathao's price (PATHAO_ITEM_WEIGHT_GRAMS, default 1000). */
  itemWeightGrams?: number;
}

export interface UploadsConfig {
  /** Bytes one customer may keep stored, uploads in progress included (UPLOAD_QUOTA_CUSTOMER_MB, default 500). */
  customerQuotaBytes: number;
  /** Bytes guests from one client address may keep stored, uploads in progress included (UPLOAD_QUOTA_GUEST_MB, default 100). */
  guestQuotaBytes: number;
  /** Bytes all guests together may keep stored; beyond it guest uploads are refused (GUEST_UPLOADS_TOTAL_MB, default 2048). */
  guestTotalBytes: number;
  /** Guest uploads are refused when the files folder's disk would keep less free than this (UPLOAD_MIN_FREE_DISK_MB, default 1024; 0 turns the check off). */
  minFreeDiskBytes: number;
  /** A guest's file that nothing refers to is deleted this long after its upload (GUEST_FILE_RETENTION_HOURS, default 24). */
  guestFileRetentionMs: number;
  /** Megapixels of pictures one customer's uploads may have decoded per hour (UPLOAD_MEGAPIXELS_PER_HOUR_CUSTOMER, default 3000; docs/decisions/0050). */
  customerMegapixelsPerHour: number;
  /** The same for the guests of one client address (UPLOAD_MEGAPIXELS_PER_HOUR_GUEST, default 1000). */
  guestMegapixelsPerHour: number;
}

export interface OrdersConfig {
  /** The most units of one sku in one order (ORDER_MAX_LINE_QUANTITY, default 10, at most 99). */
  maxLineQuantity: number;
  /** The most units in one order, all lines together (ORDER_MAX_UNITS, default 30). */
  maxUnits: number;
  /** Counting window of the checkout limits below (ORDER_LIMIT_WINDOW_MINUTES, default 60). */
  limitWindowMs: number;
  /** Checkouts per client address per window (ORDER_LIMIT_PER_ADDRESS, default 20). */
  perAddress: number;
  /** Checkouts per signed-in customer per window (ORDER_LIMIT_PER_CUSTOMER, default 10). */
  perCustomer: number;
  /** Guest checkouts per contact email and per contact mobile per window (ORDER_LIMIT_PER_CONTACT, default 5). */
  perContact: number;
  /** Units that unpaid orders and bookings of one guest email, one guest mobile or one customer may hold at once (ORDER_HOLD_MAX_UNITS, default 30). */
  holdMaxUnits: number;
  /** Units that unpaid orders and bookings placed from one client address may hold at once (ORDER_HOLD_MAX_UNITS_PER_ADDRESS, default 60). */
  holdMaxUnitsPerAddress: number;
  /** A booking with no payment proof is released this long after it was placed (BOOKING_HOLD_HOURS, default 48). */
  bookingHoldMs: number;
}

export interface MetricsConfig {
  /** METRICS_PORT: a listener of its own for GET /metrics, no token; null: none. */
  port: number | null;
  /** METRICS_HOST: where that listener binds (default 127.0.0.1, this machine only). */
  host: string;
  /** METRICS_TOKEN: GET /metrics on the shop's own port with `Authorization: Bearer <token>`; null: not there. */
  token: string | null;
}

export interface PaymentsConfig {
  /** PAYMENT_PROVIDER: the built-in test gateway (default) or SSLCommerz. */
  provider: 'sandbox' | 'sslcommerz';
  /** SSLCOMMERZ_STORE_ID / SSLCOMMERZ_STORE_PASSWORD; null when unset. */
  sslcommerz: { storeId: string; storePassword: string; baseUrl: string; timeoutMs?: number } | null;
  /**
   * Signs the sandbox gateway's notifications (PAYMENT_SANDBOX_SECRET). Null when unset: a
   * secret is then generated for this installation and kept in the database
   * (installation_secrets), never a value every copy of the shop shares.
   */
  sandboxSecret: string | null;
  /** An unfinished payment session releases its stock after this (PAYMENT_SESSION_TTL_MINUTES, default 60). */
  sessionTtlMs: number;
  /** A failed or cancelled card order that is not paid again is cancelled after this (UNPAID_ORDER_TTL_DAYS, default 7). */
  unpaidOrderTtlMs: number;
  /**
   * The bKash wallet (BKASH_APP_KEY, BKASH_APP_SECRET, BKASH_USERNAME, BKASH_PASSWORD,
   * BKASH_SANDBOX, BKASH_BASE_URL); null unless all four credentials are set, and then
   * checkout does not offer bKash.
   */
  bkash: BkashOptions | null;
  /**
   * The Nagad wallet (NAGAD_MERCHANT_ID, NAGAD_MERCHANT_PRIVATE_KEY, NAGAD_PUBLIC_KEY,
   * NAGAD_SANDBOX, NAGAD_BASE_URL, NAGAD_SERVER_IP, NAGAD_MERCHANT_NUMBER); null unless the id
   * and both keys are set, and then checkout does not offer Nagad (docs/decisions/0042).
   */
  nagad: NagadOptions | null;
}

export interface AccountsConfig {
  /** A session unused this long ends (SESSION_IDLE_DAYS, default 30). */
  sessionIdleMs: number;
  /** A session ends this long after sign-in, used or not (SESSION_MAX_DAYS, default 90). */
  sessionMaxMs: number;
  /** Counting window of the limits below (AUTH_LIMIT_WINDOW_MINUTES, default 15). */
  limitWindowMs: number;
  /** Failed sign-ins per account per window (SIGNIN_LIMIT_PER_ACCOUNT, default 5). */
  signInPerAccount: number;
  /** Failed sign-ins per client address per window (SIGNIN_LIMIT_PER_ADDRESS, default 50). */
  signInPerAddress: number;
  /** Sign-ups per client address per window (SIGNUP_LIMIT_PER_ADDRESS, default 20). */
  signUpPerAddress: number;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const port = Number(env.PORT ?? 3000);
  const dataDir = path.resolve(REPO_ROOT, env.DATA_DIR ?? 'data');
  const databaseUrl = secretFromEnv(env, 'DATABASE_URL');
  const db: DbConfig = databaseUrl
    ? { kind: 'postgres', url: databaseUrl, schema: env.DATABASE_SCHEMA || undefined }
    : { kind: 'sqlite', file: env.SQLITE_FILE ? path.resolve(env.SQLITE_FILE) : path.join(dataDir, 'storefront.db') };
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    db,
    dataDir,
    apiKey: env.STOREFRONT_API_KEY ?? 'storefront-web',
    imageHost: env.IMAGE_HOST ?? '',
    logLevel: env.LOG_LEVEL ?? 'info',
    webBuildDir: env.WEB_BUILD_DIR === '' ? null : path.resolve(REPO_ROOT, env.WEB_BUILD_DIR ?? 'apps/web/build'),
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, ''),
    readCacheMs: Math.max(0, Number(env.READ_CACHE_MS ?? 30_000) || 0),
    shellCacheMs: Math.max(0, Number(env.SHELL_CACHE_MS ?? 5_000) || 0),
    renders: {
      concurrency: Math.max(1, Math.floor(Number(env.RENDER_CONCURRENCY ?? 4)) || 4),
      queue: Math.max(0, Math.floor(Number(env.RENDER_QUEUE ?? 64)) || 0),
      waitMs: Math.max(1, Number(env.RENDER_WAIT_MS ?? 2_000) || 2_000),
    },
    searches: {
      concurrency: Math.max(1, Math.floor(Number(env.SEARCH_CONCURRENCY ?? 4)) || 4),
      queue: Math.max(0, Math.floor(Number(env.SEARCH_QUEUE ?? 256)) || 0),
      waitMs: Math.max(1, Number(env.SEARCH_WAIT_MS ?? 1_000) || 1_000),
    },
    pageCacheMs: Math.max(0, Number(env.PAGE_CACHE_MS ?? 5_000) || 0),
    compression: !['0', 'off', 'false'].includes((env.COMPRESSION ?? '').toLowerCase()),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    mail: {
      smtpUrl: secretFromEnv(env, 'SMTP_URL') || null,
      from: env.MAIL_FROM ?? 'Nibash Furniture <no-reply@nibash.com.bd>',
    },
    accounts: {
      sessionIdleMs: positive(env.SESSION_IDLE_DAYS, 30) * 86_400_000,
      sessionMaxMs: positive(env.SESSION_MAX_DAYS, 90) * 86_400_000,
      limitWindowMs: positive(env.AUTH_LIMIT_WINDOW_MINUTES, 15) * 60_000,
      signInPerAccount: positive(env.SIGNIN_LIMIT_PER_ACCOUNT, 5),
      signInPerAddress: positive(env.SIGNIN_LIMIT_PER_ADDRESS, 50),
      signUpPerAddress: positive(env.SIGNUP_LIMIT_PER_ADDRESS, 20),
    },
    payments: {
      provider: env.PAYMENT_PROVIDER === 'sslcommerz' ? 'sslcommerz' : 'sandbox',
      sslcommerz:
        env.SSLCOMMERZ_STORE_ID && secretFromEnv(env, 'SSLCOMMERZ_STORE_PASSWORD')
          ? {
              storeId: env.SSLCOMMERZ_STORE_ID,
              storePassword: secretFromEnv(env, 'SSLCOMMERZ_STORE_PASSWORD')!,
              baseUrl: (
                env.SSLCOMMERZ_BASE_URL ||
                (env.SSLCOMMERZ_SANDBOX === '1' || env.SSLCOMMERZ_SANDBOX === 'true' ? 'https://sandbox.sslcommerz.com' : 'https://securepay.sslcommerz.com')
              ).replace(/\/$/, ''),
              timeoutMs: positive(env.SSLCOMMERZ_TIMEOUT_MS, 20_000),
            }
          : null,
      sandboxSecret: secretFromEnv(env, 'PAYMENT_SANDBOX_SECRET') || null,
      sessionTtlMs: positive(env.PAYMENT_SESSION_TTL_MINUTES, 60) * 60_000,
      unpaidOrderTtlMs: positive(env.UNPAID_ORDER_TTL_DAYS, 7) * 86_400_000,
      bkash: bkashFromEnv({
        ...env,
        BKASH_APP_SECRET: secretFromEnv(env, 'BKASH_APP_SECRET'),
        BKASH_PASSWORD: secretFromEnv(env, 'BKASH_PASSWORD'),
      }),
      nagad: nagadFromEnv({
        ...env,
        NAGAD_MERCHANT_PRIVATE_KEY: secretFromEnv(env, 'NAGAD_MERCHANT_PRIVATE_KEY'),
        NAGAD_PUBLIC_KEY: secretFromEnv(env, 'NAGAD_PUBLIC_KEY'),
      }),
    },
    orders: {
      // 99 is the most a checkout request may carry at all (LINE_QUANTITY_CEILING).
      maxLineQuantity: Math.min(99, Math.trunc(positive(env.ORDER_MAX_LINE_QUANTITY, 10))),
      maxUnits: Math.trunc(positive(env.ORDER_MAX_UNITS, 30)),
      limitWindowMs: positive(env.ORDER_LIMIT_WINDOW_MINUTES, 60) * 60_000,
      perAddress: positive(env.ORDER_LIMIT_PER_ADDRESS, 20),
      perCustomer: positive(env.ORDER_LIMIT_PER_CUSTOMER, 10),
      perContact: positive(env.ORDER_LIMIT_PER_CONTACT, 5),
      holdMaxUnits: positive(env.ORDER_HOLD_MAX_UNITS, 30),
      holdMaxUnitsPerAddress: positive(env.ORDER_HOLD_MAX_UNITS_PER_ADDRESS, 60),
      bookingHoldMs: positive(env.BOOKING_HOLD_HOURS, 48) * 3_600_000,
    },
    uploads: {
      customerQuotaBytes: positive(env.UPLOAD_QUOTA_CUSTOMER_MB, 500) * MIB,
      guestQuotaBytes: positive(env.UPLOAD_QUOTA_GUEST_MB, 100) * MIB,
      guestTotalBytes: positive(env.GUEST_UPLOADS_TOTAL_MB, 2048) * MIB,
      minFreeDiskBytes: Math.max(0, Number(env.UPLOAD_MIN_FREE_DISK_MB ?? 1024) || 0) * MIB,
      guestFileRetentionMs: positive(env.GUEST_FILE_RETENTION_HOURS, 24) * 3_600_000,
      customerMegapixelsPerHour: Math.trunc(positive(env.UPLOAD_MEGAPIXELS_PER_HOUR_CUSTOMER, 3000)),
      guestMegapixelsPerHour: Math.trunc(positive(env.UPLOAD_MEGAPIXELS_PER_HOUR_GUEST, 1000)),
    },
    images: {
      concurrency: Math.max(1, Math.floor(Number(env.IMAGE_CONCURRENCY ?? Math.min(2, availableParallelism()))) || 1),
      queue: Math.max(0, Math.floor(Number(env.IMAGE_QUEUE ?? 64)) || 0),
      waitMs: 30_000,
    },
    metrics: {
      port: env.METRICS_PORT ? port0to65535(env.METRICS_PORT, 'METRICS_PORT') : null,
      host: env.METRICS_HOST || '127.0.0.1',
      token: secretFromEnv(env, 'METRICS_TOKEN') || null,
    },
    couriers: {
      steadfast: steadfastFromEnv({
        ...env,
        STEADFAST_SECRET_KEY: secretFromEnv(env, 'STEADFAST_SECRET_KEY'),
        STEADFAST_WEBHOOK_TOKEN: secretFromEnv(env, 'STEADFAST_WEBHOOK_TOKEN'),
      }),
      pathao: pathaoFromEnv({
        ...env,
        PATHAO_CLIENT_SECRET: secretFromEnv(env, 'PATHAO_CLIENT_SECRET'),
        PATHAO_PASSWORD: secretFromEnv(env, 'PATHAO_PASSWORD'),
        PATHAO_WEBHOOK_SECRET: secretFromEnv(env, 'PATHAO_WEBHOOK_SECRET'),
      }),
      pollEveryMs: positive(env.COURIER_POLL_MINUTES, 10) * 60_000,
      deliveryPriceFrom: env.DELIVERY_PRICE_FROM?.trim().toLowerCase() === 'pathao' ? 'pathao' : 'zones',
      itemWeightGrams: Math.trunc(positive(env.PATHAO_ITEM_WEIGHT_GRAMS, 1000)),
      pollStaleMs: positive(env.COURIER_POLL_STALE_MINUTES, 60) * 60_000,
    },
  };
}

const MIB = 1024 * 1024;

/** proxy-addr's names for the loopback, link-local and unique-local ranges. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY (docs/decisions/0023): unset, `0` or `false` trusts no proxy; a whole
 * number (`1`, or `true` taken as 1) trusts that many hops; otherwise a comma-separated
 * list of proxy addresses or CIDR ranges. Anything else stops the start: a typo here
 * would silently let every client choose its own address, or give all one address.
 */
export function parseTrustProxy(value: string | undefined): false | number | string[] {
  const v = (value ?? '').trim();
  if (v === '' || v === '0' || v.toLowerCase() === 'false') return false;
  if (v.toLowerCase() === 'true') return 1;
  if (/^\d+$/.test(v)) return Number(v);
  const entries = v
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const bad = entries.filter((e) => !PROXY_RANGE_NAMES.has(e) && !isAddressOrRange(e));
  if (!entries.length || bad.length) {
    throw new Error(
      `TRUST_PROXY must be a number of proxy hops in front of the shop (1 for one load balancer) or a comma-separated list of proxy addresses or CIDR ranges; '${bad[0] ?? v}' is neither (docs/decisions/0023)`,
    );
  }
  return entries;
}

function isAddressOrRange(entry: string): boolean {
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (!family || rest.length) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * Fastify's trustProxy for the setting. A hop count becomes a function: Fastify 5 takes a
 * plain number as "trust nothing", and `true` as "trust every hop".
 */
export function fastifyTrustProxy(setting: AppConfig['trustProxy']): false | string[] | ((address: string, hop: number) => boolean) {
  if (setting === false || setting === 0) return false;
  if (Array.isArray(setting)) return setting;
  const hops = setting === true ? 1 : setting;
  return (_address, hop) => hop < hops;
}

/**
 * Settings that hold secrets. Each is read from the variable itself or from `NAME_FILE`,
 * a file whose trimmed content is the value (systemd credentials, Docker or Kubernetes
 * secrets), and none is ever logged (redactSecrets, LOG_REDACT).
 */
export const SECRET_SETTINGS = [
  'DATABASE_URL',
  'SMTP_URL',
  'SSLCOMMERZ_STORE_PASSWORD',
  'PAYMENT_SANDBOX_SECRET',
  'METRICS_TOKEN',
  'STEADFAST_SECRET_KEY',
  'STEADFAST_WEBHOOK_TOKEN',
  'PATHAO_CLIENT_SECRET',
  'PATHAO_PASSWORD',
  'PATHAO_WEBHOOK_SECRET',
  'BKASH_APP_SECRET',
  'BKASH_PASSWORD',
  'NAGAD_MERCHANT_PRIVATE_KEY',
  // Not a secret, but a PEM file is the natural way to hand it over (NAGAD_PUBLIC_KEY_FILE).
  'NAGAD_PUBLIC_KEY',
] as const;
export type SecretSetting = (typeof SECRET_SETTINGS)[number];

/** Signs the sandbox gateway's notifications when PAYMENT_SANDBOX_SECRET is unset: public, so never in production. */
export const BUILT_IN_SANDBOX_SECRET = 'sandbox-not-a-secret';

/** Values of secret settings that anyone can read in this repository (docs, examples): refused in production. */
export const KNOWN_SECRET_VALUES: Partial<Record<SecretSetting, readonly string[]>> = {
  PAYMENT_SANDBOX_SECRET: [BUILT_IN_SANDBOX_SECRET],
  // The placeholder people leave in when they copy an example.
  METRICS_TOKEN: ['change-me'],
  SSLCOMMERZ_STORE_PASSWORD: ['change-me'],
};

/** A secret from the environment: `NAME`, or the trimmed content of the file `NAME_FILE`. */
export function secretFromEnv(env: NodeJS.ProcessEnv, name: SecretSetting): string | undefined {
  const file = env[`${name}_FILE`];
  if (!file) return env[name];
  if (env[name]) throw new ConfigError(`set ${name} or ${name}_FILE, not both`);
  let value: string;
  try {
    value = fs.readFileSync(file, 'utf8').trim();
  } catch (err) {
    throw new ConfigError(`${name}_FILE cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'}): ${file}`);
  }
  if (!value) throw new ConfigError(`${name}_FILE is empty: ${file}`);
  return value;
}

/** A setting the server cannot start with; its message names the setting, never a secret value. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

function port0to65535(value: string, name: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65_535) throw new ConfigError(`${name} must be a port number, not ${JSON.stringify(value)}`);
  return n;
}

/**
 * Production is NODE_ENV=production or a shop served over https (a real address).
 * There the server refuses what is only fit for a demo (docs/decisions/0027):
 * - the built-in test gateway (or the SSLCommerz sandbox) unless ALLOW_TEST_PAYMENTS=1;
 * - any secret setting whose value is a built-in default or a published placeholder
 *   (KNOWN_SECRET_VALUES), demo or not.
 * Returns the problems, each saying what to set; none means the start may go on.
 */
export function productionProblems(config: AppConfig, env: NodeJS.ProcessEnv): string[] {
  if (!isProduction(config, env)) return [];
  const problems: string[] = [];
  const demo = env.ALLOW_TEST_PAYMENTS === '1' || env.ALLOW_TEST_PAYMENTS === 'true';
  const pay = config.payments;
  const builtIn = (name: SecretSetting, value: string | null | undefined) => !!value && !!KNOWN_SECRET_VALUES[name]?.includes(value);
  if (pay.provider === 'sandbox' && !demo) {
    const orDemo = builtIn('PAYMENT_SANDBOX_SECRET', pay.sandboxSecret)
      ? 'ALLOW_TEST_PAYMENTS=1 and a PAYMENT_SANDBOX_SECRET of its own'
      : 'ALLOW_TEST_PAYMENTS=1';
    problems.push(
      `PAYMENT_PROVIDER is the built-in test gateway: set PAYMENT_PROVIDER=sslcommerz with SSLCOMMERZ_STORE_ID and SSLCOMMERZ_STORE_PASSWORD (or, for a demo, ${orDemo})`,
    );
  } else if (pay.provider === 'sslcommerz' && !pay.sslcommerz) {
    problems.push('PAYMENT_PROVIDER=sslcommerz needs SSLCOMMERZ_STORE_ID and SSLCOMMERZ_STORE_PASSWORD (or SSLCOMMERZ_STORE_PASSWORD_FILE)');
  } else if (pay.sslcommerz && !demo && new URL(pay.sslcommerz.baseUrl).hostname !== 'securepay.sslcommerz.com') {
    problems.push(
      `SSLCommerz points at ${new URL(pay.sslcommerz.baseUrl).host}, not the live gateway: unset SSLCOMMERZ_SANDBOX and SSLCOMMERZ_BASE_URL (or ALLOW_TEST_PAYMENTS=1 for a demo)`,
    );
  }
  // A wallet pointed at its sandbox (or a stand-in) would take no money while the shop hands
  // over goods as paid: production talks to the live gateways only (decisions 0041, 0042).
  for (const [name, wallet, live] of [
    ['bKash', pay.bkash, BKASH_LIVE_URL],
    ['Nagad', pay.nagad, NAGAD_LIVE_URL],
  ] as const) {
    if (wallet && !demo && new URL(wallet.baseUrl).host !== new URL(live).host) {
      const prefix = name.toUpperCase();
      problems.push(
        `${name} points at ${new URL(wallet.baseUrl).host}, not the live gateway: set ${prefix}_SANDBOX=false and unset ${prefix}_BASE_URL (or ALLOW_TEST_PAYMENTS=1 for a demo)`,
      );
    }
  }
  // Only the secrets in use: the sandbox secret means nothing with SSLCommerz (and, outside
  // a demo, the sandbox itself is refused above).
  const inUse: Partial<Record<SecretSetting, string | null | undefined>> = {
    PAYMENT_SANDBOX_SECRET: pay.provider === 'sandbox' && demo ? pay.sandboxSecret : null,
    SSLCOMMERZ_STORE_PASSWORD: pay.provider === 'sslcommerz' ? pay.sslcommerz?.storePassword : null,
    METRICS_TOKEN: config.metrics.token,
  };
  for (const [name, value] of Object.entries(inUse) as [SecretSetting, string | null | undefined][]) {
    if (builtIn(name, value))
      problems.push(`${name} is a built-in or example value: set ${name} (or ${name}_FILE) to a long random value (openssl rand -hex 32)`);
  }
  return problems;
}

export function isProduction(config: Pick<AppConfig, 'publicUrl'>, env: NodeJS.ProcessEnv): boolean {
  return env.NODE_ENV === 'production' || config.publicUrl.startsWith('https:');
}

/** The one log line the server prints before it refuses to start; null when it may start. */
export function checkProductionSafety(config: AppConfig, env: NodeJS.ProcessEnv): string | null {
  const problems = productionProblems(config, env);
  return problems.length ? `refusing to start in production (NODE_ENV=production or an https PUBLIC_URL): ${problems.join('; ')}` : null;
}

/**
 * Text with every secret value of the configuration, and any password in a URL, replaced:
 * for error messages printed at start (a bad DATABASE_URL must not print its password).
 */
export function redactSecrets(text: string, env: NodeJS.ProcessEnv = process.env): string {
  let out = text;
  for (const name of SECRET_SETTINGS) {
    let value: string | undefined;
    try {
      value = secretFromEnv(env, name);
    } catch {
      value = env[name];
    }
    const values = [value];
    // A URL's password alone may be quoted too.
    if (value && /^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
      try {
        const password = new URL(value).password;
        values.push(password, decodeURIComponent(password));
      } catch {
        // not a URL after all: the whole value is redacted above
      }
    }
    for (const v of values) if (v && v.length >= 4) out = out.split(v).join(`[${name}]`);
  }
  // scheme://user:password@host → scheme://user:***@host
  return out.replace(/([a-z][a-z0-9+.-]*:\/\/[^\s:/@]*):[^\s@/]*@/gi, '$1:***@');
}

/**
 * Request headers pino must never write (Fastify logs none by default; this holds if a
 * serializer or a log line ever includes them).
 */
export const LOG_REDACT = {
  paths: [
    'req.headers.authorization',
    'req.headers.cookie',
    'req.headers["x-auth-token"]',
    'headers.authorization',
    'headers.cookie',
    'headers["x-auth-token"]',
    'res.headers["set-cookie"]',
    'config',
  ],
  censor: '[redacted]',
};

/** A positive number from the environment, or the default when unset or not one. */
function positive(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value && Number.isFinite(n) && n > 0 ? n : fallback;
}
