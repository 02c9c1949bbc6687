import { z } from 'zod';

/** Every /api/admin route: its own tag and security scheme in the OpenAPI document. */
export const ADMIN = { tags: ['admin'], security: [{ apiKey: [], adminSession: [] }] };

export const ZIdParam = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
