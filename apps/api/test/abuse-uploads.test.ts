import { UPLOAD } from '@storefront/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type UploadsConfig, loadConfig } from '../src/config.ts';
import { expectApiError } from './helpers/assertions.ts';
import { signUp, uniqueIp } from './helpers/accounts.ts';
import { checkout, checkoutBody, plainSkus, setStock } from './helpers/checkout.ts';
import { byteStream, pngBytes, rawRequest, streamedForm, uploadForm } from './helpers/files.ts';
import { type StartOptions, startTestApp, TEST_API_KEY, type TestApp } from './helpers/test-app.ts';

// Upload quotas, the room kept for guests' files, and the sweep of unclaimed guest files
// (docs/decisions/0024). The limits are made small (kilobytes) so that a few small PNGs
// reach them; the test app trusts X-Forwarded-For, so each guest test has an address of
// its own.

const KB = 1024;
const MB = 1024 * KB;
const HOUR = 3_600_000;

function uploadsConfig(overrides: Partial<UploadsConfig>): UploadsConfig {
  return { ...loadConfig({}).uploads, minFreeDiskBytes: 0, ...overrides };
}

/** Apps with the given limits; many uploads in a few seconds, so the throttle is out of the way. */
function startApp(uploads: Partial<UploadsConfig>, opts: StartOptions = {}) {
  return startTestApp({
    seed: false,
    ...opts,
    config: { trustProxy: true, uploads: uploadsConfig(uploads) },
    files: { throttle: { start: { burst: 1000, refillMs: 1000 }, parts: { burst: 1000, refillMs: 1000 } } },
  });
}

/**
 * A PDF of exactly `size` bytes. Not a PNG: an image is encoded again on upload (its
 * metadata dropped: modules/images), so its stored size is not the size sent.
 */
const slip = (size: number) => Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(size - 15, 0x20), Buffer.from('%%EOF\n')]);

function uploadAs(app: TestApp, size: number, headers: Record<string, string>) {
  return app.api('/api/files', {
    method: 'POST',
    body: uploadForm({ bytes: slip(size), name: 'slip.pdf', contentType: 'application/pdf' }, 'document'),
    headers,
  });
}

const guest = (ip = uniqueIp()) => ({ 'x-forwarded-for': ip });

async function storedBytes(app: TestApp, where: { customerId: number } | { address: string }): Promise<number> {
  let q = app.db.kysely.selectFrom('files').select((e) => e.fn.coalesce(e.fn.sum<number>('size'), e.lit(0)).as('n'));
  q =
    'customerId' in where
      ? q.where('owner_customer_id', '=', where.customerId)
      : q.where('owner_customer_id', 'is', null).where('owner_address', '=', where.address);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

async function customerId(app: TestApp, email: string): Promise<number> {
  return (await app.db.kysely.selectFrom('customers').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
}

const countFiles = async (app: TestApp) =>
  Number(
    (
      await app.db.kysely
        .selectFrom('files')
        .select((e) => e.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

// The main app: a customer may keep 300 KB, the guests of one address 200 KB.
const LIMITS = { customerQuotaBytes: 300 * KB, guestQuotaBytes: 200 * KB, guestTotalBytes: 50 * MB, guestFileRetentionMs: 24 * HOUR };
let t: TestApp;
beforeAll(async () => {
  t = await startApp(LIMITS, { seed: true });
});
afterAll(() => t?.close());

describe('per-customer quota', () => {
  it('a customer keeps at most their quota; the next upload is a 413 quota_exceeded, and other customers are not affected', async () => {
    const c = await signUp(t);
    for (let i = 0; i < 3; i++) {
      const res = await uploadAs(t, 90 * KB, c.auth);
      expect(res.status, res.text).toBe(200);
    }
    // 270 KB stored: 90 KB more does not fit in 300 KB.
    const over = await uploadAs(t, 90 * KB, c.auth);
    expectApiError(over, 413, 'quota_exceeded');
    expect(over.body.error.message).toMatch(/0\.3 MB/);
    // A small file still fits.
    expect((await uploadAs(t, 20 * KB, c.auth)).status).toBe(200);
    expect(await storedBytes(t, { customerId: await customerId(t, c.email) })).toBeLessThanOrEqual(LIMITS.customerQuotaBytes);
    // Another customer has a quota of their own.
    const other = await signUp(t);
    expect((await uploadAs(t, 90 * KB, other.auth)).status).toBe(200);
  });

  it('an upload declared larger than what is left is refused before its body is read, and its connection closed', async () => {
    const c = await signUp(t);
    const size = 40 * MB;
    const form = streamedForm(byteStream(size, pngBytes()), 'big.png');
    const before = await countFiles(t);
    const res = await rawRequest(t.baseUrl, {
      method: 'POST',
      path: '/api/files',
      headers: { ...c.auth, 'content-type': form.contentType, 'content-length': String(size + form.overhead) },
      body: form.body,
    });
    expect(res.status, res.body).toBe(413);
    expect(JSON.parse(res.body).error.code).toBe('quota_exceeded');
    expect(res.headers.connection).toBe('close');
    // Answered long before 40 MB went over the wire.
    expect(res.sent).toBeLessThan(size / 2);
    expect(await countFiles(t)).toBe(before);
  });

  it('concurrent uploads cannot together pass the quota', async () => {
    const c = await signUp(t);
    // Each upload reserves its declared length (90 KB and the form around it): three fit in 300 KB, four do not.
    const answers = await Promise.all(Array.from({ length: 8 }, () => uploadAs(t, 90 * KB, c.auth)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 200, 200, 413, 413, 413, 413, 413]);
    for (const a of answers.filter((a) => a.status === 413)) expectApiError(a, 413, 'quota_exceeded');
    expect(await storedBytes(t, { customerId: await customerId(t, c.email) })).toBe(3 * 90 * KB);
    // Nothing is left reserved once they are all answered.
    expect(
      Number(
        (
          await t.db.kysely
            .selectFrom('file_quota_holds')
            .select((e) => e.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ).toBe(0);
  });
});

describe('per-guest quota (per client address)', () => {
  it('the guests of one address keep at most their quota; another address has its own', async () => {
    const ip = uniqueIp();
    expect((await uploadAs(t, 90 * KB, guest(ip))).status).toBe(200);
    expect((await uploadAs(t, 90 * KB, guest(ip))).status).toBe(200);
    const over = await uploadAs(t, 90 * KB, guest(ip));
    expectApiError(over, 413, 'quota_exceeded');
    expect(over.body.error.message).toMatch(/Sign in/);
    expect(await storedBytes(t, { address: ip })).toBe(180 * KB);
    expect((await uploadAs(t, 90 * KB, guest())).status).toBe(200);
    // A customer is counted apart from the address they upload from.
    const c = await signUp(t);
    expect((await uploadAs(t, 90 * KB, { ...c.auth, 'x-forwarded-for': ip })).status).toBe(200);
  });

  it('concurrent guest uploads from one address cannot together pass the quota', async () => {
    const ip = uniqueIp();
    const answers = await Promise.all(Array.from({ length: 6 }, () => uploadAs(t, 90 * KB, guest(ip))));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 413, 413, 413, 413]);
    expect(await storedBytes(t, { address: ip })).toBe(180 * KB);
  });

  it('a body of unknown length (chunked) is cut off at what is left, answered 413 quota_exceeded, and leaves nothing behind', async () => {
    const ip = uniqueIp();
    const form = streamedForm(byteStream(1 * MB, pngBytes()), 'chunked.png');
    const res = await rawRequest(t.baseUrl, {
      method: 'POST',
      path: '/api/files',
      headers: { ...guest(ip), 'content-type': form.contentType },
      body: form.body,
    });
    expect(res.status, res.body).toBe(413);
    expect(JSON.parse(res.body).error.code).toBe('quota_exceeded');
    expect(await storedBytes(t, { address: ip })).toBe(0);
    // The room it held is free again: a file of 150 KB from the same address fits.
    expect((await uploadAs(t, 150 * KB, guest(ip))).status).toBe(200);
  });

  it('a URL import with no room left is refused at once', async () => {
    const ip = uniqueIp();
    // An open multipart upload of exactly 200 KB takes all of the address's room.
    const all = await t.api('/api/files/multipart/start', { method: 'POST', json: { filename: 'a.png', size: 200 * KB, type: 'image' }, headers: guest(ip) });
    expect(all.status, all.text).toBe(200);
    const res = await t.api('/api/files/from-url', {
      method: 'POST',
      json: { sourceUrl: 'https://images.example.com/sofa.png', type: 'image' },
      headers: guest(ip),
    });
    expectApiError(res, 413, 'quota_exceeded');
  });
});

describe('multipart uploads reserve their declared size', () => {
  const start = (size: number, headers: Record<string, string>) =>
    t.api('/api/files/multipart/start', { method: 'POST', json: { filename: 'slip.pdf', size, contentType: 'application/pdf', type: 'document' }, headers });

  it('an open multipart upload counts at its declared size until it is cancelled', async () => {
    const ip = uniqueIp();
    const up = await start(150 * KB, guest(ip));
    expect(up.status, up.text).toBe(200);
    // Nothing sent yet, but 150 of the 200 KB are taken.
    expectApiError(await uploadAs(t, 90 * KB, guest(ip)), 413, 'quota_exceeded');
    expectApiError(await start(100 * KB, guest(ip)), 413, 'quota_exceeded');
    expect((await t.api(`/api/files/multipart/${up.body.uuid}`, { method: 'DELETE', headers: guest(ip) })).status).toBe(204);
    expect((await uploadAs(t, 90 * KB, guest(ip))).status).toBe(200);
  });

  it('a declared size over what is left is refused before any part is sent', async () => {
    const c = await signUp(t);
    expectApiError(await start(26 * MB, c.auth), 413, 'quota_exceeded');
    expect(
      await t.db.kysely
        .selectFrom('file_uploads')
        .select('id')
        .where('name', '=', 'slip.pdf')
        .where('owner_customer_id', '=', await customerId(t, c.email))
        .execute(),
    ).toEqual([]);
  });

  it('a completed upload counts once, as its file', async () => {
    const c = await signUp(t);
    const bytes = slip(150 * KB);
    const up = (await start(bytes.length, c.auth)).body;
    expect(up.parts).toHaveLength(1);
    const put = await fetch(`${t.baseUrl}${up.parts[0].url}`, {
      method: 'PUT',
      body: new Uint8Array(bytes),
      headers: { 'x-api-key': TEST_API_KEY, 'content-type': 'application/octet-stream', ...c.auth },
    });
    expect(put.status, await put.clone().text()).toBe(200);
    const done = await t.api(`/api/files/multipart/${up.uuid}/complete`, { method: 'POST', headers: c.auth });
    expect(done.status, done.text).toBe(200);
    // 150 KB stored: 90 KB more fits in 300 KB (it would not were the upload counted as well), 90 KB again does not.
    expect((await uploadAs(t, 90 * KB, c.auth)).status).toBe(200);
    expectApiError(await uploadAs(t, 90 * KB, c.auth), 413, 'quota_exceeded');
  });
});

describe('the room kept for all guests', () => {
  it('past the configured total for guest files, guests are refused with 507 storage_full while customers within quota still upload', async () => {
    const app = await startApp({ customerQuotaBytes: 300 * KB, guestQuotaBytes: 200 * KB, guestTotalBytes: 250 * KB });
    try {
      expect((await uploadAs(app, 150 * KB, guest())).status).toBe(200);
      // Another address is within its own quota, but all guests together would pass 250 KB.
      const ip = uniqueIp();
      const full = await uploadAs(app, 150 * KB, guest(ip));
      expectApiError(full, 507, 'storage_full');
      expect(full.body.error.message).toMatch(/sign in/i);
      expectApiError(
        await app.api('/api/files/multipart/start', { method: 'POST', json: { filename: 'a.png', size: 150 * KB, type: 'image' }, headers: guest(ip) }),
        507,
        'storage_full',
      );
      const c = await signUp(app);
      expect((await uploadAs(app, 150 * KB, c.auth)).status).toBe(200);
      // What is left for guests is still theirs.
      expect((await uploadAs(app, 90 * KB, guest(ip))).status).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('when the disk would keep less free space than the minimum, guests are refused before the body is read; customers still upload', async () => {
    // No disk has an exabyte free: every guest upload would go below the minimum.
    const app = await startApp({ minFreeDiskBytes: 2 ** 60 });
    try {
      const size = 40 * MB;
      const form = streamedForm(byteStream(size, pngBytes()), 'big.png');
      const res = await rawRequest(app.baseUrl, {
        method: 'POST',
        path: '/api/files',
        headers: { 'x-api-key': TEST_API_KEY, ...guest(), 'content-type': form.contentType, 'content-length': String(size + form.overhead) },
        body: form.body,
      });
      expect(res.status, res.body).toBe(507);
      expect(JSON.parse(res.body).error.code).toBe('storage_full');
      expect(res.headers.connection).toBe('close');
      expect(res.sent).toBeLessThan(size / 2);
      expectApiError(await uploadAs(app, 10 * KB, guest()), 507, 'storage_full');
      const c = await signUp(app);
      expect((await uploadAs(app, 10 * KB, c.auth)).status).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe('the sweep of unclaimed guest files', () => {
  const fileRow = (uuid: string) => t.db.kysely.selectFrom('files').selectAll().where('uuid', '=', uuid).executeTakeFirst();
  const age = (uuid: string, hours: number) =>
    t.db.kysely
      .updateTable('files')
      .set({ created_at: new Date(Date.now() - hours * HOUR).toISOString() })
      .where('uuid', '=', uuid)
      .execute();

  it("deletes an old guest file nothing refers to (row and bytes), and keeps a payment proof, a recent file and customers' files", async () => {
    const ip = uniqueIp();
    const up = async (headers: Record<string, string>) => {
      const res = await uploadAs(t, 2 * KB, headers);
      expect(res.status, res.text).toBe(200);
      return res.body as { uuid: string; cdnUrl: string };
    };
    const proof = await up(guest(ip));
    const unclaimed = await up(guest(ip));
    const recent = await up(guest(ip));
    const c = await signUp(t);
    const customers = await up(c.auth);

    // A guest booking takes the first file as its payment proof.
    const [sku] = await plainSkus(t.db.kysely, 1, 40);
    await setStock(t.db.kysely, sku!.id, [5]);
    const booking = await checkout(t, checkoutBody([{ skuCode: sku!.code, quantity: 1 }], { paymentMethod: 'later' }), guest(ip));
    expect(booking.status, booking.text).toBe(201);
    const attach = await t.api('/api/sales/payments/attachments', {
      method: 'PATCH',
      json: { id: booking.body.saleId, fileUuid: proof.uuid },
      headers: { 'x-order-token': booking.body.accessToken, ...guest(ip) },
    });
    expect(attach.status, attach.text).toBe(200);

    for (const f of [proof, unclaimed, customers]) await age(f.uuid, 48);
    const key = (await fileRow(unclaimed.uuid))!.storage_key;
    expect(await t.app.files.deps.storage.stat(key)).not.toBeNull();

    // Two processes sweeping at once delete the file once.
    const [a, b] = await Promise.all([t.app.files.sweepGuestFiles(), t.app.files.sweepGuestFiles()]);
    expect(a.files + b.files).toBe(1);
    expect(a.bytes + b.bytes).toBe(2 * KB);

    expect(await fileRow(unclaimed.uuid)).toBeUndefined();
    expect(await t.app.files.deps.storage.stat(key)).toBeNull();
    expect((await fetch(`${t.baseUrl}${unclaimed.cdnUrl}`)).status).toBe(404);
    for (const kept of [proof, recent, customers]) {
      expect(await fileRow(kept.uuid)).toBeDefined();
      expect((await fetch(`${t.baseUrl}${kept.cdnUrl}`)).status).toBe(200);
    }
    // The payment proof is still on the booking.
    const sale = await t.api(`/api/sales?id=${booking.body.saleId}`, { headers: { 'x-order-token': booking.body.accessToken } });
    expect(sale.body.attachments.map((x: { fileUuid: string }) => x.fileUuid)).toEqual([proof.uuid]);

    // The retention is what decides: a day later the recent file goes too, the proof still stays.
    await t.app.files.sweepGuestFiles(new Date(Date.now() + LIMITS.guestFileRetentionMs + HOUR));
    expect(await fileRow(recent.uuid)).toBeUndefined();
    expect(await fileRow(proof.uuid)).toBeDefined();
    expect(await fileRow(customers.uuid)).toBeDefined();
  });

  it('frees the guest quota the swept files took', async () => {
    const ip = uniqueIp();
    const first = await uploadAs(t, 150 * KB, guest(ip));
    expect(first.status).toBe(200);
    expectApiError(await uploadAs(t, 90 * KB, guest(ip)), 413, 'quota_exceeded');
    await age(first.body.uuid, 48);
    await t.app.files.sweepGuestFiles();
    expect((await uploadAs(t, 90 * KB, guest(ip))).status).toBe(200);
  });
});

it('a file over 50 MB is still payload_too_large, whatever room is left', async () => {
  const c = await signUp(t);
  const res = await t.api('/api/files/multipart/start', {
    method: 'POST',
    json: { filename: 'a.png', size: UPLOAD.maxBytes + 1, type: 'image' },
    headers: c.auth,
  });
  expectApiError(res, 413, 'payload_too_large');
});
