import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export type DbConfig =
  | { kind: 'sqlite'; file: string }
  | { kind: 'postgres'; url: string; schema?: string };

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
  trustProxy: boolean;
  mail: {
    /** smtp://user:pass@host:port; unset keeps mail in the database outbox. */
    smtpUrl: string | null;
    from: string;
  };
  /** Customer accounts: session lifetimes and sign-in limits (docs/decisions/0008, 0009). */
  accounts: AccountsConfig;
  /** How long catalogue and site reads are kept in the in-process cache (READ_CACHE_MS, default 30000; 0 turns it off; docs/decisions/0007). */
  readCacheMs: number;
  /** Compress pages and JSON for clients that accept it (COMPRESSION, default on; off behind a proxy or CDN that compresses). */
  compression: boolean;
  /** How long a guest's catalogue page stays in the page cache (PAGE_CACHE_MS, default 5000; 0 turns it off; docs/decisions/0007). */
  pageCacheMs: number;
  /** Card payments (docs/decisions/0017). */
  payments: PaymentsConfig;
}

export interface PaymentsConfig {
  /** PAYMENT_PROVIDER: the built-in test gateway (default) or SSLCommerz. */
  provider: 'sandbox' | 'sslcommerz';
  /** SSLCOMMERZ_STORE_ID / SSLCOMMERZ_STORE_PASSWORD; null when unset. */
  sslcommerz: { storeId: string; storePassword: string; baseUrl: string; timeoutMs?: number } | null;
  /** Signs the sandbox gateway's notifications (PAYMENT_SANDBOX_SECRET). */
  sandboxSecret: string;
  /** An unfinished payment session releases its stock after this (PAYMENT_SESSION_TTL_MINUTES, default 60). */
  sessionTtlMs: number;
  /** A failed or cancelled card order that is not paid again is cancelled after this (UNPAID_ORDER_TTL_DAYS, default 7). */
  unpaidOrderTtlMs: number;
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
  const db: DbConfig = env.DATABASE_URL
    ? { kind: 'postgres', url: env.DATABASE_URL, schema: env.DATABASE_SCHEMA || undefined }
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
    pageCacheMs: Math.max(0, Number(env.PAGE_CACHE_MS ?? 5_000) || 0),
    compression: !['0', 'off', 'false'].includes((env.COMPRESSION ?? '').toLowerCase()),
    trustProxy: env.TRUST_PROXY === '1' || env.TRUST_PROXY === 'true',
    mail: {
      smtpUrl: env.SMTP_URL || null,
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
        env.SSLCOMMERZ_STORE_ID && env.SSLCOMMERZ_STORE_PASSWORD
          ? {
              storeId: env.SSLCOMMERZ_STORE_ID,
              storePassword: env.SSLCOMMERZ_STORE_PASSWORD,
              baseUrl: (env.SSLCOMMERZ_BASE_URL || (env.SSLCOMMERZ_SANDBOX === '1' || env.SSLCOMMERZ_SANDBOX === 'true' ? 'https://sandbox.sslcommerz.com' : 'https://securepay.sslcommerz.com')).replace(/\/$/, ''),
              timeoutMs: positive(env.SSLCOMMERZ_TIMEOUT_MS, 20_000),
            }
          : null,
      sandboxSecret: env.PAYMENT_SANDBOX_SECRET || 'sandbox-not-a-secret',
      sessionTtlMs: positive(env.PAYMENT_SESSION_TTL_MINUTES, 60) * 60_000,
      unpaidOrderTtlMs: positive(env.UNPAID_ORDER_TTL_DAYS, 7) * 86_400_000,
    },
  };
}

/** A positive number from the environment, or the default when unset or not one. */
function positive(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value && Number.isFinite(n) && n > 0 ? n : fallback;
}
