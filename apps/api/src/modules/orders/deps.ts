import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { AppConfig } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { BkashClient } from '../payments/bkash/types.ts';
import type { NagadClient } from '../payments/nagad/types.ts';
import type { PaymentProvider } from '../payments/provider.ts';
import type { SmsSender } from '../sms/sms.ts';
import type { CourierFee } from '../delivery/courier-price.ts';

/** What checkout, payments and sales need from the app; built once per request from it. */
export interface OrderDeps {
  db: Db;
  payments: PaymentProvider;
  /** The bKash wallet; null when it is not configured. */
  bkash: BkashClient | null;
  /** The Nagad wallet; null when it is not configured (docs/decisions/0042). */
  nagad: NagadClient | null;
  config: AppConfig;
  mailer: Mailer;
  /** Home delivery priced by the courier's quote (docs/decisions/0045); null or absent: the zones' fee. */
  courierFee?: CourierFee | null;
  /** Texts shoppers about their parcel (log only unless a gateway is set up). */
  sms: SmsSender;
  log: FastifyBaseLogger;
  /** Signs guests' order links (docs/decisions/0032). */
  orderLinkSecret: string;
}

export function orderDeps(app: FastifyInstance, log: FastifyBaseLogger = app.log): OrderDeps {
  return {
    db: app.db,
    payments: app.payments,
    bkash: app.bkash,
    nagad: app.nagad,
    config: app.config,
    mailer: app.mailer,
    sms: app.sms,
    courierFee: app.courierFee,
    log,
    orderLinkSecret: app.orderLinkSecret,
  };
}
