import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  sql,
  type UnknownRow,
} from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import type { Db } from '../src/db/database.ts';
import { LocalDiskStorage } from '../src/modules/files/local-disk.storage.ts';
import type { FilesPluginOptions } from '../src/plugins/files.ts';
import { signFields } from '../src/modules/payments/gateway-fields.ts';
import { signIn, signUp, uniqueIp, uniqueMobile } from './helpers/accounts.ts';
import { expectApiError } from './helpers/assertions.ts';
import { checkout, checkoutBody, guestContact } from './helpers/checkout.ts';
import { pngBytes, uploadForm } from './helpers/files.ts';
import { signedInStaff, STAFF_PASSWORD } from './helpers/staff.ts';
import { startTestApp, type TestApp, testDbKind } from './helpers/test-app.ts';

// Smaller ways around the shop's defences: forgot-password telling known emails by the
// work it does, one mailbox signing up twice under its Unicode and punycode domain, and a
// sandbox gateway secret that every installation shared, invisible characters that make
// an email or a name read as another, and a full disk answering 500.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ seed: false, config: { trustProxy: 1 } });
});
afterAll(() => t?.close());

/** Another process of the shop on the same database: its own app, nothing shared in memory. */
async function secondApp(kysely = t.db.kysely): Promise<FastifyInstance> {
  return buildApp({ config: t.app.config, db: { kysely, dialect: t.db.dialect, destroy: async () => {}, observe: () => () => {} }, logger: false });
}

/** Records the SQL of every query while switched on. */
class SqlRecorder implements KyselyPlugin {
  on = false;
  statements: string[] = [];
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (this.on) this.statements.push(t.db.kysely.getExecutor().compileQuery(args.node, args.queryId).sql);
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

describe('forgot password does the same work for an unknown email as for a known one', () => {
  it('runs the same statements in answering either, and mails only the account', async () => {
    const recorder = new SqlRecorder();
    const app = await secondApp(t.db.kysely.withPlugin(recorder));
    // Only the statements run before the answer is sent count: what happens after it
    // cannot be timed by the asker.
    app.addHook('onRequest', async () => {
      recorder.statements = [];
      recorder.on = true;
    });
    app.addHook('onSend', async () => {
      recorder.on = false;
    });
    try {
      await app.listen({ host: '127.0.0.1', port: 0 });
      const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/forgot`;
      const forgot = async (email: string) => {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': t.app.config.apiKey, 'x-forwarded-for': uniqueIp() },
          body: JSON.stringify({ email }),
        });
        // Now and then a rate-limit hit also prunes old windows: not part of the answer.
        // The reset mail is stored after the answer (setImmediate); on a busy machine its
        // insert can land before onSend runs, which is not work the asker can time.
        return {
          status: res.status,
          body: await res.text(),
          statements: recorder.statements.filter((s) => !/^delete from "rate_limits"|^insert into "mail_outbox"/.test(s)),
        };
      };
      const c = await signUp(t);
      const resetsOf = async () =>
        Number(
          (
            await t.db.kysely
              .selectFrom('password_resets')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      const before = await resetsOf();

      const known = await forgot(c.email);
      const unknown = await forgot(`nobody.${randomBytes(4).toString('hex')}@example.com`);
      expect(known.status).toBe(200);
      expect(unknown).toMatchObject({ status: known.status, body: known.body });
      expect(known.statements.length).toBeGreaterThan(3);
      expect(unknown.statements).toEqual(known.statements);

      // The account got its link; the unknown email got nothing.
      expect(await resetsOf()).toBe(before + 1);
      await expect
        .poll(async () =>
          (await t.db.kysely.selectFrom('mail_outbox').select('to_address').where('subject', '=', 'Reset your password').execute()).map((r) => r.to_address),
        )
        .toEqual([c.email]);
    } finally {
      await app.close();
    }
  });
});

describe('an internationalised email domain and its punycode form are one address', () => {
  it('signs up once, signs in, resets and subscribes under either form', async () => {
    const local = `u${randomBytes(4).toString('hex')}`;
    const unicode = `${local}@bücher.example`;
    const ascii = `${local}@xn--bcher-kva.example`;
    const c = await signUp(t, { email: unicode });

    const twice = await t.api('/api/signup', {
      method: 'POST',
      json: { source: 'DEFAULT', type: 'DEFAULT', fullName: 'Second', email: ascii.toUpperCase(), mobile: uniqueMobile(), password: 'secret-pass' },
      headers: { 'x-forwarded-for': uniqueIp() },
    });
    expectApiError(twice, 409, 'duplicate_email');

    const signedIn = await signIn(t, ascii, c.password);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.userId).toBe(c.userId);

    const customer = await t.db.kysely.selectFrom('customers').select(['id', 'email', 'email_key']).where('email_key', '=', ascii).executeTakeFirstOrThrow();
    // The address is kept as the shopper typed it; only the key that compares is ASCII.
    expect(customer.email).toBe(unicode);
    expect((await t.api('/api/forgot', { method: 'POST', json: { email: ascii }, headers: { 'x-forwarded-for': uniqueIp() } })).status).toBe(200);
    expect(await t.db.kysely.selectFrom('password_resets').select('id').where('customer_id', '=', customer.id).execute()).toHaveLength(1);

    const subscribe = (email: string) =>
      t.api('/api/emails/subscriptions', { method: 'POST', json: { userId: '', email, extras: { offer: 'First order', type: 'first-time' } } });
    expect((await subscribe(ascii)).status).toBe(201);
    expectApiError(await subscribe(unicode), 409, 'already_subscribed');
  });

  it('keys stored before the change are rewritten by the migration, so their owners can still sign in', async () => {
    const db = t.db.kysely;
    const local = `m${randomBytes(4).toString('hex')}`;
    const legacy = `${local}@bücher.example`;
    const ascii = `${local}@xn--bcher-kva.example`;
    const c = await signUp(t, { email: legacy });
    const both = [await signUp(t), await signUp(t)];
    const clash = `k${randomBytes(4).toString('hex')}`;
    // As the rows were before: the key as typed, lower-cased; and a mailbox with an account under each form.
    await db.updateTable('customers').set({ email_key: legacy }).where('email_key', '=', ascii).execute();
    await db
      .updateTable('customers')
      .set({ email_key: `${clash}@bücher.example` })
      .where('email', '=', both[0].email)
      .execute();
    await db
      .updateTable('customers')
      .set({ email_key: `${clash}@xn--bcher-kva.example` })
      .where('email', '=', both[1].email)
      .execute();
    await db
      .insertInto('email_subscriptions')
      .values({ email: legacy, email_key: legacy, customer_id: null, offer: '', type: '', created_at: new Date().toISOString() })
      .execute();
    expectApiError(await signIn(t, legacy, c.password), 401);

    const migration = await import('../src/db/migrations/2026-11-23-0012-installation-secrets.ts');
    const kept = await db.selectFrom('installation_secrets').selectAll().execute();
    await migration.down(db);
    await migration.up(db);
    if (kept.length) await db.insertInto('installation_secrets').values(kept).execute();

    expect((await signIn(t, legacy, c.password)).status).toBe(200);
    expect((await signIn(t, ascii, c.password)).status).toBe(200);
    expect(await db.selectFrom('email_subscriptions').select('email_key').where('email', '=', legacy).execute()).toEqual([{ email_key: ascii }]);
    const clashed = await db
      .selectFrom('customers')
      .select(['email', 'email_key'])
      .where('email', 'in', [both[0].email, both[1].email])
      .orderBy('id')
      .execute();
    expect(clashed.map((r) => r.email_key)).toEqual([`${clash}@bücher.example`, `${clash}@xn--bcher-kva.example`]);
  });
});

describe('the sandbox gateway signs with a secret of this installation', () => {
  const failedNotice = (secret: string) => {
    const fields = { tran_id: `SBX-NONE-${randomBytes(4).toString('hex')}`, status: 'FAILED', amount: '100.00' };
    return new URLSearchParams({ ...fields, ...signFields(fields, secret) }).toString();
  };
  const notify = (body: string) =>
    t.api('/payments/ipn', { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded' }, apiKey: null });
  const stored = async () =>
    (await t.db.kysely.selectFrom('installation_secrets').select('value').where('name', '=', 'payment_sandbox').executeTakeFirst())?.value;

  it('PAYMENT_SANDBOX_SECRET when set; otherwise none in the configuration', () => {
    expect(loadConfig({ PAYMENT_SANDBOX_SECRET: 'from-the-operator' }).payments.sandboxSecret).toBe('from-the-operator');
    expect(loadConfig({}).payments.sandboxSecret).toBeNull();
  });

  it('generates one secret per database, and the old fixed value no longer verifies', async () => {
    const secret = await stored();
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(t.app.sandboxSecret).toBe(secret);
    expectApiError(await notify(failedNotice('sandbox-not-a-secret')), 400, 'bad_signature');
    // Signed with the installation's secret, the notice gets past the signature (to an unknown transaction).
    expectApiError(await notify(failedNotice(secret!)), 404, 'not_found');
  });

  it('two processes on one database use the same secret, even when both start at once on a new database', async () => {
    const another = await secondApp();
    try {
      expect(another.sandboxSecret).toBe(t.app.sandboxSecret);
    } finally {
      await another.close();
    }
    await t.db.kysely.deleteFrom('installation_secrets').where('name', '=', 'payment_sandbox').execute();
    const [a, b, c] = await Promise.all([secondApp(), secondApp(), secondApp()]);
    try {
      const fresh = await stored();
      expect(fresh).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(fresh).not.toBe(t.app.sandboxSecret);
      for (const app of [a, b, c]) expect(app.sandboxSecret).toBe(fresh);
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  });
});

describe('an email or a name with an invisible or control character is refused', () => {
  // Zero-width space, non-joiner, joiner, word joiner, byte-order mark, soft hyphen, a bidi
  // override and isolate, and a C0 and C1 control.
  const hidden = ['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u00ad', '\u202e', '\u2066', '\u0007', '\u0085'];
  const EMAIL_INVALID = 'Please Give a Correct Email';
  const NAME_INVISIBLE = 'Please Remove the Hidden or Control Characters From the Name';
  const signUpWith = (over: Record<string, string>) =>
    t.api('/api/signup', {
      method: 'POST',
      json: {
        source: 'DEFAULT',
        type: 'DEFAULT',
        fullName: 'Rahim Uddin',
        email: `r${randomBytes(4).toString('hex')}@example.com`,
        mobile: uniqueMobile(),
        password: 'secret-pass',
        ...over,
      },
      headers: { 'x-forwarded-for': uniqueIp() },
    });

  it('sign-up: no second account that looks like the first, and no hidden name', async () => {
    const local = `josé.${randomBytes(4).toString('hex')}`;
    await signUp(t, { email: `${local}@example.com` });
    for (const c of hidden) {
      const res = await signUpWith({ email: `${local}${c}@example.com` });
      expectApiError(res, 400);
      expect(res.body.error.fields?.email, JSON.stringify(c)).toBe(EMAIL_INVALID);
      const named = await signUpWith({ fullName: `Rahim${c} Uddin` });
      expectApiError(named, 400);
      expect(named.body.error.fields?.fullName, JSON.stringify(c)).toBe(NAME_INVISIBLE);
    }
    expect(await t.db.kysely.selectFrom('customers').select('id').where('email', 'like', `${local}%`).execute()).toHaveLength(1);
    // A Bangla name keeps the joiner its keyboard writes in র‍্য.
    expect((await signUpWith({ fullName: 'র\u200d্যাচেল দাস' })).status).toBe(201);
  });

  it('profile, guest checkout, contact form, newsletter and staff', async () => {
    const c = await signUp(t);
    const profile = await t.api('/api/customers', { method: 'PUT', json: { fullName: 'Rahim\u202e Uddin', mobile: c.mobile }, headers: c.auth });
    expectApiError(profile, 400);
    expect(profile.body.error.fields?.fullName).toBe(NAME_INVISIBLE);

    const guest = await checkout(
      t,
      checkoutBody([{ skuCode: 'ANY-SKU', quantity: 1 }], { contact: { ...guestContact(), name: 'Nusrat\u200b Jahan', email: 'nusrat\u200b@example.com' } }),
      { 'x-forwarded-for': uniqueIp() },
    );
    expectApiError(guest, 400, 'validation_error');
    expect(guest.body.error.fields).toMatchObject({ 'contact.name': NAME_INVISIBLE, 'contact.email': EMAIL_INVALID });

    const contact = await t.api('/api/contact', {
      method: 'POST',
      json: { client_name: 'Farhana\u2066 Akter', client_email: 'farhana\ufeff@example.com', client_subject: 'Hello', client_message: 'A question' },
      headers: { 'x-forwarded-for': uniqueIp() },
    });
    expectApiError(contact, 400);
    expect(contact.body.error.fields).toMatchObject({ client_name: NAME_INVISIBLE, client_email: EMAIL_INVALID });

    const subscribe = await t.api('/api/emails/subscriptions', {
      method: 'POST',
      json: { userId: '', email: 'news\u200d@example.com', extras: { offer: 'First order', type: 'first-time' } },
      headers: { 'x-forwarded-for': uniqueIp() },
    });
    expectApiError(subscribe, 400);
    expect(subscribe.body.error.message).toBe('Please Provide a Correct Email');

    const owner = await signedInStaff(t, 'owner');
    const staff = (body: Record<string, string>) =>
      t.api('/api/admin/staff', {
        method: 'POST',
        json: { email: `member-${randomBytes(4).toString('hex')}@shop.test`, fullName: 'New Member', role: 'staff', password: STAFF_PASSWORD, ...body },
        headers: owner.headers,
      });
    const hiddenName = await staff({ fullName: 'New\u00ad Member' });
    expectApiError(hiddenName, 400);
    expect(hiddenName.body.error.fields?.fullName).toBe(NAME_INVISIBLE);
    expectApiError(await staff({ email: 'member\u2060@shop.test' }), 400);
    const invite = await t.api('/api/admin/staff/invites', {
      method: 'POST',
      json: { email: `invited-${randomBytes(4).toString('hex')}@shop.test`, fullName: 'Invited\u202a Member', role: 'staff' },
      headers: owner.headers,
    });
    expectApiError(invite, 400);
    expect(invite.body.error.fields?.fullName).toBe(NAME_INVISIBLE);
  });
});

describe('a full disk answers 503 in the one error shape, is logged once a minute and counted', () => {
  const METRICS_TOKEN = 'metrics-token-for-a-full-disk-0123';
  const MESSAGE = 'The shop cannot save anything right now. Please try again in a few minutes.';

  /** The shop on a given database and file storage, its log kept, its metrics behind a token, over real HTTP. */
  async function shopWithLog(base: TestApp, db: Db, files: FilesPluginOptions = {}) {
    const logs: { msg: string; level: number }[] = [];
    const app = await buildApp({
      config: { ...base.app.config, metrics: { port: null, host: '127.0.0.1', token: METRICS_TOKEN } },
      db,
      logger: { level: 'warn', stream: { write: (line: string) => logs.push(JSON.parse(line)) } },
      files,
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const post = async (p: string, body: string | FormData, headers: Record<string, string> = {}) => {
      const res = await fetch(`${url}${p}`, {
        method: 'POST',
        body,
        headers: { 'x-api-key': base.app.config.apiKey, 'x-forwarded-for': uniqueIp(), ...headers },
      });
      return { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.json() };
    };
    const signUp = () =>
      post(
        '/api/signup',
        JSON.stringify({
          source: 'DEFAULT',
          type: 'DEFAULT',
          fullName: 'Rahim Uddin',
          email: `full.${randomBytes(5).toString('hex')}@example.com`,
          mobile: uniqueMobile(),
          password: 'secret-pass',
        }),
        { 'content-type': 'application/json' },
      );
    const counted = async (store: string) => {
      const text = await (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
      const m = new RegExp(`^storefront_storage_full_errors_total\\{store="${store}"\\} (\\d+)$`, 'm').exec(text);
      return m ? Number(m[1]) : null;
    };
    const fullLogs = () => logs.filter((l) => /storage is full/.test(l.msg));
    return { app, post, signUp, counted, fullLogs, logs };
  }

  function expectStorageFull(res: { status: number; retryAfter: string | null; body: any }) {
    expect(res.status, JSON.stringify(res.body)).toBe(503);
    expect(res.body).toEqual({ error: { code: 'service_unavailable', message: MESSAGE } });
    expect(Number(res.retryAfter)).toBeGreaterThan(0);
  }

  it.runIf(testDbKind() === 'sqlite')('SQLite: a sign-up on a database file that cannot grow (SQLITE_FULL)', async () => {
    const own = await startTestApp({ seed: false, config: { trustProxy: 1 } });
    const shop = await shopWithLog(own, own.db);
    try {
      const pages = (await sql<{ page_count: number }>`pragma page_count`.execute(own.db.kysely)).rows[0].page_count;
      await sql.raw(`pragma max_page_count = ${pages}`).execute(own.db.kysely);
      // The pages there still have room for a few rows: sign-ups fill them, then the file must grow.
      let res = await shop.signUp();
      for (let i = 0; i < 300 && res.status === 201; i++) res = await shop.signUp();
      expectStorageFull(res);
      expectStorageFull(await shop.signUp());
      expectStorageFull(await shop.signUp());
      expect(shop.fullLogs()).toHaveLength(1);
      expect(shop.logs.filter((l) => l.level >= 50 && !/storage is full/.test(l.msg))).toEqual([]);
      expect(await shop.counted('database')).toBe(3);
    } finally {
      await sql.raw('pragma max_page_count = 1073741823').execute(own.db.kysely);
      await shop.app.close();
      await own.close();
    }
  });

  it('PostgreSQL: its disk_full (SQLSTATE 53100), as node-postgres reports it, through the real handler', async () => {
    // A PostgreSQL server whose disk is full cannot be had in a test: the insert of a sign-up
    // fails with the error object node-postgres gives for it.
    class DiskFullOnInsert implements KyselyPlugin {
      transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
        if (args.node.kind === 'InsertQueryNode' && args.node.into?.table.identifier.name === 'customers') {
          throw Object.assign(new Error('could not extend file "base/16384/16450": No space left on device'), {
            name: 'error',
            code: '53100',
            severity: 'ERROR',
            hint: 'Check free disk space.',
            routine: 'mdextend',
          });
        }
        return args.node;
      }
      async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
        return args.result;
      }
    }
    const db: Db = { kysely: t.db.kysely.withPlugin(new DiskFullOnInsert()), dialect: t.db.dialect, destroy: async () => {}, observe: () => () => {} };
    const shop = await shopWithLog(t, db);
    try {
      expectStorageFull(await shop.signUp());
      expectStorageFull(await shop.signUp());
      expect(shop.fullLogs()).toHaveLength(1);
      expect(await shop.counted('database')).toBe(2);
    } finally {
      await shop.app.close();
    }
  });

  it('uploads: a file the disk has no room for (ENOSPC)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'storefront-full-'));
    /** A local disk that fails its writes as a full one does. */
    class FullDisk extends LocalDiskStorage {
      override async put(_key: string, body: Readable): Promise<{ size: number }> {
        for await (const _ of body);
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });
      }
    }
    const shop = await shopWithLog(t, t.db, { storage: new FullDisk(dir) });
    try {
      for (let i = 0; i < 2; i++)
        expectStorageFull(await shop.post('/api/files', uploadForm({ bytes: pngBytes(), name: 'sofa.png', contentType: 'image/png' })));
      expect(shop.fullLogs()).toHaveLength(1);
      expect(await shop.counted('files')).toBe(2);
    } finally {
      await shop.app.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
