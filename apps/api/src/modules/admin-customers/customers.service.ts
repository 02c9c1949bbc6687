import { clientAddress } from '../../lib/client-address.ts';
import type { TAdminCustomer, TAdminCustomerQuery, TAdminCustomerRow, TBlockCustomer, TPaymentStatus, TSaleStatus } from '@storefront/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { notFound } from '../../lib/errors.ts';
import { isSubscribed, revokeCustomerSessions } from '../accounts/accounts.repository.ts';
import type { AccountsService } from '../accounts/accounts.service.ts';
import { type Actor, recordAudit } from '../staff/audit.ts';
import * as repo from './customers.repository.ts';

// The back office's customers (docs/decisions/0032): finding them, reading one (a read of
// personal data, so it is audited), blocking their sign-in and mailing them a reset link.

type Db = Kysely<Database>;

/** A customer page lists this many of their orders, newest first; the count says if there are more. */
export const CUSTOMER_ORDERS_SHOWN = 50;

const iso = (ms = Date.now()) => new Date(ms).toISOString();

export async function listCustomers(db: Db, query: TAdminCustomerQuery): Promise<{ items: TAdminCustomerRow[]; total: number; page: number; size: number }> {
  const { rows, total } = await repo.listCustomers(db, query);
  return {
    items: rows.map((r) => ({
      id: r.id,
      userId: r.user_id,
      fullName: r.full_name,
      email: r.email,
      mobile: r.mobile,
      createdAt: r.created_at,
      blocked: r.blocked_at != null,
      orderCount: Number(r.order_count ?? 0),
    })),
    total,
    page: query.page,
    size: query.size,
  };
}

/** One customer as staff see them. Each read is written to the audit log: it shows personal data. */
export async function readCustomer(db: Db, id: number, actor: Actor, opts: { sessionIdleMs: number }): Promise<TAdminCustomer> {
  const row = await repo.customerProfile(db, id);
  if (!row) throw notFound('The customer');
  const now = Date.now();
  const [orders, orderCount, addresses, subscribed, activeSessions] = await Promise.all([
    repo.salesOf(db, id, CUSTOMER_ORDERS_SHOWN),
    repo.countSalesOf(db, id),
    repo.addressesOf(db, id),
    isSubscribed(db, id, row.email_key),
    repo.countLiveSessions(db, id, iso(now), iso(now - opts.sessionIdleMs)),
  ]);
  await recordAudit(db, actor, { action: 'read', entity: 'customer', entityId: id, before: null, after: null });
  return {
    id: row.id,
    userId: row.user_id,
    fullName: row.full_name,
    email: row.email,
    mobile: row.mobile,
    imageUrl: row.image_url,
    createdAt: row.created_at,
    blocked: row.blocked_at != null,
    blockedAt: row.blocked_at,
    blockedReason: row.blocked_reason,
    activeSessions,
    subscribed,
    orderCount,
    orders: orders.map((s) => ({
      id: s.id,
      invoiceId: s.invoice_id,
      kind: s.kind as 'order' | 'booking',
      status: s.status as TSaleStatus,
      paymentStatus: s.payment_status as TPaymentStatus,
      total: Number(s.total),
      createdAt: s.created_at,
    })),
    addresses: addresses.map((a) => ({
      id: a.id,
      fullName: a.full_name,
      phone: a.phone,
      division: a.division,
      district: a.district,
      area: a.area,
      addressLine: a.address_line,
      label: a.label,
      isDefault: Number(a.is_default) === 1,
      dateCreated: a.created_at,
      dateUpdated: a.updated_at,
    })),
  };
}

export interface BlockState {
  id: number;
  blocked: boolean;
  blockedAt: string | null;
  blockedReason: string | null;
  /** Sessions this change ended. */
  revokedSessions: number;
}

/**
 * Blocks or unblocks a customer's sign-in. Blocking ends every session they have in the same
 * transaction, so no device stays signed in; their orders stay as they are. Blocking again
 * keeps the first time (and takes the new reason).
 */
export async function setCustomerBlocked(db: Db, id: number, input: TBlockCustomer, actor: Actor): Promise<BlockState> {
  return db.transaction().execute(async (trx) => {
    const before = await repo.customerProfile(trx, id);
    if (!before) throw notFound('The customer');
    const now = iso();
    const reason = input.blocked ? input.reason?.normalize('NFKC').trim() || null : null;
    const blockedAt = input.blocked ? (before.blocked_at ?? now) : null;
    await repo.setBlocked(trx, id, { blockedAt, reason, now });
    const revokedSessions = input.blocked ? await revokeCustomerSessions(trx, id, now) : 0;
    await recordAudit(trx, actor, {
      action: input.blocked ? 'block' : 'unblock',
      entity: 'customer',
      entityId: id,
      before: { blocked: before.blocked_at != null, blockedReason: before.blocked_reason },
      after: { blocked: input.blocked, blockedReason: reason },
    });
    return { id, blocked: input.blocked, blockedAt, blockedReason: reason, revokedSessions };
  });
}

/**
 * Mails the customer the shop's own password-reset link, through the same forgot-password
 * flow the shop uses (one token, one hour, once; its limits per email apply too, and the
 * staff member's address counts as a shopper's would).
 */
export async function mailPasswordReset(db: Db, accounts: Pick<AccountsService, 'forgot'>, id: number, actor: Actor): Promise<void> {
  const row = await repo.customerProfile(db, id);
  if (!row) throw notFound('The customer');
  await accounts.forgot({ email: row.email }, { ip: actor.ip, address: clientAddress(actor.ip), userAgent: 'back office' });
  await recordAudit(db, actor, { action: 'password_reset_mail', entity: 'customer', entityId: id, before: null, after: null });
}
