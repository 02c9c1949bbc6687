import { ACCOUNT_MESSAGES, MAX_ADDRESSES } from '@storefront/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectApiError } from './helpers/assertions.ts';
import { signUp, type TestCustomer } from './helpers/accounts.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

// Saved delivery addresses (POST /api/addresses and its search), each customer's own.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ seed: false, config: { trustProxy: true } });
});
afterAll(() => t?.close());

const home = {
  fullName: 'Rahim Uddin',
  phone: '01711-223344',
  division: 'Dhaka',
  district: 'Dhaka',
  area: 'Gulshan 2',
  addressLine: 'House 12, Road 71',
  label: 'Home',
};
const office = {
  fullName: 'Rahim Uddin',
  phone: '+8801811223344',
  division: 'Chattogram',
  district: "Cox's Bazar",
  area: 'Kolatoli',
  addressLine: 'Hotel Road 3',
  label: 'Office',
};

const create = (c: TestCustomer, body: Record<string, unknown>) => t.api('/api/addresses', { method: 'POST', json: body, headers: c.auth });
const search = (c: TestCustomer, body: Record<string, unknown> = {}) => t.api('/api/addresses/search', { method: 'POST', json: body, headers: c.auth });

describe('addresses', () => {
  it('saves an address with division, district, area and phone; the first one is the default', async () => {
    const c = await signUp(t);
    const res = await create(c, home);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      fullName: 'Rahim Uddin',
      phone: '+8801711223344',
      division: 'Dhaka',
      district: 'Dhaka',
      area: 'Gulshan 2',
      addressLine: 'House 12, Road 71',
      label: 'Home',
      isDefault: true,
      dateCreated: expect.any(String),
      dateUpdated: expect.any(String),
    });
    const second = await create(c, { ...office, label: null });
    expect(second.status).toBe(201);
    expect(second.body.isDefault).toBe(false);
    expect(second.body.label).toBeNull();
  });

  it('used again: saving the same address answers the saved one, not a copy', async () => {
    const c = await signUp(t);
    const first = await create(c, home);
    const again = await create(c, { ...home, phone: '+880 1711 223344', area: ' Gulshan  2 ' });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    const list = await search(c);
    expect(list.body.list).toHaveLength(1);
  });

  it('lists the default first, then the most recently used, in the paged search shape', async () => {
    const c = await signUp(t);
    const a = (await create(c, home)).body;
    const b = (await create(c, office)).body;
    const res = await search(c, { page: 1, size: 10, fetchCount: true });
    expect(res.status).toBe(200);
    expect(res.body.list.map((x: { id: number }) => x.id)).toEqual([a.id, b.id]);
    expect(res.body).toMatchObject({ nextPageToken: '', count: 2 });
    // Making the office the default moves it first and takes the flag off home.
    const upd = await t.api(`/api/addresses/${b.id}`, { method: 'PUT', json: { ...office, isDefault: true }, headers: c.auth });
    expect(upd.status).toBe(200);
    expect(upd.body.isDefault).toBe(true);
    const after = (await search(c)).body.list;
    expect(after.map((x: { id: number; isDefault: boolean }) => [x.id, x.isDefault])).toEqual([
      [b.id, true],
      [a.id, false],
    ]);
    const byDistrict = await search(c, { textParams: [{ field: 'district', value: "Cox's Bazar" }] });
    expect(byDistrict.body.list.map((x: { id: number }) => x.id)).toEqual([b.id]);
    expectApiError(await search(c, { textParams: [{ field: 'customer_id', value: 1 }] }), 400);
  });

  it('refuses a district of another division, a bad phone and missing fields with the shared messages', async () => {
    const c = await signUp(t);
    const res = await create(c, { ...home, district: 'Sylhet', phone: '12345', area: '' });
    expectApiError(res, 400, 'validation_error');
    expect(res.body.error.fields).toEqual({
      phone: ACCOUNT_MESSAGES.mobileInvalid,
      district: ACCOUNT_MESSAGES.districtRequired,
      area: ACCOUNT_MESSAGES.areaRequired,
    });
    expectApiError(await create(c, { ...home, division: 'Atlantis' }), 400, 'validation_error');
    expectApiError(await create(c, {}), 400, 'validation_error');
  });

  it('changes and deletes an address; deleting the default passes the flag on', async () => {
    const c = await signUp(t);
    const a = (await create(c, home)).body;
    const b = (await create(c, office)).body;
    const upd = await t.api(`/api/addresses/${a.id}`, { method: 'PUT', json: { ...home, addressLine: 'House 14, Road 71' }, headers: c.auth });
    expect(upd.body).toMatchObject({ id: a.id, addressLine: 'House 14, Road 71', isDefault: true });
    expect((await t.api(`/api/addresses/${a.id}`, { headers: c.auth })).body.addressLine).toBe('House 14, Road 71');
    const del = await t.api(`/api/addresses/${a.id}`, { method: 'DELETE', headers: c.auth });
    expect(del.status).toBe(204);
    expectApiError(await t.api(`/api/addresses/${a.id}`, { headers: c.auth }), 404);
    expect((await t.api(`/api/addresses/${b.id}`, { headers: c.auth })).body.isDefault).toBe(true);
  });

  it('another customer’s address answers 404 to read, change and delete, and never shows in their search', async () => {
    const owner = await signUp(t);
    const other = await signUp(t);
    const a = (await create(owner, home)).body;
    expectApiError(await t.api(`/api/addresses/${a.id}`, { headers: other.auth }), 404, 'not_found');
    expectApiError(await t.api(`/api/addresses/${a.id}`, { method: 'PUT', json: office, headers: other.auth }), 404);
    expectApiError(await t.api(`/api/addresses/${a.id}`, { method: 'DELETE', headers: other.auth }), 404);
    expect((await search(other)).body.list).toEqual([]);
    // Untouched.
    expect((await t.api(`/api/addresses/${a.id}`, { headers: owner.auth })).body).toMatchObject({ area: 'Gulshan 2' });
  });

  it('needs a session, and refuses odd ids with a 400 rather than a 500', async () => {
    expectApiError(await t.api('/api/addresses', { method: 'POST', json: home }), 401);
    expectApiError(await t.api('/api/addresses/search', { method: 'POST', json: {} }), 401);
    const c = await signUp(t);
    expectApiError(await t.api('/api/addresses/abc', { headers: c.auth }), 400);
    expectApiError(await t.api('/api/addresses/99999999999', { headers: c.auth }), 400);
  });

  it(`keeps at most ${MAX_ADDRESSES} addresses (409 beyond)`, async () => {
    const c = await signUp(t);
    for (let i = 0; i < MAX_ADDRESSES; i++) expect((await create(c, { ...home, addressLine: `House ${i}` })).status).toBe(201);
    expectApiError(await create(c, { ...home, addressLine: 'One too many' }), 409, 'too_many_addresses');
  });
});
