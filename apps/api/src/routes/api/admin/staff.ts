import { ZAdminPage, ZApiError, ZAuditEntry, ZAuditQuery, ZCreateStaff, ZStaffMember, ZUpdateStaff } from '@storefront/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../../plugins/admin-auth.ts';
import { toStaffMember } from '../../../modules/staff/staff.service.ts';
import { ADMIN, ZIdParam } from './tags.ts';

/** Owners manage staff accounts and read the audit log (docs/decisions/0031). */
export const adminStaffRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/admin/staff',
    {
      config: { permission: 'staff.manage' },
      schema: { ...ADMIN, summary: 'Every staff account', response: { 200: z.object({ items: z.array(ZStaffMember) }), 401: ZApiError, 403: ZApiError } },
    },
    async () => ({ items: (await app.staff.list()).map(toStaffMember) }),
  );

  app.post(
    '/api/admin/staff',
    {
      config: { permission: 'staff.manage' },
      schema: {
        ...ADMIN,
        summary: 'Add a staff member',
        description: 'With a first password the owner hands over (at least 12 characters). Owners must set up two-factor sign-in before anything else.',
        body: ZCreateStaff,
        response: { 201: ZStaffMember, 400: ZApiError, 401: ZApiError, 403: ZApiError, 409: ZApiError },
      },
    },
    async (req, reply) => reply.status(201).send(toStaffMember(await app.staff.create(req.body, actorOf(req)))),
  );

  app.patch(
    '/api/admin/staff/:id',
    {
      config: { permission: 'staff.manage' },
      schema: {
        ...ADMIN,
        summary: 'Change a staff member’s role, disable or enable them, or reset their two-factor sign-in',
        description: '`version` is the one read: an account changed since answers 409 `stale_version`. The last active owner cannot be demoted or disabled.',
        params: ZIdParam,
        body: ZUpdateStaff,
        response: { 200: ZStaffMember, 400: ZApiError, 401: ZApiError, 403: ZApiError, 404: ZApiError, 409: ZApiError },
      },
    },
    async (req) => toStaffMember(await app.staff.update(req.params.id, req.body, actorOf(req))),
  );

  app.get(
    '/api/admin/audit',
    {
      config: { permission: 'audit.read' },
      schema: {
        ...ADMIN,
        summary: 'The audit log, newest first',
        querystring: ZAuditQuery,
        response: { 200: ZAdminPage(ZAuditEntry), 400: ZApiError, 401: ZApiError, 403: ZApiError },
      },
    },
    async (req) => {
      const { page, size, entity, entityId, staffId } = req.query;
      let q = app.db.kysely.selectFrom('audit_log');
      if (entity) q = q.where('entity', '=', entity);
      if (entityId) q = q.where('entity_id', '=', entityId);
      if (staffId) q = q.where('staff_id', '=', staffId);
      const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
      const rows = await q
        .select(['id', 'staff_email', 'action', 'entity', 'entity_id', 'diff', 'ip', 'created_at'])
        .orderBy('id', 'desc')
        .offset((page - 1) * size)
        .limit(size)
        .execute();
      return {
        items: rows.map((r) => ({
          id: r.id,
          staffEmail: r.staff_email,
          action: r.action,
          entity: r.entity,
          entityId: r.entity_id,
          diff: JSON.parse(r.diff) as Record<string, [unknown, unknown]>,
          ip: r.ip,
          createdAt: r.created_at,
        })),
        total: Number(total?.n ?? 0),
        page,
        size,
      };
    },
  );
};
