import {
  DEFAULT_BRAND_COLOUR,
  LOGO_MAX_BYTES,
  LOGO_MAX_SIDE,
  LOGO_PATH,
  LOGO_TYPES,
  PAYMENT_LOGOS,
  type TAdminSettings,
  type TSettingsGroup,
  type TSettingsValues,
} from '@storefront/shared';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { conflict, fieldError } from '../../lib/errors.ts';
import { bumpReadSideVersion } from '../catalogue/search-index.ts';
import { filePath, findFile } from '../files/files.service.ts';
import { type Actor, recordAudit } from '../staff/audit.ts';
import * as repo from './settings.repository.ts';

// The shop's settings (docs/decisions/0037): kept in kvps, which every storefront page and
// mail reads, and written here one group at a time, with the group's version for optimistic
// locking, an audit entry of the values before and after, and the read side's version
// bumped in the same transaction so the next page shows the change.

type Q = Kysely<Database> | Transaction<Database>;

/** Each group's fields and the kvps key each is kept under (the keys the storefront reads). */
const KEYS = {
  brand: { name: 'brand.name', tagline: 'brand.tagline', logo: 'brand.logo', colour: 'brand.colour' },
  contact: {
    hotline: 'contact.hotline',
    hotlineInternational: 'contact.hotlineInternational',
    address: 'contact.address',
    supportEmail: 'contact.supportEmail',
    orderEmail: 'contact.orderEmail',
  },
  social: { facebook: 'social.facebook', instagram: 'social.instagram', youtube: 'social.youtube', linkedin: 'social.linkedin' },
  company: { tin: 'company.tin', bin: 'company.bin', tradeLicence: 'company.tradeLicence' },
} as const;
/** Set by the server from the uploaded file, never typed: the header's img width and height. */
const LOGO_SIZE = { width: 'brand.logoWidth', height: 'brand.logoHeight' } as const;

type Kv = Record<string, string>;

const text = (kv: Kv, key: string) => kv[key] ?? '';
const size = (v: string | undefined) => (v && /^\d+$/.test(v) ? Number(v) : null);

function valuesOf(kv: Kv): TSettingsValues & { brandSize: { logoWidth: number | null; logoHeight: number | null } } {
  const pick = <G extends keyof typeof KEYS>(g: G) =>
    Object.fromEntries(Object.entries(KEYS[g]).map(([field, key]) => [field, text(kv, key)])) as { [F in keyof (typeof KEYS)[G]]: string };
  const known = new Set<string>(PAYMENT_LOGOS);
  const brand = pick('brand');
  return {
    brand: { ...brand, colour: brand.colour || DEFAULT_BRAND_COLOUR },
    brandSize: { logoWidth: brand.logo ? size(kv[LOGO_SIZE.width]) : null, logoHeight: brand.logo ? size(kv[LOGO_SIZE.height]) : null },
    contact: pick('contact'),
    social: pick('social'),
    company: pick('company'),
    payments: {
      logos: text(kv, 'payment.logos')
        .split(',')
        .map((s) => s.trim())
        .filter((s): s is (typeof PAYMENT_LOGOS)[number] => known.has(s)),
      sslLogo: !!text(kv, 'payment.sslLogo'),
    },
  };
}

async function readKv(db: Q): Promise<Kv> {
  const rows = await repo.kvpsByPrefix(db, ['brand', 'contact', 'social', 'company', 'payment']);
  return Object.fromEntries(rows.map((r) => [r.key, r.value]));
}

export async function adminSettings(db: Q): Promise<TAdminSettings> {
  const [kv, groups] = await Promise.all([readKv(db), repo.settingsGroups(db)]);
  const v = valuesOf(kv);
  const meta = (g: TSettingsGroup) => {
    const row = groups.find((r) => r.name === g);
    return { version: row?.version ?? 1, updatedAt: row?.updated_at ?? null, updatedBy: row?.updated_by ?? null };
  };
  return {
    brand: { ...v.brand, ...v.brandSize, ...meta('brand') },
    contact: { ...v.contact, ...meta('contact') },
    social: { ...v.social, ...meta('social') },
    company: { ...v.company, ...meta('company') },
    payments: { ...v.payments, ...meta('payments') },
  };
}

/**
 * The logo must be an image uploaded to this shop, checked by its bytes when it was stored
 * (modules/files): PNG, JPEG or WebP, at most LOGO_MAX_BYTES and LOGO_MAX_SIDE pixels wide
 * and high (docs/decisions/0050; the upload itself takes up to 6000). Answers its canonical path and
 * its size in pixels, which the storefront's header gives its img so nothing moves on load.
 */
async function checkedLogo(db: Q, path: string): Promise<{ path: string; width: number; height: number } | null> {
  if (!path) return null;
  const uuid = LOGO_PATH.exec(path)?.[1];
  const row = uuid ? await findFile(db as Kysely<Database>, uuid) : null;
  if (!row) throw fieldError('logo', 'That logo is not a file uploaded to this shop: upload it again');
  if (row.is_image !== 1 || !(LOGO_TYPES as readonly string[]).includes(row.mime_type)) {
    throw fieldError('logo', 'The logo must be a PNG, JPEG or WebP picture');
  }
  if (Number(row.size) > LOGO_MAX_BYTES) throw fieldError('logo', `The logo must be at most ${LOGO_MAX_BYTES / 1024 / 1024} MB`);
  if (!row.width || !row.height || row.width < 16 || row.height < 16) throw fieldError('logo', 'The logo must be at least 16 pixels wide and high');
  if (row.width > LOGO_MAX_SIDE || row.height > LOGO_MAX_SIDE) {
    throw fieldError('logo', `The logo must be at most ${LOGO_MAX_SIDE} pixels wide and high; this one is ${row.width} × ${row.height}`);
  }
  return { path: filePath(row), width: row.width, height: row.height };
}

/** The kvps the group's values are written as. */
async function kvpsFor(db: Q, group: TSettingsGroup, values: Record<string, unknown>): Promise<Kv> {
  if (group === 'payments') {
    const p = values as TSettingsValues['payments'];
    // Kept in the footer's order of PAYMENT_LOGOS, whatever order they were ticked in.
    return { 'payment.logos': PAYMENT_LOGOS.filter((l) => p.logos.includes(l)).join(','), 'payment.sslLogo': p.sslLogo ? 'ssl' : '' };
  }
  const out: Kv = {};
  for (const [field, key] of Object.entries(KEYS[group])) out[key] = String(values[field] ?? '');
  if (group === 'brand') {
    const logo = await checkedLogo(db, out[KEYS.brand.logo]);
    out[KEYS.brand.logo] = logo?.path ?? '';
    out[LOGO_SIZE.width] = logo ? String(logo.width) : '';
    out[LOGO_SIZE.height] = logo ? String(logo.height) : '';
  }
  return out;
}

const STALE = 'Someone changed these settings meanwhile: reload the page and make your change again';

/** Saves one group of settings; `input` has been parsed by the group's shared schema. */
export async function updateSettingsGroup<G extends TSettingsGroup>(
  db: Kysely<Database>,
  group: G,
  input: TSettingsValues[G] & { version: number },
  actor: Actor,
): Promise<TAdminSettings[G]> {
  return db.transaction().execute(async (trx) => {
    const row = await repo.settingsGroup(trx, group);
    if (!row || row.version !== input.version) throw conflict('stale_version', STALE);
    const { version: _v, ...values } = input;
    const read = valuesOf(await readKv(trx));
    const before: Record<string, unknown> = group === 'brand' ? { ...read.brand, ...read.brandSize } : { ...read[group] };
    await repo.putKvps(trx, await kvpsFor(trx, group, values));
    if (!(await repo.bumpGroup(trx, group, row.version, actor.email, new Date().toISOString()))) throw conflict('stale_version', STALE);
    const after = (await adminSettings(trx))[group];
    const { version: _a, updatedAt: _b, updatedBy: _c, ...afterValues } = after as Record<string, unknown>;
    await recordAudit(trx, actor, { action: 'settings_updated', entity: 'settings', entityId: group, before, after: afterValues });
    // The storefront's pages and GET /api/kvps are cached until the read side moves (0007).
    await bumpReadSideVersion(trx);
    return after as TAdminSettings[G];
  });
}
