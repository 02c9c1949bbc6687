import { isEmailShaped } from './email.ts';
import { z } from './zod.ts';

// The shop's settings and display currencies as the back office reads and writes them
// (docs/decisions/0037). The settings live in the key/value table the storefront reads
// (GET /api/kvps); each group is saved on its own, with its own version.

export const SETTINGS_GROUPS = ['brand', 'contact', 'social', 'company', 'payments'] as const;
export type TSettingsGroup = (typeof SETTINGS_GROUPS)[number];

// ---- colours ---------------------------------------------------------------------------------

/** WCAG 2 relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const n = Number.parseInt(hex.slice(1), 16);
  const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The contrast ratio of white text on this #rrggbb background (1 to 21). */
export function contrastWithWhite(hex: string): number {
  if (!/^#[0-9a-f]{6}$/i.test(hex)) return 1;
  return 1.05 / (luminance(hex) + 0.05);
}

/** WCAG AA for normal text: the mails' header and buttons set white text on the brand colour. */
export const MIN_CONTRAST_WITH_WHITE = 4.5;

/**
 * The brand colours staff may choose: the design system's own (apps/web/app/theme.css),
 * each carrying white text at AA or better. Any other value is refused, so a mail or an
 * invoice can never become unreadable.
 */
export const BRAND_COLOURS = [
  { value: '#1f4d3a', label: 'Forest green' },
  { value: '#173a2c', label: 'Deep green' },
  { value: '#25684c', label: 'Leaf green' },
  { value: '#b4532a', label: 'Terracotta' },
  { value: '#1d2327', label: 'Charcoal' },
] as const;
export const DEFAULT_BRAND_COLOUR = '#1f4d3a';

export function isBrandColour(value: string): boolean {
  const v = value.toLowerCase();
  return BRAND_COLOURS.some((c) => c.value === v) && contrastWithWhite(v) >= MIN_CONTRAST_WITH_WHITE;
}

// ---- field rules -----------------------------------------------------------------------------

/** The payment badges the footer can draw (apps/api/src/modules/media/demo-art.ts). */
export const PAYMENT_LOGOS = ['visa', 'mastercard', 'amex', 'bkash', 'nagad', 'rocket'] as const;
export const PAYMENT_LOGO_LABELS: Record<(typeof PAYMENT_LOGOS)[number], string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  bkash: 'bKash',
  nagad: 'Nagad',
  rocket: 'Rocket',
};

/** A logo is an image uploaded to this shop: PNG, JPEG or WebP (never SVG: it can carry script), at most 1 MB. */
export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export const LOGO_MAX_BYTES = 1024 * 1024;
/**
 * Shown 40 pixels high (120 on a 3× screen) and printed on invoices: 2000 pixels wide and
 * high leave room for any wordmark (docs/decisions/0050).
 */
export const LOGO_MAX_SIDE = 2000;
/** The path of a file uploaded to this shop (apps/api/src/modules/files: filePath). */
export const LOGO_PATH = /^\/files\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/[^\s/?#]{1,200}$/i;

const digits = (v: string) => v.replace(/[\s-]/g, '');

/**
 * A number a Bangladeshi shop gives as its hotline: a short code (16770), a local number
 * (09612016770, 01712345678) or the same with the country code (+880 9612 016770).
 */
export function isBdPhone(value: string): boolean {
  const v = digits(value);
  return /^\d{3,6}$/.test(v) || /^0\d{9,10}$/.test(v) || /^\+880\d{8,11}$/.test(v);
}

/** A number callable from abroad: + and the country code, 8 to 15 digits in all (E.164). */
export function isInternationalPhone(value: string): boolean {
  return /^\+[1-9]\d{7,14}$/.test(digits(value));
}

/** An https address (a social profile): never javascript:, data: or plain http. */
export function isHttpsUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return u.protocol === 'https:' && !!u.hostname && u.hostname.includes('.') && !u.username && !u.password;
  } catch {
    return false;
  }
}

/** One line of text: no line breaks or control characters. */
const line = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max, `${label}: at most ${max} characters`)
    .refine((v) => ![...v].some((ch) => ch.charCodeAt(0) < 32 || ch.charCodeAt(0) === 127), `${label}: one line of text, please`);

const email = (label: string) =>
  z
    .string()
    .trim()
    .max(254)
    .refine((v) => isEmailShaped(v), `${label}: please give a correct email address`);

const social = (label: string) =>
  z
    .string()
    .trim()
    .max(300)
    .refine((v) => v === '' || isHttpsUrl(v), `${label}: an address starting with https://, or empty to hide it`);

const version = z.number().int().min(1).describe('The version read: a group changed since answers 409 `stale_version`');

// ---- groups ----------------------------------------------------------------------------------

export const ZBrandSettings = z.object({
  name: line(60, 'The shop’s name').refine((v) => v.length > 0, 'Please give the shop’s name'),
  tagline: line(120, 'The tagline'),
  /** '' for the name set in type; else the path of an uploaded PNG, JPEG or WebP. */
  logo: z
    .string()
    .trim()
    .max(300)
    .refine((v) => v === '' || LOGO_PATH.test(v), 'Upload the logo here: a PNG, JPEG or WebP file of this shop'),
  colour: z
    .string()
    .trim()
    .refine((v) => isBrandColour(v), `Choose one of the brand colours: ${BRAND_COLOURS.map((c) => c.label).join(', ')}`)
    .transform((v) => v.toLowerCase()),
});
export const ZContactSettings = z.object({
  hotline: z
    .string()
    .trim()
    .max(30)
    .refine((v) => isBdPhone(v), 'The hotline: a short code such as 16770, or a number such as 09612 016770 or +880 9612 016770'),
  hotlineInternational: z
    .string()
    .trim()
    .max(30)
    .refine((v) => v === '' || isInternationalPhone(v), 'The number from abroad: + and the country code, such as +880 9612 016770, or empty'),
  address: line(200, 'The address').refine((v) => v.length > 0, 'Please give the shop’s address'),
  supportEmail: email('The support email'),
  orderEmail: z
    .string()
    .trim()
    .max(254)
    .refine((v) => v === '' || isEmailShaped(v), 'The order email: please give a correct email address, or empty'),
});
export const ZSocialSettings = z.object({
  facebook: social('Facebook'),
  instagram: social('Instagram'),
  youtube: social('YouTube'),
  linkedin: social('LinkedIn'),
});
export const ZCompanySettings = z.object({
  tin: line(80, 'The TIN').refine((v) => v === '' || /(^|\D)\d{12}(\D|$)/.test(v), 'The TIN has 12 digits, e.g. TIN 482915736104'),
  bin: line(80, 'The BIN').refine((v) => v === '' || /(^|\D)\d{9}(-?\d{4})?(\D|$)/.test(v), 'The BIN has 9 or 13 digits, e.g. BIN 004518273-0101'),
  tradeLicence: line(120, 'The trade licence'),
});
export const ZPaymentSettings = z.object({
  logos: z
    .array(z.enum(PAYMENT_LOGOS))
    .max(PAYMENT_LOGOS.length)
    .refine((v) => new Set(v).size === v.length, 'Each payment logo once'),
  /** The "Secured by SSLCOMMERZ" badge. */
  sslLogo: z.boolean(),
});

export const SETTINGS_SCHEMAS = {
  brand: ZBrandSettings,
  contact: ZContactSettings,
  social: ZSocialSettings,
  company: ZCompanySettings,
  payments: ZPaymentSettings,
} as const;

export type TBrandSettings = z.infer<typeof ZBrandSettings>;
export type TContactSettings = z.infer<typeof ZContactSettings>;
export type TSocialSettings = z.infer<typeof ZSocialSettings>;
export type TCompanySettings = z.infer<typeof ZCompanySettings>;
export type TPaymentSettings = z.infer<typeof ZPaymentSettings>;
export type TSettingsValues = {
  brand: TBrandSettings;
  contact: TContactSettings;
  social: TSocialSettings;
  company: TCompanySettings;
  payments: TPaymentSettings;
};

/** What PUT /api/admin/settings/<group> takes: the group's values and the version read. */
export const ZBrandSettingsInput = ZBrandSettings.extend({ version });
export const ZContactSettingsInput = ZContactSettings.extend({ version });
export const ZSocialSettingsInput = ZSocialSettings.extend({ version });
export const ZCompanySettingsInput = ZCompanySettings.extend({ version });
export const ZPaymentSettingsInput = ZPaymentSettings.extend({ version });

const ZGroupMeta = z.object({ version: z.number(), updatedAt: z.string().nullable(), updatedBy: z.string().nullable() });
/** The brand as read back: the logo's pixel size too (read from the file, for width/height attributes). */
export const ZAdminBrand = z.object({
  name: z.string(),
  tagline: z.string(),
  logo: z.string(),
  colour: z.string(),
  logoWidth: z.number().nullable(),
  logoHeight: z.number().nullable(),
});
export const ZAdminSettingsGroups = {
  brand: ZAdminBrand.extend(ZGroupMeta.shape),
  contact: ZContactSettings.extend(ZGroupMeta.shape),
  social: ZSocialSettings.extend(ZGroupMeta.shape),
  company: ZCompanySettings.extend(ZGroupMeta.shape),
  payments: ZPaymentSettings.extend(ZGroupMeta.shape),
};
export const ZAdminSettings = z.object(ZAdminSettingsGroups);
export type TAdminSettings = z.infer<typeof ZAdminSettings>;

// ---- currencies ------------------------------------------------------------------------------

/** The currency the shop charges in: always enabled, rate 1 (decisions.md). */
export const BASE_CURRENCY = 'BDT';
/** BDT per unit: no currency is worth more than this (the dearest, KWD, is about 400). */
export const MAX_CURRENCY_RATE = 10_000;

const rate = z
  .number({ error: 'The rate: a number of taka' })
  .positive('The rate must be more than 0')
  .max(MAX_CURRENCY_RATE, `The rate: at most ${MAX_CURRENCY_RATE.toLocaleString('en-US')} taka per unit`)
  .refine((v) => Number.isFinite(v) && Math.round(v * 10_000) > 0, 'The rate: at least 0.0001 taka per unit');

export const ZAdminCurrency = z.object({
  code: z.string(),
  country: z.string(),
  /** BDT per one unit of this currency. */
  rate: z.number(),
  numCode: z.string(),
  imageUrl: z.string(),
  sortOrder: z.number(),
  enabled: z.boolean(),
  version: z.number(),
  updatedAt: z.string().nullable(),
  updatedBy: z.string().nullable(),
});
export type TAdminCurrency = z.infer<typeof ZAdminCurrency>;

export const ZCurrencyCreate = z.object({
  code: z
    .string()
    .trim()
    .transform((v) => v.toUpperCase())
    .refine((v) => /^[A-Z]{3}$/.test(v), 'The code: three letters of ISO 4217, such as USD'),
  country: line(60, 'The country').refine((v) => v.length > 0, 'Please give the country'),
  rate,
  /** The country's calling code shown beside it, e.g. +1. */
  numCode: z
    .string()
    .trim()
    .max(8)
    .refine((v) => v === '' || /^\+\d{1,4}$/.test(v), 'The calling code: + and 1 to 4 digits, or empty'),
});
export type TCurrencyCreate = z.input<typeof ZCurrencyCreate>;

export const ZCurrencyUpdate = z.object({
  rate: rate.optional(),
  enabled: z.boolean().optional(),
  country: ZCurrencyCreate.shape.country.optional(),
  version,
});
export type TCurrencyUpdate = z.input<typeof ZCurrencyUpdate>;
