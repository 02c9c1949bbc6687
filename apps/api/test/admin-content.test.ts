import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { homeContent } from '../src/modules/catalogue/catalogue.service.ts';
import { expectApiError } from './helpers/assertions.ts';
import { checkout, checkoutBody, plainSkus, setStock } from './helpers/checkout.ts';
import { signedInStaff, type TestStaff } from './helpers/staff.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

// Content, pages and showrooms in the back office (docs/decisions/0035), on both databases:
// each kind made, read, changed, reordered and removed; what the storefront serves after
// each change (on its next request, through its read cache); unsafe page text, links and
// pictures, a backwards schedule and a pin outside Bangladesh refused with the one error
// shape naming the field; a stale version refused; a branch in use hidden, not removed.

let t: TestApp;
let manager: TestStaff;
let readOnly: TestStaff;

beforeAll(async () => {
  t = await startTestApp();
  manager = await signedInStaff(t, 'manager');
  readOnly = await signedInStaff(t, 'read_only');
});
afterAll(() => t?.close());

const IMAGE = '/media/banner/sofa/5f7a8a.svg?t=Test';
const HOUR = 3600_000;
const at = (ms: number) => new Date(Date.now() + ms).toISOString();

function slide(patch: Record<string, unknown> = {}) {
  return {
    type: 'slider',
    title: `Test slide ${Math.random().toString(36).slice(2, 8)}`,
    body: 'New weaves this month.',
    fields: { image: IMAGE, link: '/shop?categoryName=Sofas' },
    active: true,
    shownFrom: null,
    shownUntil: null,
    ...patch,
  };
}

const post = (json: unknown, who = manager) => t.api('/api/admin/content', { method: 'POST', json, headers: who.headers });
const put = (id: number, json: unknown, who = manager) => t.api(`/api/admin/content/${id}`, { method: 'PUT', json, headers: who.headers });
const editable = (item: any) => ({
  type: item.type,
  title: item.title,
  slug: item.slug,
  body: item.body,
  fields: item.fields,
  active: item.active,
  shownFrom: item.shownFrom,
  shownUntil: item.shownUntil,
  version: item.version,
});
const servedSlides = async () => ((await t.api('/api/cms/sliders/images')).body.list as any[]).map((s) => s.title);
const searchType = async (type: string) =>
  (
    await t.api('/api/cms/articles/search', {
      method: 'POST',
      json: { page: 1, size: 100, textParams: [{ field: 'type', value: type, matchType: 'EXACT' }], nestedParams: [], sortParams: [] },
    })
  ).body.list as any[];
const auditOf = (action: string, entityId: number | string) =>
  t.db.kysely.selectFrom('audit_log').selectAll().where('action', '=', action).where('entity_id', '=', String(entityId)).execute();

describe('home sliders', () => {
  it('are made, served on the next request, changed and removed, each with an audit entry', async () => {
    // The carousel is read (and cached) before the change.
    const before = await servedSlides();
    const made = await post(slide());
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({ type: 'slider', active: true, live: true, version: 1, fields: { image: IMAGE, link: '/shop?categoryName=Sofas' } });
    expect(made.body.sortOrder).toBeGreaterThanOrEqual(before.length);
    expect(await servedSlides()).toEqual([...before, made.body.title]);
    expect(await auditOf('content_created', made.body.id)).toHaveLength(1);

    const read = await t.api(`/api/admin/content/${made.body.id}`, { headers: readOnly.headers });
    expect(read.status).toBe(200);
    expect(read.body.title).toBe(made.body.title);
    const list = await t.api('/api/admin/content?type=slider', { headers: readOnly.headers });
    expect(list.body.items.map((i: any) => i.id)).toContain(made.body.id);

    const changed = await put(made.body.id, {
      ...editable(made.body),
      title: `${made.body.title} (new)`,
      fields: { image: IMAGE, link: '/shop?categoryId=2' },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.version).toBe(2);
    const served = (await t.api('/api/cms/sliders/images')).body.list.find((s: any) => s.id === made.body.id);
    expect(served).toMatchObject({ title: `${made.body.title} (new)`, link: '/shop?categoryId=2' });
    const [audit] = await auditOf('content_updated', made.body.id);
    expect(JSON.parse(audit.after!).title).toBe(`${made.body.title} (new)`);

    const gone = await t.api(`/api/admin/content/${made.body.id}`, { method: 'DELETE', headers: manager.headers });
    expect(gone.status).toBe(204);
    expect(await servedSlides()).toEqual(before);
    expect(await auditOf('content_removed', made.body.id)).toHaveLength(1);
    expectApiError(await t.api(`/api/admin/content/${made.body.id}`, { headers: manager.headers }), 404, 'not_found');
  });

  it('switched off, or outside their schedule, are not served', async () => {
    const off = (await post(slide({ active: false }))).body;
    const later = (await post(slide({ shownFrom: at(2 * HOUR), shownUntil: at(5 * HOUR) }))).body;
    const over = (await post(slide({ shownFrom: at(-5 * HOUR), shownUntil: at(-HOUR) }))).body;
    const now = (await post(slide({ shownFrom: at(-HOUR), shownUntil: at(HOUR) }))).body;
    expect([off.live, later.live, over.live, now.live]).toEqual([false, false, false, true]);
    const served = await servedSlides();
    expect(served).toContain(now.title);
    for (const hidden of [off, later, over]) expect(served).not.toContain(hidden.title);
    // The home page's one read of its content (what home.tsx's loader calls) applies the same rule.
    const home = await homeContent(t.db.kysely, 20);
    expect(home.slides.map((s) => s.title)).toContain(now.title);
    expect(home.slides.map((s) => s.title)).not.toContain(off.title);
    // Switched on: served on the next request.
    const on = await put(off.id, { ...editable(off), active: true });
    expect(on.status, on.text).toBe(200);
    expect(await servedSlides()).toContain(off.title);
  });

  it('are put in a new order', async () => {
    const items = (await t.api('/api/admin/content?type=slider', { headers: manager.headers })).body.items as any[];
    const reversed = items.map((i) => i.id).reverse();
    const res = await t.api('/api/admin/content/order', { method: 'POST', json: { type: 'slider', ids: reversed }, headers: manager.headers });
    expect(res.status, res.text).toBe(200);
    expect(res.body.items.map((i: any) => i.id)).toEqual(reversed);
    const live = res.body.items.filter((i: any) => i.live).map((i: any) => i.title);
    expect(await servedSlides()).toEqual(live);
    // Every item once: a partial order is refused.
    expectApiError(
      await t.api('/api/admin/content/order', { method: 'POST', json: { type: 'slider', ids: reversed.slice(1) }, headers: manager.headers }),
      400,
    );
  });

  it('refuse a picture from elsewhere, an unsafe link and a schedule that ends before it starts, naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ fields: { image: 'https://evil.example/x.png' } }, 'fields.image'],
      [{ fields: { image: IMAGE, link: 'javascript:alert(1)' } }, 'fields.link'],
      [{ fields: { image: IMAGE, link: '//evil.example/' } }, 'fields.link'],
      [{ fields: { image: IMAGE, link: 'http://plain.example/' } }, 'fields.link'],
      // Banners lead within the shop only.
      [{ fields: { image: IMAGE, link: 'https://elsewhere.example/' } }, 'fields.link'],
      [{ fields: {} }, 'fields.image'],
      [{ shownFrom: at(2 * HOUR), shownUntil: at(HOUR) }, 'shownUntil'],
      [{ title: '<b>Loud</b>' }, 'title'],
    ];
    for (const [patch, field] of cases) {
      const res = await post(slide(patch));
      expectApiError(res, 400, 'validation_error');
      expect(Object.keys(res.body.error.fields), JSON.stringify(patch)).toContain(field);
    }
  });

  it('answer 409 to a change made on a stale version, and keep the other change', async () => {
    const item = (await post(slide())).body;
    const first = await put(item.id, { ...editable(item), title: `${item.title} A` });
    expect(first.status).toBe(200);
    const second = await put(item.id, { ...editable(item), title: `${item.title} B` });
    expectApiError(second, 409, 'stale_version');
    expect((await t.api(`/api/admin/content/${item.id}`, { headers: manager.headers })).body.title).toBe(`${item.title} A`);
  });
});

describe('pop-ups', () => {
  it('follow their switch and schedule on the storefront, with hasCampaign kept in step', async () => {
    const [seeded] = await searchType('campaign');
    expect(seeded).toBeTruthy();
    const item = (await t.api(`/api/admin/content/${seeded.id}`, { headers: manager.headers })).body;
    const off = await put(item.id, { ...editable(item), active: false });
    expect(off.status, off.text).toBe(200);
    expect(off.body.fields.hasCampaign).toBe(false);
    expect((await searchType('campaign')).map((c) => c.id)).not.toContain(item.id);

    const later = await put(item.id, { ...editable(off.body), active: true, shownFrom: at(HOUR) });
    expect(later.body.fields.hasCampaign).toBe(true);
    expect((await searchType('campaign')).map((c) => c.id)).not.toContain(item.id);

    const now = await put(item.id, { ...editable(later.body), shownFrom: at(-HOUR) });
    const served = (await searchType('campaign')).find((c) => c.id === item.id);
    expect(served?.fields).toMatchObject({ hasCampaign: true, image: item.fields.image });
    expect(now.body.live).toBe(true);
  });

  it('make a first-order offer, then remove it', async () => {
    const res = await post({ type: 'subscription-offer', title: 'Winter offer', body: '', fields: { image: '/files/abc/offer.png' }, active: true });
    expect(res.status, res.text).toBe(201);
    expect(res.body.fields).toEqual({ image: '/files/abc/offer.png', link: null, hasCampaign: true });
    expect((await searchType('subscription-offer')).map((c) => c.id)).toContain(res.body.id);
    expect((await t.api(`/api/admin/content/${res.body.id}`, { method: 'DELETE', headers: manager.headers })).status).toBe(204);
    expect((await searchType('subscription-offer')).map((c) => c.id)).not.toContain(res.body.id);
  });
});

describe('articles and bullets', () => {
  it('are made, shown on the home page’s reads, switched off and removed', async () => {
    const article = await post({ type: 'article', title: 'Choosing a dining table', body: 'Leave 90 cm around it.', fields: { link: '/shop' }, active: true });
    expect(article.status, article.text).toBe(201);
    expect(article.body.slug).toBe('choosing-a-dining-table');
    expect((await searchType('article')).map((a) => a.title)).toContain('Choosing a dining table');

    const bullet = await post({ type: 'bullet', title: 'Same-week assembly', body: '', fields: {}, active: true });
    expect(bullet.status, bullet.text).toBe(201);
    const bullets = async () => ((await t.api('/api/cms/bullets')).body.list as any[]).map((b) => b.title);
    expect(await bullets()).toContain('Same-week assembly');

    const off = await put(bullet.body.id, { ...editable(bullet.body), active: false });
    expect(off.status).toBe(200);
    expect(await bullets()).not.toContain('Same-week assembly');

    // Two items of a kind cannot share a slug.
    const twin = await post({ type: 'article', title: 'Choosing a dining table', body: '', fields: {}, active: true });
    expectApiError(twin, 409, 'duplicate_slug');
    expect(twin.body.error.fields).toHaveProperty('slug');

    for (const id of [article.body.id, bullet.body.id])
      expect((await t.api(`/api/admin/content/${id}`, { method: 'DELETE', headers: manager.headers })).status).toBe(204);
    expect((await searchType('article')).map((a) => a.title)).not.toContain('Choosing a dining table');
  });
});

describe('site pages', () => {
  const pageBySlug = async (slug: string) => (await searchType('page')).find((p) => p.slug === slug);

  it('are edited as rich text and served on the next request', async () => {
    const about = await pageBySlug('about');
    const item = (await t.api(`/api/admin/content/${about.id}`, { headers: manager.headers })).body;
    const body =
      '## Who we are\nA **family** workshop since 1998.\n\n- Teak\n- Oak\n\nRead our [delivery terms](/delivery-shipping) or write to [us](mailto:hello@shop.test).';
    const res = await put(item.id, { ...editable(item), body });
    expect(res.status, res.text).toBe(200);
    expect((await pageBySlug('about')).body).toBe(body);
  });

  it('refuse HTML, event handlers and script links with 400 naming the body, and keep the page as it was', async () => {
    const terms = await pageBySlug('terms-conditions');
    const item = (await t.api(`/api/admin/content/${terms.id}`, { headers: manager.headers })).body;
    const unsafe: [string, RegExp][] = [
      ['Hello <script>alert(1)</script>', /Remove the <script> tag: pages are plain text with headings, lists and links/],
      ['A picture <img src=x onerror=alert(1)>', /Remove the <img> tag/],
      ['Broken onerror=alert(1) handler', /onerror/],
      ['Click [here](javascript:alert(1))', /not allowed/],
      ['Click [here](data:text/html;base64,PHNjcmlwdD4=)', /not allowed/],
      ['Sneaky JaVaScRiPt:alert(1) text', /javascript/],
      ['<!-- hidden -->', /comment/],
    ];
    for (const [body, message] of unsafe) {
      const res = await put(item.id, { ...editable(item), body });
      expectApiError(res, 400, 'validation_error');
      expect(res.body.error.fields.body, body).toMatch(message);
      expect(res.body.error.message).toBe(res.body.error.fields.body);
    }
    const after = await pageBySlug('terms-conditions');
    expect(after.body).toBe(terms.body);
    expect((await t.api(`/api/admin/content/${terms.id}`, { headers: manager.headers })).body.version).toBe(item.version);
  });

  it('are one of the shop’s addresses, once each, and cannot be removed', async () => {
    const made = await post({ type: 'page', title: 'Careers', slug: 'careers', body: 'Join us.', fields: {}, active: true });
    expectApiError(made, 400);
    expect(made.body.error.fields).toHaveProperty('slug');
    const twin = await post({ type: 'page', title: 'About again', slug: 'about', body: 'Hello.', fields: {}, active: true });
    expectApiError(twin, 409, 'duplicate_slug');
    expect(twin.body.error.fields.slug).toMatch(/exists/);
    const about = await pageBySlug('about');
    expectApiError(await t.api(`/api/admin/content/${about.id}`, { method: 'DELETE', headers: manager.headers }), 400);
    expect(await pageBySlug('about')).toBeTruthy();
  });
});

describe('who may change content', () => {
  it('lets read-only staff read and refuses their changes', async () => {
    expect((await t.api('/api/admin/content?type=page', { headers: readOnly.headers })).status).toBe(200);
    expectApiError(await post(slide(), readOnly), 403);
    expectApiError(await t.api('/api/admin/branches', { method: 'POST', json: {}, headers: readOnly.headers }), 403);
  });
});

describe('showrooms and outlets', () => {
  const branch = (patch: Record<string, unknown> = {}) => ({
    name: `Test outlet ${Math.random().toString(36).slice(2, 8)}`,
    kind: 'outlet',
    address: 'House 12, Road 5, Dhanmondi',
    city: 'Dhaka',
    phone: '+880 1711-000000',
    hours: 'Every day 10:00–21:00',
    latitude: 23.7465,
    longitude: 90.376,
    ...patch,
  });
  const served = async () => ((await t.api('/api/branches')).body.list as any[]).map((b) => b.name);
  const edit = (b: any, patch: Record<string, unknown>) =>
    t.api(`/api/admin/branches/${b.id}`, {
      method: 'PUT',
      headers: manager.headers,
      json: {
        ...branch(),
        name: b.name,
        kind: b.kind,
        address: b.address,
        city: b.city,
        phone: b.phone,
        hours: b.hours,
        latitude: b.latitude,
        longitude: b.longitude,
        version: b.version,
        ...patch,
      },
    });

  it('are added, changed and removed when nothing refers to them, on the storefront’s next request', async () => {
    await served();
    const made = await t.api('/api/admin/branches', { method: 'POST', json: branch(), headers: manager.headers });
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({ kind: 'outlet', hidden: false, inUse: false, version: 1 });
    expect(await served()).toContain(made.body.name);

    const changed = await edit(made.body, { city: 'Gazipur', latitude: 23.99, longitude: 90.42 });
    expect(changed.status, changed.text).toBe(200);
    expect((await t.api('/api/branches')).body.list.find((b: any) => b.id === made.body.id)).toMatchObject({ city: 'Gazipur', latitude: 23.99 });
    expectApiError(await edit(made.body, { city: 'Stale' }), 409, 'stale_version');
    expect(await auditOf('branch_updated', made.body.id)).toHaveLength(1);

    expect((await t.api(`/api/admin/branches/${made.body.id}`, { method: 'DELETE', headers: manager.headers })).status).toBe(204);
    expect(await served()).not.toContain(made.body.name);
    expect(await auditOf('branch_removed', made.body.id)).toHaveLength(1);
  });

  it('refuse a pin outside Bangladesh and a kind the shop does not have', async () => {
    for (const [patch, field] of [
      [{ latitude: 51.5, longitude: -0.12 }, 'latitude'],
      [{ latitude: 23.7, longitude: 95.1 }, 'longitude'],
      [{ latitude: 19.9 }, 'latitude'],
      [{ kind: 'kiosk' }, 'kind'],
      [{ name: '' }, 'name'],
    ] as const) {
      const res = await t.api('/api/admin/branches', { method: 'POST', json: branch(patch), headers: manager.headers });
      expectApiError(res, 400, 'validation_error');
      expect(Object.keys(res.body.error.fields)).toContain(field);
    }
  });

  it('with stock are not removed (409) but hidden, which takes them off the shop and its pickup', async () => {
    const made = (await t.api('/api/admin/branches', { method: 'POST', json: branch({ kind: 'showroom' }), headers: manager.headers })).body;
    const [sku] = await plainSkus(t.db.kysely, 1, 7);
    const count = (await t.db.kysely.selectFrom('branches').select('id').execute()).length;
    const branches = await t.db.kysely.selectFrom('branches').select('id').orderBy('sort_order').orderBy('id').execute();
    const perBranch = branches.map((b) => (b.id === made.id ? 4 : 0));
    expect(perBranch).toHaveLength(count);
    await setStock(t.db.kysely, sku.id, perBranch);

    const list = (await t.api('/api/admin/branches', { headers: readOnly.headers })).body.items as any[];
    expect(list.find((b) => b.id === made.id).inUse).toBe(true);
    const refused = await t.api(`/api/admin/branches/${made.id}`, { method: 'DELETE', headers: manager.headers });
    expectApiError(refused, 409, 'branch_in_use');
    expect(refused.body.error.message).toMatch(/hide it/);

    const hidden = await edit(made, { hidden: true });
    expect(hidden.status, hidden.text).toBe(200);
    expect(hidden.body.hidden).toBe(true);
    expect(await served()).not.toContain(made.name);
    expect((await t.api('/api/branches?kind=showroom')).body.list.map((b: any) => b.id)).not.toContain(made.id);
    // Nor can a shopper collect from it.
    const pickup = await checkout(t, {
      ...checkoutBody([{ skuCode: sku.code, quantity: 1 }]),
      deliveryMethod: 'showroom_pickup',
      address: undefined,
      pickupBranchId: made.id,
    });
    expectApiError(pickup, 400);
    expect(pickup.body.error.fields).toHaveProperty('pickupBranchId');
    const shown = await edit(hidden.body, { hidden: false });
    expect(shown.body.hidden).toBe(false);
    expect(await served()).toContain(made.name);
    await setStock(t.db.kysely, sku.id, [0]);
  });
});
