import { ZApiError, ZPage, ZSearchRequest, ZWishlistItem, ZWishlistItemRequest, ZWishlistToggleResult } from '@storefront/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { removeWishlistEntry, searchWishlist, setWishlistItem } from '../../../modules/wishlists/wishlists.service.ts';
import { requireCustomer } from '../../../plugins/auth.ts';

export const wishlistItemRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onSend', async (_req, reply) => {
    reply.header('cache-control', 'no-store');
  });
  const db = app.db.kysely;

  app.post(
    '/api/wishlists/items',
    {
      schema: {
        tags: ['customer'],
        summary: 'Add or remove a wishlist item (spec §7)',
        description:
          'action `add` or `remove` does that whatever the state (repeating it changes nothing); without an action ' +
          'the item is toggled, as the earlier client expected. The sku must belong to the item (404 otherwise). ' +
          'Answers whether the item is now in the wishlist and the new count.',
        body: ZWishlistItemRequest,
        response: { 200: ZWishlistToggleResult, 400: ZApiError, 401: ZApiError, 404: ZApiError, 409: ZApiError },
      },
    },
    async (req) => setWishlistItem(db, requireCustomer(req), req.body),
  );

  app.post(
    '/api/wishlists/items/search',
    {
      schema: {
        tags: ['customer'],
        summary: 'The wishlist, newest first (spec §7: size 10, page 1, dateCreated descending)',
        description: 'Filter fields: itemId, skuCode. Sort fields: dateCreated, title.',
        body: ZSearchRequest,
        response: { 200: ZPage(ZWishlistItem), 400: ZApiError, 401: ZApiError },
      },
    },
    async (req) => searchWishlist(db, requireCustomer(req), req.body),
  );

  app.delete(
    '/api/wishlists/items/:id',
    {
      schema: {
        tags: ['customer'],
        summary: 'Remove one wishlist item by its id (another customer’s answers 404)',
        params: z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) }),
        response: { 200: z.object({ count: z.number().int() }), 401: ZApiError, 404: ZApiError },
      },
    },
    async (req) => removeWishlistEntry(db, requireCustomer(req), req.params.id),
  );
};
