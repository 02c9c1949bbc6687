import {
  emailKey,
  isAccountEmailShaped,
  NAME_INVISIBLE_MESSAGE,
  nameHasInvisibleCharacters,
  ROLE_LABELS,
  type TAcceptInvite,
  type TInviteStaff,
  type TStaffRole,
} from '@storefront/shared';
import type { Kysely } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { isUniqueViolation } from '../../db/dialect/unique-violation.ts';
import { ApiError, conflict, fieldError, notFound } from '../../lib/errors.ts';
import { hashPassword } from '../accounts/passwords.ts';
import { looksLikeToken, newToken, tokenHash } from '../accounts/tokens.ts';
import type { Mailer } from '../mail/mailer.ts';
import { shopBrand } from '../orders/notify.ts';
import { brandedMail } from '../orders/mail.ts';
import { type Actor, recordAudit } from './audit.ts';
import * as repo from './staff.repository.ts';
import type { StaffRow } from './staff.repository.ts';
import { checkStaffPassword, toStaffMember } from './staff.service.ts';

// Staff invitations (docs/decisions/0031): the owner names the member and their role; the
// member gets a one-use link, valid for INVITE_DAYS, and chooses their own password, so no
// password ever travels by mail or by word of mouth. Sending again makes the older links
// useless.

export const INVITE_DAYS = 7;
const INVALID = 'This invitation has expired or was used. Ask an owner of the shop to send a new one.';

interface InviteDeps {
  db: Kysely<Database>;
  dialect: Dialect;
  mailer: Mailer;
  publicUrl: string;
}

const iso = (ms = Date.now()) => new Date(ms).toISOString();

export async function inviteStaff(deps: InviteDeps, input: TInviteStaff, actor: Actor): Promise<StaffRow> {
  const email = input.email.normalize('NFKC').trim();
  if (!isAccountEmailShaped(email)) throw fieldError('email', 'Enter a valid email address');
  const fullName = input.fullName.normalize('NFKC').trim();
  if (!fullName) throw fieldError('fullName', 'Enter a name');
  if (nameHasInvisibleCharacters(fullName)) throw fieldError('fullName', NAME_INVISIBLE_MESSAGE);
  const now = iso();
  const token = newToken();
  let row: StaffRow;
  let mailId: number;
  try {
    row = await deps.db.transaction().execute(async (trx) => {
      const created = await trx
        .insertInto('staff')
        .values({
          email,
          email_key: emailKey(email),
          full_name: fullName,
          role: input.role,
          // No password matches an empty hash: the account opens when the member chooses one.
          password_hash: '',
          totp_secret: null,
          totp_enabled_at: null,
          disabled_at: null,
          created_at: now,
          updated_at: now,
          password_changed_at: now,
        })
        .returning(repo.STAFF_COLUMNS)
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('staff_invites')
        .values({ staff_id: created.id, token_hash: tokenHash(token), created_at: now, expires_at: expiry(), used_at: null })
        .execute();
      mailId = await queueInviteMail(deps, trx, created, token);
      await recordAudit(trx, actor, { action: 'invite', entity: 'staff', entityId: created.id, before: null, after: toStaffMember(created) });
      return created;
    });
  } catch (err) {
    if (isUniqueViolation(err))
      throw conflict('duplicate_email', 'A staff member with this email already exists', { email: 'A staff member with this email already exists' });
    throw err;
  }
  await deps.mailer.deliverNow(mailId!);
  return row;
}

/**
 * A new link for a member who has not chosen a password yet; older links stop working. One
 * live link per member is a unique index (docs/decisions/0052): two sends at once take the
 * member's row in turn, and the second retires the first one's link.
 */
export async function resendInvite(deps: InviteDeps, staffId: number, actor: Actor): Promise<StaffRow> {
  const token = newToken();
  let mailId = 0;
  const staff = await deps.db.transaction().execute(async (trx) => {
    const staff = await repo.lockStaffById(trx, deps.dialect, staffId);
    if (!staff) throw notFound('The staff member');
    if (staff.password_hash !== '') throw conflict('invite_not_pending', `${staff.full_name} has chosen a password already`);
    const now = iso();
    await trx.updateTable('staff_invites').set({ used_at: now }).where('staff_id', '=', staffId).where('used_at', 'is', null).execute();
    await trx
      .insertInto('staff_invites')
      .values({ staff_id: staffId, token_hash: tokenHash(token), created_at: now, expires_at: expiry(), used_at: null })
      .execute();
    mailId = await queueInviteMail(deps, trx, staff, token);
    await recordAudit(trx, actor, { action: 'invite_resent', entity: 'staff', entityId: staffId, before: null, after: null });
    return staff;
  });
  await deps.mailer.deliverNow(mailId);
  return staff;
}

/** The member chooses a password with the link's token: once, before it expires, on an enabled account. */
export async function acceptInvite(db: Kysely<Database>, input: TAcceptInvite): Promise<StaffRow> {
  const invalid = () => new ApiError('invalid_token', INVALID, { token: INVALID }, 400);
  if (!looksLikeToken(input.token)) throw invalid();
  checkStaffPassword(input.password);
  const live = (q: Kysely<Database>) =>
    q
      .selectFrom('staff_invites')
      .select(['id', 'staff_id'])
      .where('token_hash', '=', tokenHash(input.token))
      .where('used_at', 'is', null)
      .where('expires_at', '>', iso())
      .executeTakeFirst();
  // The password is hashed only for a link that works: a made-up token costs one lookup.
  if (!(await live(db))) throw invalid();
  const passwordHash = await hashPassword(input.password);
  return db.transaction().execute(async (trx) => {
    const now = iso();
    const invite = await live(trx);
    if (!invite) throw invalid();
    // Two tabs submitting one link: only the first takes it.
    const taken = await trx.updateTable('staff_invites').set({ used_at: now }).where('id', '=', invite.id).where('used_at', 'is', null).executeTakeFirst();
    if (Number(taken.numUpdatedRows) !== 1) throw invalid();
    const staff = await trx
      .updateTable('staff')
      .set((eb) => ({ password_hash: passwordHash, password_changed_at: now, updated_at: now, version: eb('version', '+', 1) }))
      .where('id', '=', invite.staff_id)
      .where('password_hash', '=', '')
      .where('disabled_at', 'is', null)
      .returning(repo.STAFF_COLUMNS)
      .executeTakeFirst();
    if (!staff) throw invalid();
    await recordAudit(
      trx,
      { staffId: staff.id, email: staff.email, ip: '' },
      { action: 'invite_accepted', entity: 'staff', entityId: staff.id, before: null, after: null },
    );
    return staff;
  });
}

function expiry(): string {
  return iso(Date.now() + INVITE_DAYS * 24 * 60 * 60_000);
}

async function queueInviteMail(deps: InviteDeps, trx: Kysely<Database>, staff: StaffRow, token: string): Promise<number> {
  const brand = await shopBrand(trx, deps.publicUrl);
  const link = `${deps.publicUrl}/admin/invite?token=${encodeURIComponent(token)}`;
  const role = ROLE_LABELS[staff.role as TStaffRole];
  const { text, html } = brandedMail(brand, `You are invited to ${brand.name}’s back office`, [
    { p: `Hello ${staff.full_name}, you have been added to the back office of ${brand.name} as ${role}.` },
    { p: `Choose your password within ${INVITE_DAYS} days with the button below. The link works once.` },
    { button: { label: 'Choose your password', url: link } },
    { p: 'If you did not expect this, ignore this mail: nothing happens until the link is used.' },
  ]);
  return deps.mailer.queue({ to: staff.email, subject: `Your invitation to ${brand.name}’s back office`, text, html }, trx);
}
