import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AccountsService } from './accounts.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    accounts: AccountsService;
  }
}

/** `app.accounts`: one AccountsService per app (needs the mailer registered first). */
export const accountsPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorate('accounts', new AccountsService(app.db, app.config, app.mailer, app.log));
  },
  { name: 'accounts', dependencies: [] },
);
