import { isSitePath } from './catalogue.ts';
import { isContentLink, isRichTextLink } from './content-links.ts';
import { z } from './zod.ts';

// Content, pages and showrooms in the back office (docs/decisions/0035): what staff may
// write for each content type, checked by the API (and read by the back office's forms for
// their field names). `fields` holds what the storefront reads of each type: the carousel's
// and the pop-ups' picture and link, the categories an article or bullet is aimed at.

/** The content types the back office edits, with the names its screens give them. */
export const ADMIN_CONTENT_TYPES = ['slider', 'article', 'bullet', 'page', 'campaign', 'subscription-offer'] as const;
export type TAdminContentType = (typeof ADMIN_CONTENT_TYPES)[number];

export const CONTENT_TYPE_LABELS: Record<TAdminContentType, string> = {
  slider: 'Home sliders',
  article: 'Articles',
  bullet: 'Bullets',
  page: 'Pages',
  campaign: 'Pop-ups: campaign',
  'subscription-offer': 'Pop-ups: first-order offer',
};

/** The site pages the storefront has an address for (apps/web/app/routes.ts). */
export const STATIC_PAGE_SLUGS = ['about', 'privacy-policy', 'terms-conditions', 'return', 'coming-soon', 'delivery-shipping'] as const;

/** Types with a picture, a link and a schedule (the carousel and the two pop-ups). */
export const SCHEDULED_TYPES: readonly TAdminContentType[] = ['slider', 'campaign', 'subscription-offer'];
/** The two pop-up types: their on/off is also `fields.hasCampaign`, which the pop-up code reads (docs/decisions/0010). */
export const POPUP_TYPES: readonly TAdminContentType[] = ['campaign', 'subscription-offer'];

const RICH_TEXT_RULE = 'pages are plain text with headings, lists and links';

/**
 * A picture the shop serves itself: an upload (/files/…, as the product pictures) or the
 * shop's own media (/media/…). Pages load pictures from the shop only (docs/decisions/0012).
 */
export function isShopImage(value: string): boolean {
  return value.length <= 500 && isSitePath(value) && /^\/(files|media)\//.test(value) && !value.includes('..');
}

/**
 * Why a text cannot be stored as rich text, or null when it can. The storefront's RichText
 * renders a small Markdown-like format and never HTML; refusing markup at the door keeps
 * what is stored what is shown, and no page can carry a script even to another reader of
 * the data (the API, an export).
 */
export function richTextProblem(text: string): string | null {
  if (/<!--/.test(text)) return `Remove the HTML comment: ${RICH_TEXT_RULE}`;
  const tag = /<\s*\/?\s*([a-z][a-z0-9-]*)/i.exec(text);
  if (tag) return `Remove the <${tag[1].toLowerCase()}> tag: ${RICH_TEXT_RULE}`;
  const handler = /\b(on[a-z]+)\s*=/i.exec(text);
  if (handler) return `Remove the ${handler[1].toLowerCase()} attribute: ${RICH_TEXT_RULE}`;
  for (const m of text.matchAll(/\]\(\s*([^)\s]*)[^)]*\)/g)) {
    if (!isRichTextLink(m[1])) return `The link “${m[1].slice(0, 60)}” is not allowed: links go to a page of this shop, an https address, mailto: or tel:`;
  }
  const scheme = /\b(javascript|vbscript)\s*:/i.exec(text);
  if (scheme) return `Remove “${scheme[1].toLowerCase()}:”: ${RICH_TEXT_RULE}`;
  return null;
}

/** Plain text (titles, slide lines): no markup at all. */
function plainText(max: number, label: string) {
  return z
    .string()
    .trim()
    .max(max, `${label} is at most ${max} characters`)
    .refine((v) => !/<\s*\/?\s*[a-z!]/i.test(v), { message: `${label} is plain text: remove the HTML tag` });
}

const ZRichText = z
  .string()
  .max(50_000, 'A page is at most 50,000 characters')
  .superRefine((v, ctx) => {
    const problem = richTextProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

const ZImage = z.string().trim().refine(isShopImage, { message: 'Upload a picture, or use one of the shop’s own (/files/… or /media/…)' });
const ZLink = z
  .string()
  .trim()
  .refine((v) => v === '' || isContentLink(v), { message: 'A link is a path on this shop, such as /shop?categoryId=3' })
  .nullable()
  .optional()
  .transform((v) => v || null);
const ZCategories = z
  .array(z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'A category slug'))
  .max(50)
  .optional();

/** `fields` of each type, as stored (what the storefront reads). */
export const CONTENT_FIELDS = {
  slider: z.object({ image: ZImage, link: ZLink }),
  campaign: z.object({ image: ZImage, link: ZLink }),
  'subscription-offer': z.object({ image: ZImage, link: ZLink }),
  article: z.object({ image: ZImage.nullable().optional(), link: ZLink, categories: ZCategories }),
  bullet: z.object({ link: ZLink, categories: ZCategories }),
  page: z.object({}),
} satisfies Record<TAdminContentType, z.ZodType>;

const ZWhen = z.iso.datetime({ offset: true, message: 'A date and time' }).nullable().optional();

/** What the back office sends to create or change a content item; `fields` is checked per type (contentInputProblems). */
export const ZContentInput = z.object({
  type: z.enum(ADMIN_CONTENT_TYPES),
  title: z.string().max(200),
  /** Empty: made from the title (pages: one of STATIC_PAGE_SLUGS). */
  slug: z.string().max(120).optional(),
  body: z.string().max(50_000),
  /**
   * The title and body in Bangla (docs/decisions/0038), checked as their English twins:
   * null or empty, none (shoppers reading Bangla see the English); left out, unchanged.
   */
  titleBn: z.string().max(200).nullable().optional(),
  bodyBn: z.string().max(50_000).nullable().optional(),
  fields: z.record(z.string(), z.unknown()).optional(),
  /** Left out: kept (new items go last). Reordering has its own call. */
  sortOrder: z.number().int().min(0).max(100_000).optional(),
  active: z.boolean(),
  shownFrom: ZWhen,
  shownUntil: ZWhen,
  /** The version read: an item changed since answers 409 `stale_version`. */
  version: z.number().int().optional(),
});
export type TContentInput = z.infer<typeof ZContentInput>;

/** The item as the back office reads it; `live` says whether the storefront serves it now. */
export const ZAdminContentItem = z.object({
  id: z.number(),
  type: z.string(),
  title: z.string(),
  titleBn: z.string().nullable(),
  slug: z.string(),
  body: z.string(),
  bodyBn: z.string().nullable(),
  fields: z.record(z.string(), z.unknown()),
  sortOrder: z.number(),
  active: z.boolean(),
  shownFrom: z.string().nullable(),
  shownUntil: z.string().nullable(),
  live: z.boolean(),
  version: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TAdminContentItem = z.infer<typeof ZAdminContentItem>;

export const ZContentOrder = z.object({
  type: z.enum(ADMIN_CONTENT_TYPES),
  /** Every item of the type, in the order wanted. */
  ids: z.array(z.number().int().positive()).min(1).max(500),
});
export type TContentOrder = z.infer<typeof ZContentOrder>;

export interface CheckedContent {
  title: string;
  body: string;
  /** null: none; undefined: left out of the request (kept as it is). */
  titleBn?: string | null;
  bodyBn?: string | null;
  fields: Record<string, unknown>;
}

/**
 * The rules of each type, every broken one reported on its field ("title", "body",
 * "fields.image", "shownUntil"…); `{ ok }` with what to store when there is none.
 */
export function checkContentInput(input: TContentInput): { ok: true; value: CheckedContent } | { ok: false; fields: Record<string, string> } {
  const errors: Record<string, string> = {};
  const add = (path: string, message: string) => {
    if (!errors[path]) errors[path] = message;
  };
  const title = plainText(200, 'The title').safeParse(input.title);
  if (!title.success) add('title', title.error.issues[0].message);
  else if (!title.data && input.type !== 'page') add('title', 'Please give it a title');
  else if (!title.data) add('title', 'Please give the page a title');
  const bodyRule = () => (input.type === 'page' ? ZRichText : plainText(2000, 'The text'));
  const body = bodyRule().safeParse(input.body);
  if (!body.success) add('body', body.error.issues[0].message);
  // The Bangla versions follow the English rules, messages included; empty is none.
  let titleBn: string | null | undefined;
  let bodyBn: string | null | undefined;
  if (input.titleBn != null) {
    const r = plainText(200, 'The title').safeParse(input.titleBn);
    if (!r.success) add('titleBn', r.error.issues[0].message);
    else titleBn = r.data || null;
  } else titleBn = input.titleBn;
  if (input.bodyBn != null) {
    const r = bodyRule().safeParse(input.bodyBn);
    if (!r.success) add('bodyBn', r.error.issues[0].message);
    else bodyBn = r.data.trim() ? r.data : null;
  } else bodyBn = input.bodyBn;
  const fields = CONTENT_FIELDS[input.type].safeParse(input.fields ?? {});
  if (!fields.success) for (const i of fields.error.issues) add(['fields', ...i.path.map(String)].join('.'), i.message);
  if (input.shownFrom && input.shownUntil && Date.parse(input.shownUntil) <= Date.parse(input.shownFrom)) {
    add('shownUntil', 'The end of the schedule must come after its start');
  }
  if (Object.keys(errors).length) return { ok: false, fields: errors };
  const out: Record<string, unknown> = { ...(fields.data as Record<string, unknown>) };
  for (const k of Object.keys(out)) if (out[k] === undefined) delete out[k];
  // The pop-up code shows an item whose hasCampaign is the boolean true (docs/decisions/0010).
  if (POPUP_TYPES.includes(input.type)) out.hasCampaign = input.active;
  return { ok: true, value: { title: title.data ?? '', body: body.data ?? '', titleBn, bodyBn, fields: out } };
}

/** Served by the storefront at `now`: switched on and inside its schedule (from inclusive, until exclusive). */
export function isContentLive(item: { active: boolean; shownFrom: string | null; shownUntil: string | null }, now = new Date()): boolean {
  const t = now.getTime();
  if (!item.active) return false;
  if (item.shownFrom && Date.parse(item.shownFrom) > t) return false;
  if (item.shownUntil && Date.parse(item.shownUntil) <= t) return false;
  return true;
}

// ---- the schedule as staff type it ----------------------------------------------------------

/** Bangladesh keeps UTC+6 all year: the back office's date fields are Dhaka time. */
const DHAKA_OFFSET_MS = 6 * 3600_000;

/** "2026-12-01T09:00" (Dhaka time, a datetime-local field) → ISO UTC; '' → null; not a time → undefined. */
export function dhakaInputToIso(value: string): string | null | undefined {
  const v = value.trim();
  if (!v) return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(v);
  if (!m) return undefined;
  const t = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5]) - DHAKA_OFFSET_MS;
  return Number.isNaN(t) ? undefined : new Date(t).toISOString();
}

/** ISO → "2026-12-01T09:00" in Dhaka time, for a datetime-local field. */
export function isoToDhakaInput(iso: string | null): string {
  if (!iso) return '';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '';
  return new Date(t + DHAKA_OFFSET_MS).toISOString().slice(0, 16);
}

// ---- showrooms and outlets ------------------------------------------------------------------

export const BRANCH_KINDS = ['showroom', 'outlet', 'warehouse'] as const;

/** Bangladesh, roughly: where a branch's pin may be. */
export const BD_BOUNDS = { minLat: 20.5, maxLat: 26.7, minLng: 88.0, maxLng: 92.7 } as const;

export const ZBranchInput = z.object({
  name: z.string().trim().min(1, 'Please give the branch a name').max(120),
  kind: z.enum(BRANCH_KINDS, { message: 'Showroom, outlet or warehouse' }),
  address: z.string().trim().min(1, 'Please give the address').max(300),
  city: z.string().trim().min(1, 'Please give the city').max(80),
  phone: z
    .string()
    .trim()
    .max(40)
    .regex(/^[+\d][\d\s-]{5,}$|^$/, 'A phone number, such as +880 1711-000000'),
  hours: z.string().trim().max(200),
  latitude: z
    .number({ message: 'A latitude, such as 23.78' })
    .min(BD_BOUNDS.minLat, `Latitude in Bangladesh is between ${BD_BOUNDS.minLat} and ${BD_BOUNDS.maxLat}`)
    .max(BD_BOUNDS.maxLat, `Latitude in Bangladesh is between ${BD_BOUNDS.minLat} and ${BD_BOUNDS.maxLat}`),
  longitude: z
    .number({ message: 'A longitude, such as 90.41' })
    .min(BD_BOUNDS.minLng, `Longitude in Bangladesh is between ${BD_BOUNDS.minLng} and ${BD_BOUNDS.maxLng}`)
    .max(BD_BOUNDS.maxLng, `Longitude in Bangladesh is between ${BD_BOUNDS.minLng} and ${BD_BOUNDS.maxLng}`),
  sortOrder: z.number().int().min(0).max(10_000).optional(),
  /** Off the storefront (its stock and orders stay). */
  hidden: z.boolean().optional(),
  version: z.number().int().optional(),
});
export type TBranchInput = z.infer<typeof ZBranchInput>;

export const ZAdminBranch = z.object({
  id: z.number(),
  name: z.string(),
  kind: z.string(),
  address: z.string(),
  city: z.string(),
  phone: z.string(),
  hours: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  sortOrder: z.number(),
  hidden: z.boolean(),
  version: z.number(),
  /** Stock, reservations, movements or orders refer to it: it can be hidden, not removed. */
  inUse: z.boolean(),
});
export type TAdminBranch = z.infer<typeof ZAdminBranch>;
