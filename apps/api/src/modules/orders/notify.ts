import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { OrderDeps } from './deps.ts';
import { mailLocale } from '../mail/locale.ts';
import { orderSmsText, SMS_WORTHY, type SmsWorthy, textShopper } from '../sms/order-sms.ts';
import { siteSettings } from '../site/site.service.ts';
import { orderLinkFor, orderPageUrl } from './access.ts';
import { type Brand, type OrderMailKind, orderMail, shopMail } from './mail.ts';
import * as repo from './repository.ts';
import { toSale } from './sale-view.ts';

// Mails about orders are sent after the transaction that changed the order has committed.
// Mail never decides an order's fate: a failure is logged and the message stays in the outbox.

/** A staff step's mail: which event, and the reason or amount (poisha) the shopper is told. */
export interface StaffMail {
  kind: OrderMailKind;
  note: string;
  amount?: number;
}

const BRAND_KEYS = ['brand.name', 'brand.logo', 'brand.colour', 'contact.hotline', 'contact.supportEmail', 'contact.address', 'contact.orderEmail'];

async function brandOf(deps: OrderDeps): Promise<{ brand: Brand; orderEmail: string | null }> {
  return brandAndOrderEmail(deps.db.kysely, deps.config.publicUrl);
}

async function brandAndOrderEmail(db: Kysely<Database>, publicUrl: string): Promise<{ brand: Brand; orderEmail: string | null }> {
  const site = await siteSettings(db, BRAND_KEYS);
  const logo = site['brand.logo']?.trim();
  return {
    brand: {
      name: site['brand.name'] ?? 'Our shop',
      publicUrl,
      logoUrl: logo ? (logo.startsWith('http') ? logo : `${publicUrl}${logo.startsWith('/') ? '' : '/'}${logo}`) : null,
      colour: site['brand.colour'] ?? '#1f4d3a',
      hotline: site['contact.hotline'],
      supportEmail: site['contact.supportEmail']?.trim() || undefined,
      address: site['contact.address'],
    },
    orderEmail: site['contact.orderEmail']?.trim() || null,
  };
}

/** The shop's brand as every branded mail shows it, from the site settings. */
export async function shopBrand(db: Kysely<Database>, publicUrl: string): Promise<Brand> {
  return (await brandAndOrderEmail(db, publicUrl)).brand;
}

async function saleFor(deps: OrderDeps, saleId: number) {
  const db = deps.db.kysely;
  const row = await repo.saleById(db, saleId);
  if (!row) return null;
  return { row, sale: toSale(row, await repo.linesOf(db, [saleId])) };
}

/**
 * The shopper's mail about their order, in the language the order was placed in (whoever
 * sets it off, staff included: docs/decisions/0038); a guest's carries the signed link that
 * opens it anywhere, and a Bangla one opens the Bangla page.
 */
export async function sendOrderMail(deps: OrderDeps, saleId: number, kind: OrderMailKind, note?: string, amount?: number): Promise<void> {
  try {
    const found = await saleFor(deps, saleId);
    if (!found) return;
    const { brand } = await brandOf(deps);
    const locale = mailLocale(found.row.locale);
    const page = orderPageUrl(deps.config.publicUrl, found.row.invoice_id, orderLinkFor(deps.orderLinkSecret, found.row));
    const link = locale === 'en' ? page : `${page}&lang=${locale}`;
    await deps.mailer.send(orderMail(found.sale, kind, brand, { link, note, amount, locale }));
  } catch (err) {
    deps.log.warn({ err, saleId }, 'could not queue the order mail');
  }
}

/**
 * A step's mail, whether staff or a courier's report took it; where the parcel is (on its way,
 * delivered, back) or a cancellation is texted too (docs/decisions/0040).
 */
export async function sendStaffMail(deps: OrderDeps, saleId: number, mail: StaffMail): Promise<void> {
  await sendOrderMail(deps, saleId, mail.kind, mail.note, mail.amount);
  if (SMS_WORTHY.includes(mail.kind)) await sendOrderSms(deps, saleId, mail.kind as SmsWorthy);
}

async function sendOrderSms(deps: OrderDeps, saleId: number, kind: SmsWorthy): Promise<void> {
  try {
    const row = await repo.saleById(deps.db.kysely, saleId);
    if (!row?.contact_mobile) return;
    const { brand } = await brandOf(deps);
    const locale = mailLocale(row.locale);
    const page = orderPageUrl(deps.config.publicUrl, row.invoice_id, orderLinkFor(deps.orderLinkSecret, row));
    const link = locale === 'en' ? page : `${page}&lang=${locale}`;
    const text = orderSmsText(kind, { shop: brand.name, invoiceId: row.invoice_id, link, locale });
    await textShopper(deps.sms, row.contact_mobile, text, deps.log);
  } catch (err) {
    deps.log.warn({ err, saleId }, 'could not text the shopper');
  }
}

/** The shop's order address (contact.orderEmail) hears of every new order and booking, and every payment proof. */
export async function notifyShop(deps: OrderDeps, saleId: number, event: 'new_sale' | 'new_proof'): Promise<void> {
  try {
    const { brand, orderEmail } = await brandOf(deps);
    if (!orderEmail) return;
    const found = await saleFor(deps, saleId);
    if (!found) return;
    await deps.mailer.send(shopMail(found.sale, event, brand, orderEmail, `${deps.config.publicUrl}/admin/orders/${saleId}`));
  } catch (err) {
    deps.log.warn({ err, saleId }, 'could not queue the shop’s order mail');
  }
}
