import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import {
  BUILT_IN_SANDBOX_SECRET,
  checkProductionSafety,
  ConfigError,
  LOG_REDACT,
  loadConfig,
  productionProblems,
  redactSecrets,
  SECRET_SETTINGS,
  secretFromEnv,
} from './config.ts';

// Safe production defaults and secrets from files (docs/decisions/0027).

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'storefront-config-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function secretFile(content: string): string {
  const file = path.join(tmp, `secret-${Math.random().toString(36).slice(2)}`);
  fs.writeFileSync(file, content);
  return file;
}

const LIVE = {
  NODE_ENV: 'production',
  PUBLIC_URL: 'https://shop.example.com',
  PAYMENT_PROVIDER: 'sslcommerz',
  SSLCOMMERZ_STORE_ID: 'nibash01',
  SSLCOMMERZ_STORE_PASSWORD: 'a7f3c9e1d2b4a6c8e0f1a3b5c7d9e1f2',
};

const problems = (env: NodeJS.ProcessEnv) => productionProblems(loadConfig(env), env);

describe('secrets from the environment or from NAME_FILE', () => {
  it('reads every secret setting from a file, trimmed', () => {
    for (const name of SECRET_SETTINGS) {
      expect(secretFromEnv({ [`${name}_FILE`]: secretFile('  s3cret-value\n') }, name)).toBe('s3cret-value');
    }
  });

  it('takes the variable itself when there is no file', () => {
    expect(secretFromEnv({ SMTP_URL: 'smtp://mail:25' }, 'SMTP_URL')).toBe('smtp://mail:25');
    expect(secretFromEnv({}, 'SMTP_URL')).toBeUndefined();
  });

  it('feeds the configuration: database, mail, SSLCommerz, sandbox, metrics', () => {
    const config = loadConfig({
      DATABASE_URL_FILE: secretFile('postgres://shop:pw@db:5432/shop\n'),
      SMTP_URL_FILE: secretFile('smtp://u:p@mail:587'),
      SSLCOMMERZ_STORE_ID: 'store',
      SSLCOMMERZ_STORE_PASSWORD_FILE: secretFile('store-password'),
      PAYMENT_SANDBOX_SECRET_FILE: secretFile('sandbox-from-file'),
      METRICS_TOKEN_FILE: secretFile('metrics-from-file'),
    });
    expect(config.db).toEqual({ kind: 'postgres', url: 'postgres://shop:pw@db:5432/shop', schema: undefined });
    expect(config.mail.smtpUrl).toBe('smtp://u:p@mail:587');
    expect(config.payments.sslcommerz?.storePassword).toBe('store-password');
    expect(config.payments.sandboxSecret).toBe('sandbox-from-file');
    expect(config.metrics.token).toBe('metrics-from-file');
  });

  it('refuses a file that cannot be read, an empty file, and both forms at once, naming the setting and not the value', () => {
    expect(() => loadConfig({ DATABASE_URL_FILE: path.join(tmp, 'missing') })).toThrow(ConfigError);
    expect(() => loadConfig({ DATABASE_URL_FILE: path.join(tmp, 'missing') })).toThrow(/DATABASE_URL_FILE cannot be read \(ENOENT\)/);
    expect(() => loadConfig({ SMTP_URL_FILE: secretFile(' \n') })).toThrow(/SMTP_URL_FILE is empty/);
    let message = '';
    try {
      loadConfig({ METRICS_TOKEN: 'the-token-value', METRICS_TOKEN_FILE: secretFile('x') });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toBe('set METRICS_TOKEN or METRICS_TOKEN_FILE, not both');
  });
});

describe('checkProductionSafety', () => {
  it('lets anything start outside production', () => {
    expect(checkProductionSafety(loadConfig({}), {})).toBeNull();
    expect(checkProductionSafety(loadConfig({ NODE_ENV: 'development' }), { NODE_ENV: 'development' })).toBeNull();
  });

  it('lets a live SSLCommerz shop with its own secrets start', () => {
    expect(problems(LIVE)).toEqual([]);
    expect(checkProductionSafety(loadConfig(LIVE), LIVE)).toBeNull();
  });

  it('refuses a wallet pointed at its sandbox or anywhere but its live gateway, unless it is a demo', () => {
    const bkash = { BKASH_APP_KEY: 'k', BKASH_APP_SECRET: 's', BKASH_USERNAME: 'u', BKASH_PASSWORD: 'p' };
    expect(problems({ ...LIVE, ...bkash })).toEqual([
      expect.stringMatching(/^bKash points at tokenized\.sandbox\.bka\.sh, not the live gateway: set BKASH_SANDBOX=false/),
    ]);
    expect(problems({ ...LIVE, ...bkash, BKASH_SANDBOX: 'false' })).toEqual([]);
    expect(problems({ ...LIVE, ...bkash, BKASH_SANDBOX: 'false', BKASH_BASE_URL: 'http://127.0.0.1:9/v1.2.0-beta' })).toHaveLength(1);
    expect(problems({ ...LIVE, ...bkash, ALLOW_TEST_PAYMENTS: '1' })).toEqual([]);
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
    const nagad = {
      NAGAD_MERCHANT_ID: '683002007104225',
      NAGAD_MERCHANT_PRIVATE_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      NAGAD_PUBLIC_KEY: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    };
    expect(problems({ ...LIVE, ...nagad })).toEqual([expect.stringMatching(/^Nagad points at sandbox\.mynagad\.com:10080, not the live gateway/)]);
    expect(problems({ ...LIVE, ...nagad, NAGAD_SANDBOX: 'false' })).toEqual([]);
  });

  it('takes NODE_ENV=production or an https PUBLIC_URL for production', () => {
    expect(problems({ NODE_ENV: 'production' })).not.toEqual([]);
    expect(problems({ PUBLIC_URL: 'https://shop.example.com' })).not.toEqual([]);
    expect(problems({ PUBLIC_URL: 'http://127.0.0.1:3000' })).toEqual([]);
  });

  it('refuses the built-in test gateway, saying what to set, in one line', () => {
    const env = { NODE_ENV: 'production' };
    const message = checkProductionSafety(loadConfig(env), env);
    expect(message).not.toBeNull();
    expect(message).not.toContain('\n');
    expect(message).toContain('PAYMENT_PROVIDER=sslcommerz');
    expect(message).toContain('ALLOW_TEST_PAYMENTS=1');
    expect(problems({ NODE_ENV: 'production', PAYMENT_PROVIDER: 'sandbox', PAYMENT_SANDBOX_SECRET: 'a-real-random-secret' })).toHaveLength(1);
  });

  it('allows the test gateway for a demo that says so, with a secret of its own', () => {
    expect(problems({ NODE_ENV: 'production', ALLOW_TEST_PAYMENTS: '1', PAYMENT_SANDBOX_SECRET: 'a-real-random-secret' })).toEqual([]);
  });

  it('refuses the built-in sandbox secret even in a demo when it is set', () => {
    // Left unset, the secret is generated per installation, not built in.
    expect(problems({ NODE_ENV: 'production', ALLOW_TEST_PAYMENTS: '1' })).toEqual([]);
    for (const env of [
      { NODE_ENV: 'production', ALLOW_TEST_PAYMENTS: '1', PAYMENT_SANDBOX_SECRET: BUILT_IN_SANDBOX_SECRET },
      { NODE_ENV: 'production', ALLOW_TEST_PAYMENTS: '1', PAYMENT_SANDBOX_SECRET_FILE: secretFile(`${BUILT_IN_SANDBOX_SECRET}\n`) },
    ]) {
      const found = problems(env);
      expect(found, JSON.stringify(env)).toHaveLength(1);
      expect(found[0]).toMatch(/^PAYMENT_SANDBOX_SECRET is a built-in or example value: set PAYMENT_SANDBOX_SECRET \(or PAYMENT_SANDBOX_SECRET_FILE\)/);
    }
  });

  it('ignores the sandbox secret when the shop takes real payments', () => {
    expect(problems({ ...LIVE, PAYMENT_SANDBOX_SECRET: BUILT_IN_SANDBOX_SECRET })).toEqual([]);
  });

  it('refuses SSLCommerz without credentials, and its sandbox or another address unless a demo', () => {
    expect(problems({ NODE_ENV: 'production', PAYMENT_PROVIDER: 'sslcommerz' })[0]).toMatch(/needs SSLCOMMERZ_STORE_ID and SSLCOMMERZ_STORE_PASSWORD/);
    expect(problems({ ...LIVE, SSLCOMMERZ_SANDBOX: '1' })[0]).toMatch(/sandbox\.sslcommerz\.com, not the live gateway/);
    expect(problems({ ...LIVE, SSLCOMMERZ_BASE_URL: 'http://127.0.0.1:9999' })[0]).toMatch(/127\.0\.0\.1:9999, not the live gateway/);
    expect(problems({ ...LIVE, SSLCOMMERZ_SANDBOX: '1', ALLOW_TEST_PAYMENTS: '1' })).toEqual([]);
  });

  it('refuses the placeholders the example files show', () => {
    expect(problems({ ...LIVE, METRICS_TOKEN: 'change-me' })[0]).toMatch(/^METRICS_TOKEN is a built-in or example value/);
    expect(problems({ ...LIVE, SSLCOMMERZ_STORE_PASSWORD: 'change-me' })[0]).toMatch(/^SSLCOMMERZ_STORE_PASSWORD is a built-in or example value/);
  });

  it('lists every problem in the one line', () => {
    const env = { ...LIVE, SSLCOMMERZ_SANDBOX: '1', METRICS_TOKEN: 'change-me' };
    const message = checkProductionSafety(loadConfig(env), env)!;
    expect(message.split('; ')).toHaveLength(2);
    expect(message).toContain('not the live gateway');
    expect(message).toContain('METRICS_TOKEN is');
  });

  it('asks a demo on the built-in sandbox secret for a secret of its own', () => {
    // Unset, the secret is generated per installation (installation_secrets): nothing more to set.
    expect(problems({ NODE_ENV: 'production' })).toEqual([expect.stringMatching(/for a demo, ALLOW_TEST_PAYMENTS=1\)$/)]);
    expect(problems({ NODE_ENV: 'production', PAYMENT_SANDBOX_SECRET: BUILT_IN_SANDBOX_SECRET })).toEqual([
      expect.stringContaining('for a demo, ALLOW_TEST_PAYMENTS=1 and a PAYMENT_SANDBOX_SECRET of its own'),
    ]);
    expect(problems({ NODE_ENV: 'production', PAYMENT_SANDBOX_SECRET: 'a-real-random-secret' })).toEqual([
      expect.stringMatching(/for a demo, ALLOW_TEST_PAYMENTS=1\)$/),
    ]);
  });

  it('never puts a secret value in its message', () => {
    const env = { ...LIVE, SSLCOMMERZ_SANDBOX: '1', METRICS_TOKEN: 'change-me', DATABASE_URL: 'postgres://shop:hunter2-secret@db/shop' };
    const message = checkProductionSafety(loadConfig(env), env)!;
    expect(message).not.toContain(LIVE.SSLCOMMERZ_STORE_PASSWORD);
    expect(message).not.toContain('hunter2-secret');
  });
});

describe('redactSecrets', () => {
  it('hides secret values and URL passwords in error text', () => {
    const env = { DATABASE_URL: 'postgres://shop:p%40ss-word@db.internal:5432/shop', METRICS_TOKEN: 'tok-1234567890' };
    const text = redactSecrets(
      'connect to postgres://shop:p%40ss-word@db.internal:5432/shop failed; password p@ss-word; token tok-1234567890; other smtp://u:pw@mail:25',
      env,
    );
    expect(text).not.toContain('p%40ss-word');
    expect(text).not.toContain('p@ss-word');
    expect(text).not.toContain('tok-1234567890');
    expect(text).not.toContain(':pw@');
    expect(text).toContain('[DATABASE_URL]');
    expect(text).toContain('smtp://u:***@mail:25');
  });
});

describe('LOG_REDACT', () => {
  it('keeps the session header, cookies, bearer tokens and a config object out of the log', async () => {
    const lines: string[] = [];
    const app = Fastify({ logger: { level: 'info', redact: LOG_REDACT, stream: { write: (l: string) => void lines.push(l) } } });
    // Fastify's request serializer writes no headers; a handler logging them must not leak either.
    app.log.info({ headers: { 'x-auth-token': 'tok-abc', cookie: 'sid=cookie-abc', authorization: 'Bearer bearer-abc', accept: 'text/html' } }, 'a request');
    app.log.info({ config: { mail: { smtpUrl: 'smtp://u:smtp-abc@mail' } } }, 'the config');
    await app.close();
    const out = lines.join('');
    for (const secret of ['tok-abc', 'cookie-abc', 'bearer-abc', 'smtp-abc']) expect(out).not.toContain(secret);
    expect(out).toContain('text/html');
  });
});

describe('metrics settings', () => {
  it('are off unless a port or a token is given; the port binds to this machine by default', () => {
    expect(loadConfig({}).metrics).toEqual({ port: null, host: '127.0.0.1', token: null });
    expect(loadConfig({ METRICS_PORT: '9464' }).metrics).toEqual({ port: 9464, host: '127.0.0.1', token: null });
    expect(() => loadConfig({ METRICS_PORT: 'nine' })).toThrow(/METRICS_PORT must be a port number/);
  });
});
