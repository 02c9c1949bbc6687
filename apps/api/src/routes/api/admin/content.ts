import { ADMIN_CONTENT_TYPES, ZAdminBranch, ZAdminContentItem, ZApiError, ZBranchInput, ZContentInput, ZContentOrder } from '@storefront/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { adminBranches, createBranch, deleteBranch, updateBranch } from '../../../modules/admin-content/branches.service.ts';
import { createContent, deleteContent, getContent, listContent, reorderContent, updateContent } from '../../../modules/admin-content/content.service.ts';
import { watchContentSchedules } from '../../../modules/admin-content/schedule-watch.ts';
import { actorOf } from '../../../plugins/admin-auth.ts';
import { ADMIN, ZIdParam } from './tags.ts';

/**
 * Site content, pages and showrooms (docs/decisions/0035): anyone who reads the catalogue
 * in the back office sees them; managers and owners (`content.write`) change them. Every
 * change is on the storefront's next request.
 */
export const adminContentRoutes: FastifyPluginAsyncZod = async (app) => {
  const errors = { 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError, 409: ZApiError };
  const changed = () => app.catalogueChanged();
  watchContentSchedules(app);

  app.get(
    '/api/admin/content',
    {
      config: { permission: 'catalogue.read' },
      schema: {
        ...ADMIN,
        summary: 'The content items of one kind, in their order',
        description: '`live` says whether the storefront serves the item now (switched on and inside its schedule).',
        querystring: z.object({ type: z.enum(ADMIN_CONTENT_TYPES) }),
        response: { 200: z.object({ items: z.array(ZAdminContentItem) }), 400: ZApiError, 401: ZApiError, 403: ZApiError },
      },
    },
    async (req) => ({ items: await listContent(app.db.kysely, req.query.type) }),
  );
  app.get(
    '/api/admin/content/:id',
    {
      config: { permission: 'catalogue.read' },
      schema: {
        ...ADMIN,
        summary: 'One content item',
        params: ZIdParam,
        response: { 200: ZAdminContentItem, 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError },
      },
    },
    async (req) => getContent(app.db.kysely, req.params.id),
  );
  app.post(
    '/api/admin/content',
    {
      config: { permission: 'content.write' },
      schema: {
        ...ADMIN,
        summary: 'Add a slide, article, bullet, page or pop-up',
        description:
          'The fields of each kind are checked: pictures from the shop’s uploads or media, links to this shop or https, a schedule that ends after it starts; a page’s text is the shop’s plain rich text (no HTML, no script links). ' +
          'A slug another item of the kind has (a page that exists) answers 409 `duplicate_slug`.',
        body: ZContentInput,
        response: { 201: ZAdminContentItem, ...errors },
      },
    },
    async (req, reply) => {
      const item = await createContent(app.db.kysely, req.body, actorOf(req));
      await changed();
      return reply.status(201).send(item);
    },
  );
  app.put(
    '/api/admin/content/:id',
    {
      config: { permission: 'content.write' },
      schema: {
        ...ADMIN,
        summary: 'Change a content item',
        description: '`version` is the one read: an item changed since answers 409 `stale_version`; a slug another item of the kind has, 409 `duplicate_slug`.',
        params: ZIdParam,
        body: ZContentInput,
        response: { 200: ZAdminContentItem, ...errors },
      },
    },
    async (req) => {
      const item = await updateContent(app.db.kysely, req.params.id, req.body, actorOf(req));
      await changed();
      return item;
    },
  );
  app.delete(
    '/api/admin/content/:id',
    {
      config: { permission: 'content.write' },
      schema: { ...ADMIN, summary: 'Remove a content item (not a site page)', params: ZIdParam, response: { 204: z.null(), ...errors } },
    },
    async (req, reply) => {
      await deleteContent(app.db.kysely, req.params.id, actorOf(req));
      await changed();
      return reply.status(204).send(null);
    },
  );
  app.post(
    '/api/admin/content/order',
    {
      config: { permission: 'content.write' },
      schema: {
        ...ADMIN,
        summary: 'Put the items of one kind in a new order',
        description: '`ids` names every item of the kind once, first shown first.',
        body: ZContentOrder,
        response: { 200: z.object({ items: z.array(ZAdminContentItem) }), ...errors },
      },
    },
    async (req) => {
      const items = await reorderContent(app.db.kysely, req.body, actorOf(req));
      await changed();
      return { items };
    },
  );

  app.get(
    '/api/admin/branches',
    {
      config: { permission: 'catalogue.read' },
      schema: {
        ...ADMIN,
        summary: 'Showrooms, outlets and warehouses, hidden ones included',
        description: '`inUse`: stock or orders refer to the branch, so it can be hidden but not removed.',
        response: { 200: z.object({ items: z.array(ZAdminBranch) }), 401: ZApiError, 403: ZApiError },
      },
    },
    async () => ({ items: await adminBranches(app.db.kysely) }),
  );
  app.post(
    '/api/admin/branches',
    {
      config: { permission: 'content.write' },
      schema: { ...ADMIN, summary: 'Add a showroom, outlet or warehouse', body: ZBranchInput, response: { 201: ZAdminBranch, ...errors } },
    },
    async (req, reply) => {
      const branch = await createBranch(app.db.kysely, req.body, actorOf(req));
      await changed();
      return reply.status(201).send(branch);
    },
  );
  app.put(
    '/api/admin/branches/:id',
    {
      config: { permission: 'content.write' },
      schema: {
        ...ADMIN,
        summary: 'Change a branch, or hide it from the shop',
        description: '`version` is the one read: a branch changed since answers 409 `stale_version`.',
        params: ZIdParam,
        body: ZBranchInput,
        response: { 200: ZAdminBranch, ...errors },
      },
    },
    async (req) => {
      const branch = await updateBranch(app.db.kysely, req.params.id, req.body, actorOf(req));
      await changed();
      return branch;
    },
  );
  app.delete(
    '/api/admin/branches/:id',
    {
      config: { permission: 'content.write' },
      schema: {
        ...ADMIN,
        summary: 'Remove a branch nothing refers to',
        description: 'A branch with stock, stock movements, reservations or orders answers 409 `branch_in_use`: hide it instead.',
        params: ZIdParam,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      await deleteBranch(app.db.kysely, req.params.id, actorOf(req));
      await changed();
      return reply.status(204).send(null);
    },
  );
};
