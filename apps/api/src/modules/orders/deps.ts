import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { AppConfig } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { PaymentProvider } from '../payments/provider.ts';

/** What checkout, payments and sales need from the app; built once per request from it. */
export interface OrderDeps {
  db: Db;
  payments: PaymentProvider;
  config: AppConfig;
  mailer: Mailer;
  log: FastifyBaseLogger;
  /** Signs guests' order links (docs/decisions/0032). */
  orderLinkSecret: string;
}

export function orderDeps(app: FastifyInstance, log: FastifyBaseLogger = app.log): OrderDeps {
  return { db: app.db, payments: app.payments, config: app.config, mailer: app.mailer, log, orderLinkSecret: app.orderLinkSecret };
}
