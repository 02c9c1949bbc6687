// The back office's roles and permissions (docs/decisions/0031), shared by the API, which
// enforces them on every /api/admin route, and the back office, which shows only what a
// role may use. No zod here: the schemas are in admin-schemas.ts.

export const STAFF_ROLES = ['owner', 'manager', 'staff', 'read_only'] as const;
export type TStaffRole = (typeof STAFF_ROLES)[number];

export const ROLE_LABELS: Record<TStaffRole, string> = {
  owner: 'Owner',
  manager: 'Manager',
  staff: 'Staff',
  read_only: 'Read-only',
};

/**
 * What an admin route may require. `self` is any signed-in staff member acting on their own
 * account (two-factor, sign-out).
 */
export const PERMISSIONS = [
  'self',
  'catalogue.read',
  'catalogue.write',
  'prices.write',
  'stock.write',
  'orders.read',
  'orders.write',
  'refunds.write',
  'customers.manage',
  'reports.read',
  'promotions.write',
  'content.write',
  'staff.manage',
  'audit.read',
] as const;
export type TPermission = (typeof PERMISSIONS)[number];

/**
 * owner: everything, and manages staff; manager: catalogue, prices, stock, orders, refunds,
 * customers, the dashboard's figures, promotions, content; staff: orders and stock (reading
 * the catalogue to find a sku), but no money out and no revenue figures; read-only: reads,
 * the figures included.
 */
export const ROLE_PERMISSIONS: Record<TStaffRole, readonly TPermission[]> = {
  owner: PERMISSIONS,
  // Everything but the staff accounts and the audit log.
  manager: PERMISSIONS.filter((p) => p !== 'staff.manage' && p !== 'audit.read'),
  staff: ['self', 'catalogue.read', 'stock.write', 'orders.read', 'orders.write'],
  read_only: ['self', 'catalogue.read', 'orders.read', 'reports.read'],
};

export function roleMay(role: TStaffRole, permission: TPermission): boolean {
  return ROLE_PERMISSIONS[role].includes(permission);
}

/** Roles that must sign in with a second factor. */
export const TWO_FACTOR_REQUIRED: readonly TStaffRole[] = ['owner'];

export const PRODUCT_STATUSES = ['published', 'draft', 'archived'] as const;
export type TProductStatus = (typeof PRODUCT_STATUSES)[number];

export const STOCK_REASONS = ['received', 'sold', 'returned', 'correction'] as const;
export type TStockReason = (typeof STOCK_REASONS)[number];

/** A sku is low on stock at or below this many units in all branches, unless it has its own threshold. */
export const DEFAULT_LOW_STOCK = 3;

/** A slug as the storefront's addresses use it: lower-case letters, digits and single dashes. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 120)
    .replace(/-+$/, '');
}

/**
 * Taka as staff type it ("12,500", "12500.5", "৳ 12,500.50") in poisha, or null when it is
 * not an amount. Money is kept in the minor unit (docs/decisions/0002).
 */
export function parseTaka(text: string): number | null {
  const t = text.replace(/[৳,\s]/g, '').replace(/^tk\.?/i, '');
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(t)) return null;
  const [whole, frac = ''] = t.split('.');
  return Number(whole) * 100 + Number(frac.padEnd(2, '0'));
}

/** Poisha as taka for an input field: "12500" or "12500.50". */
export function takaInput(poisha: number): string {
  const whole = Math.trunc(poisha / 100);
  const frac = Math.abs(poisha % 100);
  return frac ? `${whole}.${String(frac).padStart(2, '0')}` : String(whole);
}

/** Staff passwords guard the whole shop: longer than a customer's. */
export const STAFF_PASSWORD_MIN = 12;
