import {
  promotionState,
  type TAdminCoupon,
  type TCouponInput,
  type TCouponListQuery,
  type TCouponUsages,
  type TDiscountSwitch,
  ZCouponInput,
  ZCouponListQuery,
} from '@storefront/shared';
import type { Kysely, Selectable } from 'kysely';
import { isUniqueViolation } from '../../db/dialect/unique-violation.ts';
import type { CouponsTable, Database } from '../../db/schema.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { type Actor, recordAudit } from '../staff/audit.ts';
import * as repo from './promotions.repository.ts';

// Coupons in the back office (docs/decisions/0034): created, changed and switched off with
// optimistic locking and an audit entry; never removed, since their uses point at them.
// Checkout reads a coupon on every quote, uncached, so a change applies to the next one.

type Row = Selectable<CouponsTable> & { uses: number | string | null };
type Parsed = ReturnType<typeof ZCouponInput.parse>;
const STALE = 'Someone changed this coupon meanwhile: reload it and make your change again';
const CODE_TAKEN = 'Another coupon already has this code (codes are the same whatever their case)';

const instant = (v: string | null) => (v == null ? null : new Date(v).toISOString());

function toCoupon(r: Row, now = new Date()): TAdminCoupon {
  const active = Number(r.active) === 1;
  return {
    id: r.id,
    code: r.code,
    title: r.title,
    discountType: r.discount_type as TAdminCoupon['discountType'],
    value: r.value,
    minimumOrder: r.minimum_order == null ? null : Number(r.minimum_order),
    maxAmount: r.max_amount == null ? null : Number(r.max_amount),
    startsAt: r.starts_at,
    endsAt: r.ends_at,
    usageLimit: r.usage_limit,
    perCustomerLimit: r.per_customer_limit,
    isPublic: Number(r.is_public) === 1,
    active,
    state: promotionState({ active, startsAt: r.starts_at, endsAt: r.ends_at }, now),
    uses: Number(r.uses ?? 0),
    version: Number(r.version),
    updatedAt: r.updated_at ?? r.created_at,
  };
}

function columns(c: Parsed) {
  return {
    code: c.code,
    title: c.title,
    discount_type: c.discountType,
    value: c.value,
    minimum_order: c.minimumOrder,
    max_amount: c.discountType === 'PERCENTAGE' ? c.maxAmount : null,
    starts_at: instant(c.startsAt),
    ends_at: instant(c.endsAt),
    usage_limit: c.usageLimit,
    per_customer_limit: c.perCustomerLimit,
    is_public: c.isPublic ? 1 : 0,
    active: c.active ? 1 : 0,
  };
}

const snapshot = (c: TAdminCoupon) => {
  const { id: _id, state: _state, uses: _uses, version: _version, updatedAt: _updatedAt, ...rest } = c;
  return rest;
};

export class AdminCouponsService {
  constructor(private readonly db: Kysely<Database>) {}

  async list(query: TCouponListQuery, now = new Date()) {
    const { page, size, q, state } = ZCouponListQuery.parse(query);
    const base = repo.couponListQuery(this.db, { q, state, now: now.toISOString() });
    const [total, rows] = await Promise.all([repo.countOf(base), repo.couponRows(base, page, size)]);
    return { items: rows.map((r) => toCoupon(r, now)), total, page, size };
  }

  async get(id: number, db: Kysely<Database> = this.db): Promise<TAdminCoupon> {
    const r = await repo.couponById(db, id);
    if (!r) throw notFound('The coupon');
    return toCoupon(r);
  }

  /** A code in use by another coupon, in any case, is refused on the code field. */
  private async checkCode(db: Kysely<Database>, code: string, exceptId: number | null) {
    if (await repo.couponWithCode(db, code, exceptId)) throw conflict('code_taken', CODE_TAKEN, { code: CODE_TAKEN });
  }

  /** Two staff saving the same new code at once: the unique index refuses the second, with the same answer. */
  private async guarded<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('code_taken', CODE_TAKEN, { code: CODE_TAKEN });
      throw err;
    }
  }

  async create(input: TCouponInput, actor: Actor): Promise<TAdminCoupon> {
    const c = ZCouponInput.parse(input);
    return this.guarded(() =>
      this.db.transaction().execute(async (trx) => {
        await this.checkCode(trx, c.code, null);
        const now = new Date().toISOString();
        const row = await trx
          .insertInto('coupons')
          .values({ ...columns(c), created_at: now, updated_at: now })
          .returning('id')
          .executeTakeFirstOrThrow();
        const made = await this.get(row.id, trx);
        await recordAudit(trx, actor, { action: 'coupon_created', entity: 'coupon', entityId: row.id, before: null, after: snapshot(made) });
        return made;
      }),
    );
  }

  async update(id: number, input: TCouponInput, actor: Actor): Promise<TAdminCoupon> {
    const c = ZCouponInput.parse(input);
    return this.guarded(() =>
      this.db.transaction().execute(async (trx) => {
        const before = await this.get(id, trx);
        if (c.version !== undefined && c.version !== before.version) throw conflict('stale_version', STALE);
        await this.checkCode(trx, c.code, id);
        const moved = await trx
          .updateTable('coupons')
          .set({ ...columns(c), version: before.version + 1, updated_at: new Date().toISOString() })
          .where('id', '=', id)
          .where('version', '=', before.version)
          .returning('id')
          .executeTakeFirst();
        if (!moved) throw conflict('stale_version', STALE);
        const after = await this.get(id, trx);
        await recordAudit(trx, actor, { action: 'coupon_updated', entity: 'coupon', entityId: id, before: snapshot(before), after: snapshot(after) });
        return after;
      }),
    );
  }

  /** Switches a coupon off (or on again): the way to end it, since its uses keep it. */
  async setActive(id: number, body: TDiscountSwitch, actor: Actor): Promise<TAdminCoupon> {
    return this.db.transaction().execute(async (trx) => {
      const before = await this.get(id, trx);
      if (body.version !== before.version) throw conflict('stale_version', STALE);
      const moved = await trx
        .updateTable('coupons')
        .set({ active: body.active ? 1 : 0, version: before.version + 1, updated_at: new Date().toISOString() })
        .where('id', '=', id)
        .where('version', '=', before.version)
        .returning('id')
        .executeTakeFirst();
      if (!moved) throw conflict('stale_version', STALE);
      await recordAudit(trx, actor, {
        action: body.active ? 'coupon_switched_on' : 'coupon_switched_off',
        entity: 'coupon',
        entityId: id,
        before: { active: before.active },
        after: { active: body.active },
      });
      return this.get(id, trx);
    });
  }

  /** The orders that used the coupon, newest first, and the totals over all of them. */
  async usages(id: number, page: number, size: number): Promise<TCouponUsages> {
    await this.get(id);
    const [rows, totals] = await Promise.all([repo.couponUsages(this.db, id, page, size), repo.couponUsageTotals(this.db, id)]);
    return {
      items: rows.map((r) => ({
        id: r.id,
        saleId: r.sale_id ?? null,
        invoiceId: r.sale_id == null ? null : r.order_ref,
        usedAt: r.created_at,
        customerId: r.customer_id,
        name: r.full_name ?? r.contact_name ?? null,
        guest: r.customer_id == null,
        amount: Number(r.amount),
      })),
      total: totals.uses,
      page,
      size,
      totals,
    };
  }
}
