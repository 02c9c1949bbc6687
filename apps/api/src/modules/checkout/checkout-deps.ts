import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { AppConfig } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { PaymentProvider } from '../payments/provider.ts';

/** What checkout, payments and sales need from the app; built once per request from it. */
export interface CheckoutDeps {
  db: Db;
  payments: PaymentProvider;
  config: AppConfig;
  mailer: Mailer;
  log: FastifyBaseLogger;
}

export function checkoutDeps(app: FastifyInstance, log: FastifyBaseLogger = app.log): CheckoutDeps {
  return { db: app.db, payments: app.payments, config: app.config, mailer: app.mailer, log };
}
