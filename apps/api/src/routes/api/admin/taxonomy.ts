import {
  ZAdminAttribute,
  ZAdminAttributeUpdate,
  ZAdminCategory,
  ZAdminCategoryInput,
  ZAdminCategoryUpdate,
  ZApiError,
  ZAttributeValueRename,
  ZCategoryMove,
} from '@storefront/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../../plugins/admin-auth.ts';
import { AdminTaxonomyService } from '../../../modules/admin-catalogue/taxonomy.service.ts';
import { ADMIN, ZIdParam } from './tags.ts';

const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError, 409: ZApiError };

/** The category tree and the attributes with their options (docs/decisions/0031). */
export const adminTaxonomyRoutes: FastifyPluginAsyncZod = async (app) => {
  const taxonomy = new AdminTaxonomyService(app.db, () => app.reindexCatalogue());

  app.get(
    '/api/admin/categories',
    {
      config: { permission: 'catalogue.read' },
      schema: {
        ...ADMIN,
        summary: 'The category tree in display order, with product counts',
        response: { 200: z.object({ items: z.array(ZAdminCategory) }), ...errors },
      },
    },
    async () => ({ items: await taxonomy.categories() }),
  );

  app.post(
    '/api/admin/categories',
    {
      config: { permission: 'catalogue.write' },
      schema: {
        ...ADMIN,
        summary: 'Add a category, at the top or under another (three levels at most)',
        body: ZAdminCategoryInput,
        response: { 201: ZAdminCategory, ...errors },
      },
    },
    async (req, reply) => reply.status(201).send(await taxonomy.createCategory(req.body, actorOf(req))),
  );

  app.put(
    '/api/admin/categories/:id',
    {
      config: { permission: 'catalogue.write' },
      schema: {
        ...ADMIN,
        summary: 'Rename a category, change its slug, picture or banner',
        description: 'With the `version` it was read at: a category changed since answers 409 `stale_version`.',
        params: ZIdParam,
        body: ZAdminCategoryUpdate,
        response: { 200: ZAdminCategory, ...errors },
      },
    },
    async (req) => taxonomy.updateCategory(req.params.id, req.body, actorOf(req)),
  );

  app.post(
    '/api/admin/categories/:id/move',
    {
      config: { permission: 'catalogue.write' },
      schema: {
        ...ADMIN,
        summary: 'Move a category one place up or down among its siblings',
        params: ZIdParam,
        body: ZCategoryMove,
        response: { 200: z.object({ items: z.array(ZAdminCategory) }), ...errors },
      },
    },
    async (req) => ({ items: await taxonomy.moveCategory(req.params.id, req.body.direction, req.body.version, actorOf(req)) }),
  );

  app.delete(
    '/api/admin/categories/:id',
    {
      config: { permission: 'catalogue.write' },
      schema: { ...ADMIN, summary: 'Delete an empty category (no sub-categories, no products)', params: ZIdParam, response: { 204: z.null(), ...errors } },
    },
    async (req, reply) => {
      await taxonomy.deleteCategory(req.params.id, actorOf(req));
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/admin/attributes',
    {
      config: { permission: 'catalogue.read' },
      schema: {
        ...ADMIN,
        summary: 'The attributes with their options in use and how many skus have each',
        response: { 200: z.object({ items: z.array(ZAdminAttribute) }), ...errors },
      },
    },
    async () => ({ items: await taxonomy.attributes() }),
  );

  app.put(
    '/api/admin/attributes/:id',
    {
      config: { permission: 'catalogue.write' },
      schema: {
        ...ADMIN,
        summary: 'Change an attribute’s label',
        params: ZIdParam,
        body: ZAdminAttributeUpdate,
        response: { 200: ZAdminAttribute, ...errors },
      },
    },
    async (req) => taxonomy.updateAttribute(req.params.id, req.body.label, req.body.version, actorOf(req)),
  );

  app.post(
    '/api/admin/attributes/:id/values/rename',
    {
      config: { permission: 'catalogue.write' },
      schema: {
        ...ADMIN,
        summary: 'Rename an option on every sku that has it',
        params: ZIdParam,
        body: ZAttributeValueRename,
        response: { 200: ZAdminAttribute, ...errors },
      },
    },
    async (req) => taxonomy.renameValue(req.params.id, req.body.value, req.body.displayLabel, actorOf(req)),
  );
};
