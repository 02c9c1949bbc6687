import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectApiError } from './helpers/assertions.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

describe('GET /api/kvps (site settings)', () => {
  it('returns every brand detail the storefront shows', async () => {
    const res = await t.api<Record<string, string>>('/api/kvps');
    expect(res.status).toBe(200);
    const s = res.body;
    expect(s['brand.name']).toBeTruthy();
    expect(s['contact.hotline']).toBe('16770');
    expect(s['contact.hotlineInternational']).toMatch(/^\+\d[\d ]+$/);
    expect(s['contact.supportEmail']).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]{2,}$/);
    const social = Object.entries(s).filter(([k]) => k.startsWith('social.'));
    expect(social.length).toBeGreaterThanOrEqual(2);
    for (const [, url] of social) expect(url).toMatch(/^https:\/\//);
    expect(s['company.tin']).toMatch(/\d{6,}/);
    expect(s['company.bin']).toMatch(/\d{6,}/);
    expect(s['company.tradeLicence']).toBeTruthy();
    for (const v of Object.values(s)) expect(typeof v).toBe('string');
  });

  it('returns only the keys asked for with keys=', async () => {
    const res = await t.api(`/api/kvps?keys=${encodeURIComponent('contact.hotline, company.tin')}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ 'contact.hotline': '16770', 'company.tin': expect.any(String) });
  });

  it('returns an empty object for keys that do not exist', async () => {
    const res = await t.api('/api/kvps?keys=no.such.key');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
  });

  it('treats an empty keys= as all settings', async () => {
    const all = await t.api('/api/kvps');
    const empty = await t.api('/api/kvps?keys=');
    expect(empty.body).toEqual(all.body);
  });

  it('refuses an overlong keys= with a 400', async () => {
    expectApiError(await t.api(`/api/kvps?keys=${'k,'.repeat(1500)}`), 400, 'validation_error');
  });

  it('a changed setting shows on the next read', async () => {
    await t.db.kysely.updateTable('kvps').set({ value: '09610' }).where('key', '=', 'contact.hotline').execute();
    const res = await t.api('/api/kvps?keys=contact.hotline');
    expect(res.body).toEqual({ 'contact.hotline': '09610' });
  });
});
