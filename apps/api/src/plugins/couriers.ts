import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { type Couriers, courierDeps } from '../modules/couriers/deps.ts';
import { createPathaoCourier, type PathaoOptions } from '../modules/couriers/pathao.client.ts';
import { pollConsignments } from '../modules/couriers/poll-consignments.ts';
import { createSteadfastCourier } from '../modules/couriers/steadfast.client.ts';
import { sharedPathaoTokenCache } from '../modules/provider-tokens/shared-token-caches.ts';
import { everyInterval } from './interval-job.ts';
import { type CourierFee, pathaoDeliveryFee } from '../modules/delivery/courier-price.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Home delivery's fee from the courier's quote (DELIVERY_PRICE_FROM=pathao, docs/decisions/0045); null: the zones' fee. */
    courierFee: CourierFee | null;
    /** The couriers configured (docs/decisions/0040); booking is offered only for these. */
    couriers: Couriers;
  }
}

/**
 * Pathao's client with its token kept in the database, shared by every process
 * (docs/decisions/0041; Pathao asks that the token be stored and reused). One row per
 * environment, client and merchant user.
 */
function pathaoCourier(app: FastifyInstance, opts: PathaoOptions) {
  const tokenCache =
    opts.tokenCache ??
    sharedPathaoTokenCache({
      db: app.db.kysely,
      accountKey: `${opts.baseUrl.replace(/\/+$/, '')}|${opts.clientId}|${opts.username}`,
      secret: opts.clientSecret,
      refreshBeforeMs: opts.refreshBeforeMs,
      now: opts.now,
    });
  return createPathaoCourier({ ...opts, tokenCache });
}

/**
 * The courier clients from the settings, and the poll that asks the courier about live
 * parcels it has not reported on for a while (webhooks get lost). Every process polls;
 * each consignment is claimed with a conditional update, so two never ask about the same one.
 */
export const couriersPlugin = fp(async (app: FastifyInstance) => {
  const cfg = app.config.couriers;
  app.decorate('couriers', {
    steadfast: cfg.steadfast ? createSteadfastCourier(cfg.steadfast) : null,
    pathao: cfg.pathao ? pathaoCourier(app, cfg.pathao) : null,
  } satisfies Couriers);
  app.decorate(
    'courierFee',
    cfg.deliveryPriceFrom === 'pathao' && app.couriers.pathao
      ? pathaoDeliveryFee(app.couriers.pathao, { itemWeightGrams: cfg.itemWeightGrams ?? 1000, log: app.log })
      : null,
  );
  if (!app.couriers.steadfast && !app.couriers.pathao) return;
  everyInterval(app, cfg.pollEveryMs, () => pollConsignments(courierDeps(app)).catch((err) => app.log.warn({ err }, 'courier polling failed')));
});
