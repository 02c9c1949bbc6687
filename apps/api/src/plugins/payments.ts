import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { installationSecret } from '../lib/installation-secrets.ts';
import { orderDeps } from '../modules/orders/deps.ts';
import { expireStalePayments } from '../modules/orders/expire-payments.ts';
import type { PaymentProvider } from '../modules/payments/provider.ts';
import { createBkashClient } from '../modules/payments/bkash/bkash.client.ts';
import type { BkashClient } from '../modules/payments/bkash/types.ts';
import { createNagadClient } from '../modules/payments/nagad/nagad.client.ts';
import type { NagadClient } from '../modules/payments/nagad/types.ts';
import { sharedBkashTokenCache } from '../modules/provider-tokens/shared-token-caches.ts';
import { createSandboxProvider } from '../modules/payments/sandbox.provider.ts';
import { createSslcommerzProvider } from '../modules/payments/sslcommerz.provider.ts';
import { everyInterval } from './interval-job.ts';
import { expireStaleBookings } from '../modules/orders/expire-bookings.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The card gateway chosen by PAYMENT_PROVIDER (docs/decisions/0017). */
    payments: PaymentProvider;
    /** The bKash wallet's tokenized checkout; null when BKASH_* is not configured (checkout then refuses 'bkash'). */
    bkash: BkashClient | null;
    /** The Nagad wallet's checkout; null when NAGAD_* is not configured (checkout then refuses 'nagad'). */
    nagad: NagadClient | null;
    /** Signs the sandbox gateway's notifications: PAYMENT_SANDBOX_SECRET, or this installation's own; '' with SSLCommerz. */
    sandboxSecret: string;
    /** Signs the order links of guests' order mails (docs/decisions/0032). */
    orderLinkSecret: string;
  }
}

/** How often each process looks for payment sessions left open too long, and bookings not paid in time. */
const SWEEP_MS = 60_000;

export const paymentsPlugin = fp(async (app: FastifyInstance) => {
  const cfg = app.config.payments;
  let provider: PaymentProvider;
  let sandboxSecret = '';
  if (cfg.provider === 'sslcommerz') {
    if (!cfg.sslcommerz) throw new Error('PAYMENT_PROVIDER=sslcommerz needs SSLCOMMERZ_STORE_ID and SSLCOMMERZ_STORE_PASSWORD');
    provider = createSslcommerzProvider(cfg.sslcommerz);
  } else {
    // A value known to everyone who has the code would let anyone sign a "paid" notice.
    sandboxSecret = cfg.sandboxSecret ?? (await installationSecret(app.db.kysely, 'payment_sandbox'));
    provider = createSandboxProvider({ db: app.db.kysely, publicUrl: () => app.config.publicUrl, secret: sandboxSecret });
  }
  app.decorate('payments', provider);
  // bKash's id_token is shared by every process on the database (docs/decisions/0041): bKash
  // blocks a merchant that asks for tokens too often.
  app.decorate(
    'bkash',
    cfg.bkash
      ? createBkashClient({
          ...cfg.bkash,
          tokenCache: cfg.bkash.tokenCache ?? sharedBkashTokenCache({ db: app.db.kysely, secret: cfg.bkash.appSecret, now: cfg.bkash.now }),
        })
      : null,
  );
  app.decorate('nagad', cfg.nagad ? createNagadClient(cfg.nagad) : null);
  app.decorate('sandboxSecret', sandboxSecret);
  app.decorate('orderLinkSecret', await installationSecret(app.db.kysely, 'order_links'));

  everyInterval(app, SWEEP_MS, () => {
    const deps = orderDeps(app);
    return (
      expireStalePayments(deps)
        .catch((err) => app.log.warn({ err }, 'payment housekeeping failed'))
        // Bookings hold stock until paid; past their hold they release it (docs/decisions/0022).
        .then(() => expireStaleBookings(deps))
        .catch((err) => app.log.warn({ err }, 'booking housekeeping failed'))
    );
  });
});
