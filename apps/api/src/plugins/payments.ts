import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { checkoutDeps } from '../modules/checkout/checkout-deps.ts';
import { expireStalePayments } from '../modules/payments/payments.service.ts';
import type { PaymentProvider } from '../modules/payments/provider.ts';
import { createSandboxProvider } from '../modules/payments/sandbox.provider.ts';
import { createSslcommerzProvider } from '../modules/payments/sslcommerz.provider.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The card gateway chosen by PAYMENT_PROVIDER (docs/decisions/0017). */
    payments: PaymentProvider;
  }
}

/** How often each process looks for payment sessions left open too long. */
const SWEEP_MS = 60_000;

export const paymentsPlugin = fp(async (app: FastifyInstance) => {
  const cfg = app.config.payments;
  let provider: PaymentProvider;
  if (cfg.provider === 'sslcommerz') {
    if (!cfg.sslcommerz) throw new Error('PAYMENT_PROVIDER=sslcommerz needs SSLCOMMERZ_STORE_ID and SSLCOMMERZ_STORE_PASSWORD');
    provider = createSslcommerzProvider(cfg.sslcommerz);
  } else {
    provider = createSandboxProvider({ db: app.db.kysely, publicUrl: () => app.config.publicUrl, secret: cfg.sandboxSecret });
  }
  app.decorate('payments', provider);

  let timer: NodeJS.Timeout | null = null;
  let running = false;
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      if (running) return;
      running = true;
      expireStalePayments(checkoutDeps(app))
        .catch((err) => app.log.warn({ err }, 'payment housekeeping failed'))
        .finally(() => {
          running = false;
        });
    }, SWEEP_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
  });
});
