import {
  ZAdminCurrency,
  ZAdminSettings,
  ZAdminSettingsGroups,
  ZApiError,
  ZBrandSettingsInput,
  ZCompanySettingsInput,
  ZContactSettingsInput,
  ZCurrencyCreate,
  ZCurrencyUpdate,
  ZPaymentSettingsInput,
  ZSocialSettingsInput,
} from '@storefront/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { adminCurrencies, createCurrency, updateCurrency } from '../../../modules/admin-settings/currencies.service.ts';
import { adminSettings, updateSettingsGroup } from '../../../modules/admin-settings/settings.service.ts';
import { actorOf } from '../../../plugins/admin-auth.ts';
import { ADMIN } from './tags.ts';

/**
 * The shop's settings and display currencies (docs/decisions/0037). Every back-office role
 * reads them (they are public on the storefront anyway); managers and owners change them
 * (content.write, as the shop's other storefront content). The next page shows a change.
 */
export const adminSettingsRoutes: FastifyPluginAsyncZod = async (app) => {
  const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError, 409: ZApiError };

  app.get(
    '/api/admin/settings',
    {
      config: { permission: 'catalogue.read' },
      schema: { ...ADMIN, summary: 'The shop’s settings, by group, each with its version', response: { 200: ZAdminSettings, 401: ZApiError, 403: ZApiError } },
    },
    async () => adminSettings(app.db.kysely),
  );

  const groups = [
    ['brand', ZBrandSettingsInput, 'The shop’s name, tagline, logo (an uploaded PNG, JPEG or WebP) and brand colour (one of BRAND_COLOURS)'],
    ['contact', ZContactSettingsInput, 'The hotlines, address, support and order emails'],
    ['social', ZSocialSettingsInput, 'The social profiles (https addresses; empty hides one)'],
    ['company', ZCompanySettingsInput, 'The TIN, BIN and trade licence printed on invoices'],
    ['payments', ZPaymentSettingsInput, 'The payment logos the footer shows'],
  ] as const;
  for (const [group, body, summary] of groups) {
    app.put(
      `/api/admin/settings/${group}`,
      {
        config: { permission: 'content.write' },
        schema: {
          ...ADMIN,
          summary: `Change the ${group} settings: ${summary}`,
          description:
            '`version` is the group’s version read: a group changed since answers 409 `stale_version`. The storefront shows the change on its next page.',
          body,
          response: { 200: ZAdminSettingsGroups[group], ...errors },
        },
      },
      async (req) => {
        // biome-ignore lint/suspicious/noExplicitAny: each route's body was parsed by its own group's schema above.
        const saved = await updateSettingsGroup(app.db.kysely, group, req.body as any, actorOf(req));
        await app.catalogueChanged();
        return saved;
      },
    );
  }

  app.get(
    '/api/admin/currencies',
    {
      config: { permission: 'catalogue.read' },
      schema: {
        ...ADMIN,
        summary: 'Every display currency, the disabled ones too, with its rate in BDT per unit and its last change',
        response: { 200: z.object({ items: z.array(ZAdminCurrency) }), 401: ZApiError, 403: ZApiError },
      },
    },
    async () => ({ items: await adminCurrencies(app.db.kysely) }),
  );
  app.post(
    '/api/admin/currencies',
    {
      config: { permission: 'content.write' },
      schema: {
        ...ADMIN,
        summary: 'Add a display currency (ISO 4217 code, not yet in the shop)',
        body: ZCurrencyCreate,
        response: { 201: ZAdminCurrency, ...errors },
      },
    },
    async (req, reply) => {
      const made = await createCurrency(app.db.kysely, req.body, actorOf(req));
      await app.catalogueChanged();
      return reply.status(201).send(made);
    },
  );
  app.patch(
    '/api/admin/currencies/:code',
    {
      config: { permission: 'content.write' },
      schema: {
        ...ADMIN,
        summary: 'Change a currency’s rate, country, or whether shoppers may choose it',
        description:
          'BDT cannot be disabled and its rate stays 1 (409 `base_currency`). A currency changed since `version` was read answers 409 `stale_version`.',
        params: z.object({ code: z.string().regex(/^[A-Za-z]{3}$/, 'Three letters') }),
        body: ZCurrencyUpdate,
        response: { 200: ZAdminCurrency, ...errors },
      },
    },
    async (req) => {
      const saved = await updateCurrency(app.db.kysely, req.params.code, req.body, actorOf(req));
      await app.catalogueChanged();
      return saved;
    },
  );
};
