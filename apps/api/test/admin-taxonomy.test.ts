import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInStaff, type TestStaff } from './helpers/staff.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

// Categories and attributes in the back office (docs/decisions/0031): the tree's rules,
// locking and the audit log, and the shop showing a new name at once.

let t: TestApp;
let manager: TestStaff;
let owner: TestStaff;
beforeAll(async () => {
  t = await startTestApp({ config: { readCacheMs: 60_000 } });
  manager = await signedInStaff(t, 'manager');
  owner = await signedInStaff(t, 'owner');
});
afterAll(() => t?.close());

const send = (method: string, path: string, json?: unknown) => t.api(path, { method, json, headers: manager.headers });
const tree = async () => (await send('GET', '/api/admin/categories')).body.items as any[];

describe('categories', () => {
  it('adds, renames, moves and deletes, within three levels, and the shop follows at once', async () => {
    const before = await tree();
    const leaf = before.find((c) => c.depth === 2 && c.productCount > 0);
    const top = await send('POST', '/api/admin/categories', { name: 'Outdoor', slug: 'outdoor' });
    expect(top.status, top.text).toBe(201);
    const mid = await send('POST', '/api/admin/categories', { name: 'Garden', slug: 'garden', parentId: top.body.id });
    const low = await send('POST', '/api/admin/categories', { name: 'Benches', slug: 'garden-benches', parentId: mid.body.id });
    expect(low.body).toMatchObject({ depth: 2, path: 'Outdoor › Garden › Benches' });
    const tooDeep = await send('POST', '/api/admin/categories', { name: 'Teak', slug: 'teak-benches', parentId: low.body.id });
    expect(tooDeep.status).toBe(400);
    expect(tooDeep.body.error.fields.parentId).toBeTruthy();
    const taken = await send('POST', '/api/admin/categories', { name: 'Again', slug: 'outdoor' });
    expect(taken.status).toBe(409);
    expect(taken.body.error.fields.slug).toBeTruthy();

    // Renamed: the storefront's categories and a search by the new name show it.
    const renamed = await send('PUT', `/api/admin/categories/${leaf.id}`, {
      name: 'Zanzibar Loungers',
      slug: leaf.slug,
      imageUrl: leaf.imageUrl,
      bannerUrl: leaf.bannerUrl,
      version: leaf.version,
    });
    expect(renamed.status, renamed.text).toBe(200);
    const stale = await send('PUT', `/api/admin/categories/${leaf.id}`, { name: 'Other', slug: leaf.slug, version: leaf.version });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe('stale_version');
    const shopCategories = await t.api('/api/categories/search', { method: 'POST', json: { page: 1, size: 100 } });
    expect(JSON.stringify(shopCategories.body)).toContain('Zanzibar Loungers');
    const search = await t.api('/api/search/indices/items', {
      method: 'POST',
      json: { page: 1, size: 5, fetchCount: true, textParams: [{ field: 'query', value: 'zanzibar' }] },
    });
    expect(search.body.count).toBe(leaf.productCount);

    // Moves among siblings.
    const siblings = (await tree()).filter((c) => c.parentId === null);
    const last = siblings[siblings.length - 1];
    expect(last.id).toBe(top.body.id);
    const up = await send('POST', `/api/admin/categories/${last.id}/move`, { direction: 'up', version: last.version });
    expect(up.status, up.text).toBe(200);
    const order = up.body.items.filter((c: any) => c.parentId === null).map((c: any) => c.id);
    expect(order.indexOf(top.body.id)).toBe(siblings.length - 2);
    const first = (await tree()).filter((c) => c.parentId === null)[0];
    expect((await send('POST', `/api/admin/categories/${first.id}/move`, { direction: 'up', version: first.version })).status).toBe(409);

    // Only an empty category is deleted.
    expect((await send('DELETE', `/api/admin/categories/${mid.body.id}`)).status).toBe(409);
    expect((await send('DELETE', `/api/admin/categories/${leaf.id}`)).status).toBe(409);
    expect((await send('DELETE', `/api/admin/categories/${low.body.id}`)).status).toBe(204);
    expect((await tree()).some((c) => c.id === low.body.id)).toBe(false);

    const audit = await t.api('/api/admin/audit?entity=category', { headers: owner.headers });
    expect(audit.body.items.map((e: any) => e.action)).toEqual(expect.arrayContaining(['create', 'update', 'move_up', 'delete']));
    const update = audit.body.items.find((e: any) => e.action === 'update');
    expect(update.diff.name).toEqual([leaf.name, 'Zanzibar Loungers']);
  });
});

describe('attributes', () => {
  it('renames an option on every sku that has it, and the shop’s options show the new label', async () => {
    const attrs = (await send('GET', '/api/admin/attributes')).body.items as any[];
    const color = attrs.find((a) => a.name === 'color') ?? attrs[0];
    const option = color.values[0];
    const r = await send('POST', `/api/admin/attributes/${color.id}/values/rename`, { value: option.value, displayLabel: 'Monsoon Teal' });
    expect(r.status, r.text).toBe(200);
    expect(r.body.values.find((v: any) => v.value === option.value)).toMatchObject({ displayLabel: 'Monsoon Teal', skus: option.skus });
    const options = await t.api('/api/options');
    expect(JSON.stringify(options.body)).toContain('Monsoon Teal');
    const label = await send('PUT', `/api/admin/attributes/${color.id}`, { label: 'Colour', version: color.version });
    expect(label.body.label).toBe('Colour');
    expect((await send('PUT', `/api/admin/attributes/${color.id}`, { label: 'Again', version: color.version })).status).toBe(409);
    expect((await send('POST', `/api/admin/attributes/${color.id}/values/rename`, { value: 'no-such-value', displayLabel: 'X' })).status).toBe(404);
  });
});
