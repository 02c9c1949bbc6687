import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { type OrderDeps, orderDeps } from '../orders/deps.ts';
import type { PathaoCourier } from './pathao.client.ts';
import type { SteadfastCourier } from './steadfast.client.ts';

/** The couriers this shop is configured for (docs/decisions/0040); null: not offered. */
export interface Couriers {
  steadfast: SteadfastCourier | null;
  pathao: PathaoCourier | null;
}

/** What booking and tracking parcels need: the orders' deps and the configured couriers. */
export interface CourierDeps extends OrderDeps {
  couriers: Couriers;
}

export function courierDeps(app: FastifyInstance, log: FastifyBaseLogger = app.log): CourierDeps {
  return { ...orderDeps(app, log), couriers: app.couriers };
}
