import type { OrderDeps } from './deps.ts';
import { siteSettings } from '../site/site.service.ts';
import { type OrderMailKind, orderMail } from './mail.ts';
import * as repo from './repository.ts';
import { toSale } from './sale-view.ts';

/**
 * Sends the order mail after the transaction that changed the order has committed. Mail
 * never decides an order's fate: a failure is logged and the message stays in the outbox.
 */
export async function sendOrderMail(deps: OrderDeps, saleId: number, kind: OrderMailKind): Promise<void> {
  try {
    const db = deps.db.kysely;
    const row = await repo.saleById(db, saleId);
    if (!row) return;
    const [lines, site] = await Promise.all([repo.linesOf(db, [saleId]), siteSettings(db, ['brand.name', 'contact.hotline', 'contact.supportEmail'])]);
    const mail = orderMail(toSale(row, lines), kind, {
      brand: site['brand.name'] ?? 'Our shop',
      publicUrl: deps.config.publicUrl,
      hotline: site['contact.hotline'],
      supportEmail: site['contact.supportEmail'],
    });
    await deps.mailer.send(mail);
  } catch (err) {
    deps.log.warn({ err, saleId }, 'could not queue the order mail');
  }
}
