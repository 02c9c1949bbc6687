import { clientAddress } from '../../lib/client-address.ts';
import { createHash, randomBytes } from 'node:crypto';
import {
  CHECKOUT_MESSAGES,
  COUPON_CODE_PATTERN,
  COUPON_MESSAGES,
  deliveryCharge,
  mergeCheckoutItems,
  normalizeCouponCode,
  normalizeMobile,
  outcomePath,
  type TCheckoutRequest,
  type TPaymentMethod,
  type TPaymentStatus,
  type TSale,
  type TSaleStatus,
} from '@storefront/shared';
import type { Kysely, Transaction } from 'kysely';
import { isUniqueViolation } from '../../db/dialect/unique-violation.ts';
import type { Database } from '../../db/schema.ts';
import { ApiError, badRequest, conflict } from '../../lib/errors.ts';
import { deliveryZones } from '../delivery/delivery.service.ts';
import { countCouponAttempt } from '../pricing/coupon.service.ts';
import { lockCoupon, quoteCart, recordCouponUse } from '../pricing/quote.service.ts';
import { newAccessToken } from './access.ts';
import { checkCardAmount, insertNewPayment } from './card-payment.ts';
import type { OrderDeps } from './deps.ts';
import { addHistory } from './history.ts';
import { assertHoldRoom, type CheckoutClient, checkQuantities, clientKeys, countCheckout, keyOwner, lockHoldKeys, pruneCounts } from './limits.ts';
import { mailLocale } from '../mail/locale.ts';
import { notifyShop, sendOrderMail } from './notify.ts';
import { assertWalletOffered, isWallet, openPaymentFor } from './wallets.ts';
import * as repo from './repository.ts';
import type { PaymentRow, SaleLineRow, SaleRow } from './repository.ts';
import { type SaleParts, saleView } from './sale-view.ts';
import { reserveStock, saveReservations, shortageError, StockConflictError } from './stock.ts';
import { fileUrl } from './view-orders.ts';

// POST /api/checkouts: an order (or a booking) from skus and quantities alone. The server
// prices it with the cart's quote (the same function the cart page and the coupon apply
// call use), and ONE transaction creates the sale, reserves its stock and records the
// coupon use; a shortage is a 409 naming the lines, and then nothing is written
// (docs/decisions/0016).

type Q = Kysely<Database> | Transaction<Database>;

const INVOICE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';

/** INV-261121-7K3Q9X2M: the date for people, 40 random bits so ids cannot be enumerated. */
export function newInvoiceId(now = new Date()): string {
  const d = now.toISOString().slice(2, 10).replace(/-/g, '');
  const bytes = randomBytes(8);
  let tail = '';
  for (const b of bytes) tail += INVOICE_ALPHABET[b % INVOICE_ALPHABET.length];
  return `INV-${d}-${tail}`;
}

interface Contact {
  name: string;
  mobile: string;
  email: string;
}

interface Delivery {
  method: TCheckoutRequest['deliveryMethod'];
  district: string | null;
  pickupBranchId: number | null;
  snapshot: Record<string, unknown>;
}

async function resolveContact(db: Q, body: TCheckoutRequest, customerId: number | null): Promise<Contact> {
  const normal = (c: NonNullable<TCheckoutRequest['contact']>): Contact => ({
    name: c.name.trim(),
    mobile: normalizeMobile(c.mobile) ?? c.mobile.trim(),
    email: c.email.trim(),
  });
  if (customerId !== null) {
    const c = await repo.customerContact(db, customerId);
    if (!c) throw new ApiError('unauthorized', 'Please sign in again');
    return body.contact ? normal(body.contact) : { name: c.full_name, mobile: c.mobile, email: c.email };
  }
  if (!body.contact) {
    throw badRequest('Please give your name, mobile number and email', {
      'contact.name': CHECKOUT_MESSAGES.nameRequired,
      'contact.mobile': CHECKOUT_MESSAGES.mobileRequired,
      'contact.email': CHECKOUT_MESSAGES.emailRequired,
    });
  }
  return normal(body.contact);
}

async function resolveDelivery(db: Q, body: TCheckoutRequest, customerId: number | null, contact: Contact): Promise<Delivery> {
  if (body.deliveryMethod === 'showroom_pickup') {
    if (!body.pickupBranchId) throw badRequest(CHECKOUT_MESSAGES.pickupRequired, { pickupBranchId: CHECKOUT_MESSAGES.pickupRequired });
    const b = await repo.branchById(db, body.pickupBranchId);
    if (!b || b.kind === 'warehouse') throw badRequest('This showroom was not found', { pickupBranchId: 'This showroom was not found' });
    return { method: 'showroom_pickup', district: null, pickupBranchId: b.id, snapshot: { fullName: contact.name, phone: contact.mobile, branch: b } };
  }
  if (body.addressId !== undefined) {
    if (customerId === null) throw badRequest('Sign in to use a saved address', { addressId: 'Sign in to use a saved address' });
    const a = await repo.customerAddress(db, customerId, body.addressId);
    // Someone else's address id looks the same as one that does not exist.
    if (!a) throw badRequest('This address was not found', { addressId: 'This address was not found' });
    return {
      method: 'home_delivery',
      district: a.district,
      pickupBranchId: null,
      snapshot: { fullName: a.full_name, phone: a.phone, division: a.division, district: a.district, area: a.area, addressLine: a.address_line },
    };
  }
  if (!body.address) throw badRequest(CHECKOUT_MESSAGES.addressRequired, { address: CHECKOUT_MESSAGES.addressRequired });
  const a = body.address;
  return {
    method: 'home_delivery',
    district: a.district,
    pickupBranchId: null,
    snapshot: {
      fullName: a.fullName.trim(),
      phone: normalizeMobile(a.phone) ?? a.phone.trim(),
      division: a.division,
      district: a.district,
      area: a.area.trim(),
      addressLine: a.addressLine.trim(),
    },
  };
}

/** Thrown out of the order's transaction when its idempotency key is already stored. */
class KeyTaken extends Error {}

export interface PlacedOrder {
  sale: SaleRow;
  /**
   * The order as the API answers it, when placing it left everything it shows in hand
   * (the usual case); else the caller reads it (a replay, a gateway that refused).
   */
  view?: TSale;
  paymentUrl: string | null;
  redirectTo: string;
  accessToken: string | null;
  /** True when an earlier checkout with the same idempotency key placed this order. */
  replayed?: boolean;
}

/**
 * The order an earlier checkout with this idempotency key placed, answered again; null
 * when the key is new. The same key from someone else, or with another request, is
 * refused (409): a key names one request.
 */
async function replayCheckout(deps: OrderDeps, key: string, owner: string, requestHash: string): Promise<PlacedOrder | null> {
  const db = deps.db.kysely;
  const row = await db.selectFrom('checkout_keys').selectAll().where('key', '=', key).executeTakeFirst();
  if (!row) return null;
  if (row.owner !== owner || row.request_hash !== requestHash) {
    throw conflict('idempotency_key_reused', 'This Idempotency-Key was used for another checkout. Send a new key for a new checkout.');
  }
  let sale = (await repo.saleById(db, row.sale_id))!;
  // A guest's token is kept only as a hash: the repeat gets a new one (the browser's
  // cookie takes it; the lost answer's token no longer opens the order).
  let accessToken: string | null = null;
  if (sale.customer_id === null) {
    const access = newAccessToken();
    await db.updateTable('sales').set({ access_token_hash: access.hash }).where('id', '=', sale.id).execute();
    sale = { ...sale, access_token_hash: access.hash };
    accessToken = access.token;
  }
  let paymentUrl: string | null = null;
  let redirectTo: string;
  if (sale.payment_method === 'later') redirectTo = outcomePath('later', sale.invoice_id);
  else if ((sale.payment_method !== 'card' && sale.payment_method !== 'bkash' && sale.payment_method !== 'nagad') || sale.payment_status === 'paid')
    redirectTo = outcomePath('success', sale.invoice_id);
  else {
    const open = (await repo.paymentsOf(db, sale.id)).find((p) => p.status === 'initiated' && p.gateway_url);
    paymentUrl = open?.gateway_url ?? null;
    redirectTo = paymentUrl ?? outcomePath('failed', sale.invoice_id);
  }
  return { sale, paymentUrl, redirectTo, accessToken, replayed: true };
}

export async function placeOrder(
  deps: OrderDeps,
  body: TCheckoutRequest,
  customerId: number | null,
  idempotencyKey: string | null = null,
  client: CheckoutClient = { address: clientAddress(null), deviceId: null },
): Promise<PlacedOrder> {
  const { kysely, dialect } = deps.db;
  const limits = deps.config.orders;
  // A key is replayed only to the client that placed its order: a customer by id, a guest
  // by device (docs/decisions/0022), never to whoever sends the same key and body.
  const owner = keyOwner(customerId, client);
  const requestHash = createHash('sha256').update(JSON.stringify(body)).digest('hex');
  if (idempotencyKey) {
    const earlier = await replayCheckout(deps, idempotencyKey, owner, requestHash);
    if (earlier) return earlier;
  }
  const items = mergeCheckoutItems(body.items);
  const firstIndex = (code: string) => body.items.findIndex((i) => i.skuCode === code);
  checkQuantities(items, firstIndex, limits);
  const units = items.reduce((n, i) => n + i.quantity, 0);
  const contact = await resolveContact(kysely, body, customerId);
  const delivery = await resolveDelivery(kysely, body, customerId, contact);
  const couponCode = body.couponCode?.trim() ? normalizeCouponCode(body.couponCode) : null;
  if (couponCode && !COUPON_CODE_PATTERN.test(couponCode))
    throw conflict('coupon_not_applicable', COUPON_MESSAGES.unknown, { couponCode: COUPON_MESSAGES.unknown });
  // Outside the order's transaction, so that a refused checkout's guess stays counted (docs/decisions/0014).
  if (couponCode) await countCouponAttempt(kysely, { address: client.address, code: couponCode, customerId });
  const keys = clientKeys(client, customerId, contact);
  // Every mail about the order is in the language it was placed in (docs/decisions/0038):
  // the request's, else a signed-in customer's last one.
  const locale = client.locale ?? mailLocale(customerId === null ? null : await repo.customerLocale(kysely, customerId));

  // The courier's quote, asked before the order's transaction (never hold the database while
  // a courier answers); where it has none, the zone's fee applies (docs/decisions/0045).
  const courierFee =
    delivery.method === 'home_delivery' && deps.courierFee && delivery.district
      ? await deps.courierFee({ district: delivery.district, area: String(delivery.snapshot.area ?? ''), units })
      : null;

  const now = new Date();
  const nowIso = now.toISOString();
  const method: TPaymentMethod = body.paymentMethod;
  if (isWallet(method)) assertWalletOffered(deps, method);
  // A wallet order waits for its wallet payment exactly as a card order waits for the gateway.
  const paidOnline = method === 'card' || method === 'bkash' || method === 'nagad';
  const kind = method === 'later' ? 'booking' : 'order';
  // Cash-on-delivery orders wait for the shop to confirm them by phone (docs/decisions/0032).
  const status: TSaleStatus = paidOnline ? 'pending_payment' : method === 'later' ? 'booked' : 'placed';
  const paymentStatus: TPaymentStatus = paidOnline ? 'pending' : 'unpaid';
  const access = customerId === null ? newAccessToken() : null;
  const invoiceId = newInvoiceId(now);

  let placed: { sale: SaleRow; payment: PaymentRow | null; lines: SaleLineRow[]; history: SaleParts['history'] };
  try {
    placed = await kysely.transaction().execute(async (trx) => {
      // Lock order, the same in every transaction: the client's hold keys (and with them
      // its counters), the coupon, then stock rows by (sku, branch).
      await lockHoldKeys(trx, dialect, keys);
      // A copy of this keyed checkout was placed while this one waited for the lock: it
      // answers that order and counts nothing.
      if (idempotencyKey && (await trx.selectFrom('checkout_keys').select('key').where('key', '=', idempotencyKey).executeTakeFirst())) throw new KeyTaken();
      // Counted first, then placed (docs/decisions/0022); a checkout that places nothing
      // rolls its counts back with the rest.
      await countCheckout(trx, keys, limits, now);
      await assertHoldRoom(trx, keys, units, limits);
      if (couponCode) await lockCoupon(trx, dialect, couponCode);
      // Priced inside the transaction, after the coupon lock: the coupon's uses are counted
      // with every earlier checkout of it committed.
      const quote = await quoteCart(trx, { lines: items, couponCode, customerId, now });
      const unknown = quote.lines.filter((l) => l.status === 'unavailable' || !l.product || !l.sku);
      if (unknown.length) {
        throw conflict(
          'items_unavailable',
          `These items are no longer sold: ${unknown.map((l) => l.skuCode).join(', ')}`,
          Object.fromEntries(unknown.map((l) => [`items.${firstIndex(l.skuCode)}.skuCode`, 'This item is no longer sold'])),
        );
      }
      if (couponCode && !quote.coupon?.applied) {
        const message = quote.coupon && !quote.coupon.applied ? quote.coupon.message : COUPON_MESSAGES.unknown;
        throw conflict('coupon_not_applicable', message, { couponCode: message });
      }
      // The zone's fee, or nothing from its threshold on (docs/decisions/0033), read in the
      // order's transaction like its prices.
      const charge = deliveryCharge(await deliveryZones(trx), delivery.method, delivery.district, quote.totals.total);
      if (!charge)
        throw badRequest('We do not deliver to this district yet; please collect from a showroom', { 'address.district': 'We do not deliver here yet' });
      // Free delivery from the zone's threshold stays free; below it the courier's price, if it quoted one.
      const fee = charge.fee > 0 && courierFee !== null ? courierFee : charge.fee;
      const total = quote.totals.total + fee;
      if (method === 'card') checkCardAmount(deps.payments, total);

      const skuRows = await repo.skuIdsByCode(
        trx,
        quote.lines.map((l) => l.skuCode),
      );
      const skuId = new Map(skuRows.map((s) => [s.code, s.id]));
      const itemsBySku = new Map(quote.lines.map((l) => [skuId.get(l.skuCode)!, { index: firstIndex(l.skuCode), code: l.skuCode, title: l.product!.title }]));
      const wanted = quote.lines.map((l) => ({ skuId: skuId.get(l.skuCode)!, quantity: l.quantity }));
      const reserved = await reserveStock(trx, dialect, null, wanted, delivery.pickupBranchId, nowIso);
      if (!reserved.ok) throw shortageError(reserved.shortages, itemsBySku);

      const sale = await repo.insertSale(trx, {
        invoice_id: invoiceId,
        kind,
        customer_id: customerId,
        contact_name: contact.name,
        contact_mobile: contact.mobile,
        contact_email: contact.email,
        access_token_hash: access?.hash ?? null,
        delivery_method: delivery.method,
        delivery_address: JSON.stringify(delivery.snapshot),
        pickup_branch_id: delivery.pickupBranchId,
        branch_id: reserved.mainBranchId,
        currency: 'BDT',
        subtotal: quote.totals.subTotal,
        discount_total: quote.totals.discount,
        coupon_code: quote.coupon?.applied ? quote.coupon.code : null,
        coupon_discount: quote.totals.couponAmount,
        delivery_fee: fee,
        total,
        payment_method: method,
        status,
        payment_status: paymentStatus,
        stock_held: 1,
        coupon_held: quote.coupon?.applied ? 1 : 0,
        note: body.note?.trim() || null,
        created_at: nowIso,
        updated_at: nowIso,
        paid_at: null,
        cancelled_at: null,
        fulfilled_at: null,
        client_address: keys.address,
        // A booking nobody pays for gives its stock back (docs/decisions/0022).
        hold_until: kind === 'booking' ? new Date(now.getTime() + limits.bookingHoldMs).toISOString() : null,
        locale,
      });
      // In the order's own transaction: of two checkouts with one key, one commits and the
      // other meets the key and answers that order (below).
      if (idempotencyKey) {
        await trx.insertInto('checkout_keys').values({ key: idempotencyKey, owner, request_hash: requestHash, sale_id: sale.id, created_at: nowIso }).execute();
      }
      await saveReservations(trx, sale.id, reserved.allocations ?? [], nowIso);
      await repo.insertLines(
        trx,
        quote.lines.map((l, i) => ({
          sale_id: sale.id,
          line_no: i + 1,
          sku_id: skuId.get(l.skuCode)!,
          sku_code: l.skuCode,
          product_id: l.product!.id,
          title: l.product!.title,
          variant: l.sku!.label,
          image_url: l.product!.image,
          source_type: l.sourceType ?? null,
          quantity: l.quantity,
          unit_price: l.salesPrice,
          discount: l.saving * l.quantity,
          line_total: l.subTotal,
        })),
      );
      if (quote.coupon?.applied) {
        await recordCouponUse(trx, { code: quote.coupon.code, customerId, orderRef: invoiceId, amount: quote.totals.couponAmount, now });
      }
      const payment = paidOnline
        ? await insertNewPayment(trx, deps, sale.id, total, nowIso, method === 'bkash' || method === 'nagad' ? method : deps.payments.name)
        : null;
      const placedNote = {
        card: 'Order placed; waiting for the card payment',
        bkash: 'Order placed; waiting for the bKash payment',
        nagad: 'Order placed; waiting for the Nagad payment',
        cod: 'Order placed; cash on delivery',
        later: 'Booking placed; items held until paid',
      }[method];
      const actor = customerId === null ? 'guest' : 'customer';
      await addHistory(trx, sale.id, status, paymentStatus, actor, placedNote, nowIso);
      const lines = await repo.linesOf(trx, [sale.id]);
      return { sale, payment, lines, history: [{ status, payment_status: paymentStatus, actor, note: placedNote, created_at: nowIso }] };
    });
  } catch (err) {
    if (err instanceof StockConflictError) throw conflict('out_of_stock', CHECKOUT_MESSAGES.outOfStock);
    if (idempotencyKey && (err instanceof KeyTaken || isUniqueViolation(err))) {
      const earlier = await replayCheckout(deps, idempotencyKey, owner, requestHash);
      if (earlier) return earlier;
    }
    throw err;
  }

  pruneCounts(kysely);
  if (customerId !== null && client.locale) await repo.setCustomerLocale(kysely, customerId, client.locale);
  const { sale, payment, lines, history } = placed;
  // The answer is built from the rows this checkout wrote, not read back (a new order has
  // no attachments yet, and its one payment row is as written but for the gateway's address).
  const view = (payments: PaymentRow[]) => saleView(sale, { lines, history, payments, attachments: [] }, fileUrl(deps.config.imageHost));
  if (payment) {
    const opened = await openPaymentFor(deps, sale, payment, lines);
    return {
      sale: opened.sale,
      // A gateway that refused failed the payment: the order changed, and is read again.
      view: opened.url ? view([payment]) : undefined,
      paymentUrl: opened.url,
      redirectTo: opened.url ?? outcomePath('failed', sale.invoice_id),
      accessToken: access?.token ?? null,
    };
  }
  await sendOrderMail(deps, sale.id, method === 'later' ? 'booked' : 'placed');
  await notifyShop(deps, sale.id, 'new_sale');
  return {
    sale,
    view: view([]),
    paymentUrl: null,
    redirectTo: outcomePath(method === 'later' ? 'later' : 'success', sale.invoice_id),
    accessToken: access?.token ?? null,
  };
}
