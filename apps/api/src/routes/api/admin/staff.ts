import { ZAcceptInvite, ZAdminPage, ZApiError, ZAuditEntry, ZAuditQuery, ZCreateStaff, ZInviteStaff, ZStaffMember, ZUpdateStaff } from '@storefront/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { retryAfterSeconds } from '../../../lib/db-rate-limiter.ts';
import { RateLimitedError } from '../../../lib/errors.ts';
import { actorOf } from '../../../plugins/admin-auth.ts';
import { acceptInvite, INVITE_DAYS, inviteStaff, resendInvite } from '../../../modules/staff/invites.ts';
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

  const inviteDeps = () => ({ db: app.db.kysely, dialect: app.db.dialect, mailer: app.mailer, publicUrl: app.config.publicUrl });

  app.post(
    '/api/admin/staff/invites',
    {
      config: { permission: 'staff.manage' },
      schema: {
        ...ADMIN,
        summary: 'Invite a staff member by mail',
        description: `The member gets a link, valid ${INVITE_DAYS} days and once, to choose their own password. Until then they cannot sign in.`,
        body: ZInviteStaff,
        response: { 201: ZStaffMember, 400: ZApiError, 401: ZApiError, 403: ZApiError, 409: ZApiError },
      },
    },
    async (req, reply) => reply.status(201).send(toStaffMember(await inviteStaff(inviteDeps(), req.body, actorOf(req)))),
  );

  app.post(
    '/api/admin/staff/:id/invite',
    {
      config: { permission: 'staff.manage' },
      schema: {
        ...ADMIN,
        summary: 'Send a staff member’s invitation again',
        description: 'Only while they have not chosen a password (409 `invite_not_pending` after). Earlier links stop working.',
        params: ZIdParam,
        response: { 200: ZStaffMember, 401: ZApiError, 403: ZApiError, 404: ZApiError, 409: ZApiError },
      },
    },
    async (req) => toStaffMember(await resendInvite(inviteDeps(), req.params.id, actorOf(req))),
  );

  app.post(
    '/api/admin/invite',
    {
      config: { permission: 'public' },
      schema: {
        ...ADMIN,
        security: [{ apiKey: [] }],
        summary: 'Choose a password with an invitation’s link',
        description: 'The token of the mailed link, once and before it expires; then the member signs in (owners set up two-factor sign-in first).',
        body: ZAcceptInvite,
        response: { 204: z.null(), 400: ZApiError, 429: ZApiError },
      },
    },
    async (req, reply) => {
      // Counted as sign-in attempts from the address are (docs/decisions/0009): each try hashes a password.
      const { limitWindowMs, signInPerAddress } = app.config.accounts;
      const hit = await app.staff.limiter.hit(`admin-invite:address:${req.clientAddress}`, limitWindowMs);
      if (hit.hits > signInPerAddress) {
        const wait = retryAfterSeconds(hit.resetAt);
        throw new RateLimitedError(`Too many attempts. Please try again in ${Math.ceil(wait / 60)} minute(s).`, wait);
      }
      await acceptInvite(app.db.kysely, req.body);
      return reply.status(204).send(null);
    },
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
