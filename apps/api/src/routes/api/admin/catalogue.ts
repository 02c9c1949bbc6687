import {
  ZAdminPage,
  ZAdminProduct,
  ZAdminProductInput,
  ZAdminProductQuery,
  ZAdminProductRow,
  ZAdminProductUpdate,
  ZAdminReference,
  ZApiError,
  ZStockAdjustment,
  ZStockMovement,
  ZVersionBody,
} from '@storefront/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../../plugins/admin-auth.ts';
import { AdminCatalogueService } from '../../../modules/admin-catalogue/products.service.ts';
import { ADMIN, ZIdParam } from './tags.ts';

const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError, 409: ZApiError };

/** Products, skus, images and stock in the back office (docs/decisions/0031). */
export const adminCatalogueRoutes: FastifyPluginAsyncZod = async (app) => {
  const catalogue = new AdminCatalogueService(app.db, () => app.catalogueChanged());

  app.get(
    '/api/admin/reference',
    {
      config: { permission: 'catalogue.read' },
      schema: {
        ...ADMIN,
        summary: 'The category tree, attributes with the values in use, and the branches: what the product editor offers',
        response: { 200: ZAdminReference, ...errors },
      },
    },
    async () => catalogue.reference(),
  );

  app.get(
    '/api/admin/products',
    {
      config: { permission: 'catalogue.read' },
      schema: {
        ...ADMIN,
        summary: 'Products, a page at a time',
        description:
          'Search by title, model code or sku code; filter by category, status and stock (in, out, low); sort by last change, title, price, stock or id.',
        querystring: ZAdminProductQuery,
        response: { 200: ZAdminPage(ZAdminProductRow), ...errors },
      },
    },
    async (req) => catalogue.list(req.query),
  );

  app.get(
    '/api/admin/products/:id',
    {
      config: { permission: 'catalogue.read' },
      schema: { ...ADMIN, summary: 'One product with its skus and stock', params: ZIdParam, response: { 200: ZAdminProduct, ...errors } },
    },
    async (req) => catalogue.get(req.params.id),
  );

  app.post(
    '/api/admin/products',
    {
      config: { permission: 'catalogue.write' },
      schema: {
        ...ADMIN,
        summary: 'Create a product with its skus',
        description:
          'A slug (or an old address still leading to another product), model code or sku code another product has answers 409 `duplicate_slug`, `duplicate_model_code` or `duplicate_sku_code`.',
        body: ZAdminProductInput,
        response: { 201: ZAdminProduct, ...errors },
      },
    },
    async (req, reply) => reply.status(201).send(await catalogue.create(req.body, actorOf(req))),
  );

  app.put(
    '/api/admin/products/:id',
    {
      config: { permission: 'catalogue.write' },
      schema: {
        ...ADMIN,
        summary: 'Save a product',
        description:
          'The whole product as the editor holds it, with the `version` it was read at: if someone saved it since, the answer is 409 `stale_version` and nothing is written. ' +
          'Skus with an id are updated, skus without one added, skus left out removed (refused for a sku with orders). A changed slug keeps the old address as a redirect. ' +
          'A slug, model code or sku code another product has answers 409, as when creating.',
        params: ZIdParam,
        body: ZAdminProductUpdate,
        response: { 200: ZAdminProduct, ...errors },
      },
    },
    async (req) => catalogue.update(req.params.id, req.body, actorOf(req)),
  );

  app.post(
    '/api/admin/products/:id/archive',
    {
      config: { permission: 'catalogue.write' },
      schema: {
        ...ADMIN,
        summary: 'Archive a product: it leaves the storefront; products are never deleted',
        params: ZIdParam,
        body: ZVersionBody,
        response: { 200: ZAdminProduct, ...errors },
      },
    },
    async (req) => catalogue.setArchived(req.params.id, true, req.body.version, actorOf(req)),
  );

  app.post(
    '/api/admin/products/:id/restore',
    {
      config: { permission: 'catalogue.write' },
      schema: {
        ...ADMIN,
        summary: 'Bring an archived product back as a draft',
        params: ZIdParam,
        body: ZVersionBody,
        response: { 200: ZAdminProduct, ...errors },
      },
    },
    async (req) => catalogue.setArchived(req.params.id, false, req.body.version, actorOf(req)),
  );

  app.post(
    '/api/admin/products/:id/duplicate',
    {
      config: { permission: 'catalogue.write' },
      schema: {
        ...ADMIN,
        summary: 'Copy a product as a draft (new slug and sku codes, no stock)',
        params: ZIdParam,
        response: { 201: ZAdminProduct, ...errors },
      },
    },
    async (req, reply) => reply.status(201).send(await catalogue.duplicate(req.params.id, actorOf(req))),
  );

  app.post(
    '/api/admin/stock/adjustments',
    {
      config: { permission: 'stock.write' },
      schema: {
        ...ADMIN,
        summary: 'Change one sku’s stock in one branch, kept as a movement',
        description:
          'received and returned add units, sold removes them (delta); correction sets the quantity counted (countedQuantity). Stock never goes below zero.',
        body: ZStockAdjustment,
        response: { 201: ZStockMovement, ...errors },
      },
    },
    async (req, reply) => reply.status(201).send(await catalogue.adjustStock(req.body, actorOf(req))),
  );

  app.get(
    '/api/admin/skus/:id/movements',
    {
      config: { permission: 'catalogue.read' },
      schema: {
        ...ADMIN,
        summary: 'A sku’s last 50 stock movements',
        params: ZIdParam,
        response: { 200: z.object({ items: z.array(ZStockMovement) }), ...errors },
      },
    },
    async (req) => ({ items: await catalogue.movements(req.params.id) }),
  );
};
