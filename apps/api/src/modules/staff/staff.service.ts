import {
  emailKey,
  isAccountEmailShaped,
  NAME_INVISIBLE_MESSAGE,
  nameHasInvisibleCharacters,
  ROLE_PERMISSIONS,
  STAFF_PASSWORD_MIN,
  type TAdminSession,
  type TCreateStaff,
  type TStaffMember,
  type TStaffRole,
  type TUpdateStaff,
  TWO_FACTOR_REQUIRED,
} from '@storefront/shared';
import type { AccountsConfig } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/dialect/unique-violation.ts';
import type { ClientAddress } from '../../lib/client-address.ts';
import { DbRateLimiter, retryAfterSeconds } from '../../lib/db-rate-limiter.ts';
import { ApiError, conflict, fieldError, notFound, RateLimitedError } from '../../lib/errors.ts';
import { hashPassword, verifyDecoy, verifyPassword } from '../accounts/passwords.ts';
import { newToken, tokenHash } from '../accounts/tokens.ts';
import { type Actor, recordAudit } from './audit.ts';
import * as repo from './staff.repository.ts';
import type { StaffRow } from './staff.repository.ts';
import { newRecoveryCodes, newTotpSecret, normalizeRecoveryCode, otpauthUri, verifyTotp } from './totp.ts';

/** A back-office session ends after 12 hours, or after 2 idle hours (docs/decisions/0031). */
export const STAFF_SESSION_MAX_MS = 12 * 60 * 60_000;
export const STAFF_SESSION_IDLE_MS = 2 * 60 * 60_000;
const TOUCH_EVERY_MS = 60_000;

const iso = (ms = Date.now()) => new Date(ms).toISOString();

export interface SignedInStaff {
  staff: StaffRow;
  sessionId: number;
}

export function toStaffMember(row: StaffRow): TStaffMember {
  return {
    id: row.id,
    email: row.email,
    fullName: row.full_name,
    role: row.role as TStaffRole,
    twoFactor: row.totp_enabled_at != null,
    disabled: row.disabled_at != null,
    invitePending: row.password_hash === '',
    createdAt: row.created_at,
    version: row.version,
  };
}

export function mustEnrolTwoFactor(row: StaffRow): boolean {
  return TWO_FACTOR_REQUIRED.includes(row.role as TStaffRole) && row.totp_enabled_at == null;
}

export function toAdminSession(row: StaffRow): TAdminSession {
  return { staff: toStaffMember(row), permissions: [...ROLE_PERMISSIONS[row.role as TStaffRole]], mustEnrolTwoFactor: mustEnrolTwoFactor(row) };
}

export function checkStaffPassword(password: string): void {
  if ([...password].length < STAFF_PASSWORD_MIN) throw fieldError('password', `Use at least ${STAFF_PASSWORD_MIN} characters for a staff password`);
}

/**
 * Staff accounts (docs/decisions/0031): their own table, sessions and sign-in limits, kept
 * apart from customers; argon2id passwords; TOTP two-factor with one-use recovery codes.
 */
export class StaffService {
  readonly limiter: DbRateLimiter;

  constructor(
    private readonly db: Db,
    private readonly config: { accounts: AccountsConfig; brandName?: string },
  ) {
    this.limiter = new DbRateLimiter(db.kysely);
  }

  private get k() {
    return this.db.kysely;
  }

  /** What an authenticator app shows the account under: the shop's brand name (a site setting). */
  private async issuer(): Promise<string> {
    const row = await this.k.selectFrom('kvps').select('value').where('key', '=', 'brand.name').executeTakeFirst();
    return row?.value.trim() || this.config.brandName || 'Back office';
  }

  // ---------------------------------------------------------------------------
  // Accounts

  async create(input: TCreateStaff, actor: Actor | null): Promise<StaffRow> {
    const email = input.email.normalize('NFKC').trim();
    if (!isAccountEmailShaped(email)) throw fieldError('email', 'Enter a valid email address');
    const fullName = input.fullName.normalize('NFKC').trim();
    if (!fullName) throw fieldError('fullName', 'Enter a name');
    if (nameHasInvisibleCharacters(fullName)) throw fieldError('fullName', NAME_INVISIBLE_MESSAGE);
    checkStaffPassword(input.password);
    const passwordHash = await hashPassword(input.password);
    const now = iso();
    try {
      return await this.k.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('staff')
          .values({
            email,
            email_key: emailKey(email),
            full_name: fullName,
            role: input.role,
            password_hash: passwordHash,
            totp_secret: null,
            totp_enabled_at: null,
            disabled_at: null,
            created_at: now,
            updated_at: now,
            password_changed_at: now,
          })
          .returning(repo.STAFF_COLUMNS)
          .executeTakeFirstOrThrow();
        if (actor) await recordAudit(trx, actor, { action: 'create', entity: 'staff', entityId: row.id, before: null, after: toStaffMember(row) });
        return row;
      });
    } catch (err) {
      if (isUniqueViolation(err))
        throw conflict('duplicate_email', 'A staff member with this email already exists', { email: 'A staff member with this email already exists' });
      throw err;
    }
  }

  list() {
    return repo.listStaff(this.k);
  }

  async update(id: number, input: TUpdateStaff, actor: Actor): Promise<StaffRow> {
    return this.k.transaction().execute(async (trx) => {
      const before = await repo.staffById(trx, id);
      if (!before) throw notFound('The staff member');
      if (before.version !== input.version) throw staleEdit('staff member');
      const role = input.role ?? (before.role as TStaffRole);
      const disabled = input.disabled ?? before.disabled_at != null;
      // The shop always keeps one owner who can sign in.
      if (before.role === 'owner' && before.disabled_at == null && (role !== 'owner' || disabled) && (await repo.activeOwners(trx)) <= 1) {
        throw conflict('last_owner', 'The shop needs at least one active owner');
      }
      const now = iso();
      const after = await trx
        .updateTable('staff')
        .set({
          role,
          disabled_at: disabled ? (before.disabled_at ?? now) : null,
          ...(input.resetTwoFactor ? { totp_secret: null, totp_enabled_at: null } : {}),
          version: before.version + 1,
          updated_at: now,
        })
        .where('id', '=', id)
        .where('version', '=', input.version)
        .returning(repo.STAFF_COLUMNS)
        .executeTakeFirst();
      if (!after) throw staleEdit('staff member');
      if (input.resetTwoFactor) await trx.deleteFrom('staff_recovery_codes').where('staff_id', '=', id).execute();
      // A disabled account, or one whose role changed, signs in again.
      if (disabled || role !== before.role || input.resetTwoFactor) {
        await trx.updateTable('staff_sessions').set({ revoked_at: now }).where('staff_id', '=', id).where('revoked_at', 'is', null).execute();
      }
      await recordAudit(trx, actor, { action: 'update', entity: 'staff', entityId: id, before: toStaffMember(before), after: toStaffMember(after) });
      return after;
    });
  }

  // ---------------------------------------------------------------------------
  // Sign-in and sessions

  async signIn(
    body: { email: string; password: string; code?: string; recoveryCode?: string },
    client: { ip: string; address: ClientAddress; userAgent: string },
  ) {
    const key = emailKey(body.email);
    const staff = key ? await repo.staffByEmailKey(this.k, key) : undefined;
    // The customers' limits (docs/decisions/0009), counted under keys of their own, and
    // before anything is checked: checked first and counted after, guesses sent at once
    // would all pass.
    const accountKey = staff ? `admin-signin:staff:${staff.id}` : `admin-signin:name:${key}`;
    const addressKey = `admin-signin:address:${client.address}`;
    const { limitWindowMs, signInPerAccount, signInPerAddress } = this.config.accounts;
    const [acc, addr] = await Promise.all([this.limiter.hit(accountKey, limitWindowMs), this.limiter.hit(addressKey, limitWindowMs)]);
    // An address over its limit is the guesser's own: refused outright.
    if (addr.hits > signInPerAddress) {
      const wait = retryAfterSeconds(addr.resetAt);
      throw new RateLimitedError(`Too many sign-in attempts. Please try again in ${Math.ceil(wait / 60)} minute(s).`, wait);
    }
    // An invited member who has not chosen a password yet answers as an unknown account does.
    const ok =
      staff && staff.disabled_at == null && staff.password_hash !== ''
        ? await verifyPassword(staff.password_hash, body.password)
        : await verifyDecoy(body.password);
    const hasTwoFactor = Boolean(staff?.totp_enabled_at && staff.totp_secret);

    if (acc.hits > signInPerAccount) {
      // The account is being guessed at, perhaps from many addresses. Refusing it outright
      // would let anyone who knows the email keep its owner out (docs/decisions/0049): it
      // signs in only with the whole proof in one request, the password and a valid second
      // factor. Any other answer is this same 429, whether the password was right or not,
      // and for an unknown email too, so it tells a guesser nothing.
      const proven = staff && ok && hasTwoFactor && (await this.passesSecondFactor(staff, body)) === true;
      if (!proven) {
        const wait = retryAfterSeconds(acc.resetAt);
        throw new RateLimitedError(
          `Too many sign-in attempts for this account. To sign in now, enter your password with the code from your authenticator app (or a recovery code); otherwise try again in ${Math.ceil(wait / 60)} minute(s).`,
          wait,
          { code: 'Enter your password with the code from your authenticator app' },
        );
      }
    } else {
      if (!staff || !ok) throw new ApiError('invalid_credentials', 'The email or password is not right', undefined, 401);
      if (hasTwoFactor) {
        const passed = await this.passesSecondFactor(staff, body);
        if (passed === 'missing') {
          throw new ApiError(
            'two_factor_required',
            'Enter the six-digit code from your authenticator app',
            { code: 'Enter the six-digit code from your authenticator app' },
            401,
          );
        }
        if (!passed) {
          const field = body.code?.trim() ? 'code' : 'recoveryCode';
          const message = field === 'code' ? 'That code is not right. Codes change every 30 seconds.' : 'That recovery code is not right or was used before';
          throw new ApiError('invalid_two_factor_code', message, { [field]: message }, 401);
        }
      }
    }
    await this.limiter.clear(accountKey);
    await this.limiter.undo(addressKey);
    const session = await this.createSession(staff!.id, client);
    return { staff: staff!, ...session };
  }

  /**
   * The second factor a request carries: a code of the authenticator app, or else a
   * recovery code; each accepted once. 'missing' when it carries neither.
   */
  private async passesSecondFactor(staff: StaffRow, given: { code?: string; recoveryCode?: string }): Promise<boolean | 'missing'> {
    const code = given.code?.trim();
    const recovery = given.recoveryCode?.trim();
    if (!code && !recovery) return 'missing';
    return code ? this.useTotp(staff, code) : this.useRecoveryCode(staff.id, recovery ?? '');
  }

  /**
   * Counts a second-factor code tried by a signed-in member (turning two-factor on or off)
   * under the sign-in rules: per account and per address, counted before the code is
   * checked, and taken back when it was right. Answers the keys to take back.
   */
  private async countCodeGuess(staffId: number, address: ClientAddress): Promise<string[]> {
    const { limitWindowMs, signInPerAccount, signInPerAddress } = this.config.accounts;
    const keys = [`admin-2fa:staff:${staffId}`, `admin-2fa:address:${address}`];
    const [acc, addr] = await Promise.all(keys.map((k) => this.limiter.hit(k, limitWindowMs)));
    const over = [acc!.hits > signInPerAccount ? acc!.resetAt : null, addr!.hits > signInPerAddress ? addr!.resetAt : null].filter(
      (d): d is Date => d !== null,
    );
    if (over.length) {
      const wait = retryAfterSeconds(new Date(Math.max(...over.map((d) => d.getTime()))));
      throw new RateLimitedError(`Too many codes tried. Please try again in ${Math.ceil(wait / 60)} minute(s).`, wait);
    }
    return keys;
  }

  /** Accepts a code once: the step it belongs to is stored, and older steps are refused. */
  private async useTotp(staff: StaffRow, code: string): Promise<boolean> {
    const step = verifyTotp(staff.totp_secret ?? '', code, Number(staff.totp_last_step));
    if (step == null) return false;
    // Two sign-ins with one code at once: only the first moves the step.
    const r = await this.k.updateTable('staff').set({ totp_last_step: step }).where('id', '=', staff.id).where('totp_last_step', '<', step).executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  private async useRecoveryCode(staffId: number, code: string): Promise<boolean> {
    const normalized = normalizeRecoveryCode(code);
    if (normalized.length !== 10) return false;
    const r = await this.k
      .updateTable('staff_recovery_codes')
      .set({ used_at: iso() })
      .where('staff_id', '=', staffId)
      .where('code_hash', '=', tokenHash(normalized))
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  async createSession(staffId: number, client: { ip: string; userAgent: string }) {
    const token = newToken();
    const now = Date.now();
    const expiresAt = iso(now + STAFF_SESSION_MAX_MS);
    const row = await this.k
      .insertInto('staff_sessions')
      .values({
        staff_id: staffId,
        token_hash: tokenHash(token),
        created_at: iso(now),
        last_seen_at: iso(now),
        expires_at: expiresAt,
        revoked_at: null,
        user_agent: client.userAgent.slice(0, 300),
        ip: client.ip.slice(0, 64),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { token, sessionId: row.id, expiresAt };
  }

  async resolveToken(token: string): Promise<SignedInStaff | null> {
    const now = Date.now();
    const s = await repo.findLiveSession(this.k, tokenHash(token), iso(now), iso(now - STAFF_SESSION_IDLE_MS));
    if (!s) return null;
    if (now - new Date(s.last_seen_at).getTime() > TOUCH_EVERY_MS) {
      await this.k
        .updateTable('staff_sessions')
        .set({ last_seen_at: iso(now) })
        .where('id', '=', s.id)
        .execute();
    }
    const staff = await repo.staffById(this.k, s.staff_id);
    return staff ? { staff, sessionId: s.id } : null;
  }

  async signOut(sessionId: number): Promise<void> {
    await this.k.updateTable('staff_sessions').set({ revoked_at: iso() }).where('id', '=', sessionId).execute();
  }

  // ---------------------------------------------------------------------------
  // Two-factor

  /** Starts enrolment: a new secret, not yet in force until a code from it is confirmed. */
  async beginTwoFactor(staff: StaffRow): Promise<{ secret: string; otpauthUri: string }> {
    if (staff.totp_enabled_at) throw conflict('two_factor_on', 'Two-factor sign-in is already on for this account');
    const secret = newTotpSecret();
    // The last step used belongs to the old secret: a code of the new one may fall in it.
    await this.k.updateTable('staff').set({ totp_secret: secret, totp_last_step: 0, updated_at: iso() }).where('id', '=', staff.id).execute();
    return { secret, otpauthUri: otpauthUri(secret, staff.email, await this.issuer()) };
  }

  /** Confirms enrolment with a code from the app; answers the recovery codes, shown once. */
  async enableTwoFactor(staff: StaffRow, code: string, actor: Actor, address: ClientAddress): Promise<string[]> {
    const fresh = await repo.staffById(this.k, staff.id);
    if (!fresh?.totp_secret) throw conflict('two_factor_not_started', 'Start setting up two-factor sign-in first');
    if (fresh.totp_enabled_at) throw conflict('two_factor_on', 'Two-factor sign-in is already on for this account');
    // The sign-in rules (docs/decisions/0049): guesses counted per account and address.
    const guess = await this.countCodeGuess(staff.id, address);
    const step = verifyTotp(fresh.totp_secret, code, Number(fresh.totp_last_step));
    if (step == null) throw fieldError('code', 'That code is not right. Codes change every 30 seconds.');
    const codes = newRecoveryCodes();
    await this.k.transaction().execute(async (trx) => {
      const now = iso();
      // The code is taken once, as at sign-in: two confirmations with it at once switch it on once.
      const r = await trx
        .updateTable('staff')
        .set({ totp_enabled_at: now, totp_last_step: step, updated_at: now })
        .where('id', '=', staff.id)
        .where('totp_enabled_at', 'is', null)
        .where('totp_last_step', '<', step)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) !== 1) throw conflict('two_factor_on', 'Two-factor sign-in is already on for this account');
      await trx.deleteFrom('staff_recovery_codes').where('staff_id', '=', staff.id).execute();
      await trx
        .insertInto('staff_recovery_codes')
        .values(codes.map((c) => ({ staff_id: staff.id, code_hash: tokenHash(normalizeRecoveryCode(c)), used_at: null })))
        .execute();
      await recordAudit(trx, actor, {
        action: 'enable_two_factor',
        entity: 'staff',
        entityId: staff.id,
        before: { twoFactor: false },
        after: { twoFactor: true },
      });
    });
    await Promise.all(guess.map((k) => this.limiter.undo(k)));
    return codes;
  }

  async disableTwoFactor(staff: StaffRow, code: string, actor: Actor, address: ClientAddress): Promise<void> {
    if (TWO_FACTOR_REQUIRED.includes(staff.role as TStaffRole)) throw conflict('two_factor_required', 'Owners must keep two-factor sign-in on');
    if (!staff.totp_enabled_at || !staff.totp_secret) return;
    // The sign-in rules (docs/decisions/0049): guesses counted per account and address, and
    // a code taken once, so a stolen session cannot guess or replay its way to turning it off.
    const guess = await this.countCodeGuess(staff.id, address);
    if (!(await this.useTotp(staff, code.trim()))) throw fieldError('code', 'That code is not right. Codes change every 30 seconds.');
    await Promise.all(guess.map((k) => this.limiter.undo(k)));
    await this.k.transaction().execute(async (trx) => {
      await trx.updateTable('staff').set({ totp_secret: null, totp_enabled_at: null, updated_at: iso() }).where('id', '=', staff.id).execute();
      await trx.deleteFrom('staff_recovery_codes').where('staff_id', '=', staff.id).execute();
      await recordAudit(trx, actor, {
        action: 'disable_two_factor',
        entity: 'staff',
        entityId: staff.id,
        before: { twoFactor: true },
        after: { twoFactor: false },
      });
    });
  }

  /** The command line's first owner: two-factor on from the start, so no owner ever signs in without it. */
  async createOwner(email: string, fullName: string, password: string) {
    const row = await this.create({ email, fullName, role: 'owner', password }, null);
    const secret = newTotpSecret();
    const codes = newRecoveryCodes();
    const now = iso();
    await this.k.transaction().execute(async (trx) => {
      await trx.updateTable('staff').set({ totp_secret: secret, totp_enabled_at: now }).where('id', '=', row.id).execute();
      await trx
        .insertInto('staff_recovery_codes')
        .values(codes.map((c) => ({ staff_id: row.id, code_hash: tokenHash(normalizeRecoveryCode(c)), used_at: null })))
        .execute();
      await recordAudit(
        trx,
        { staffId: null, email: 'command line', ip: 'local' },
        { action: 'create', entity: 'staff', entityId: row.id, before: null, after: toStaffMember(row) },
      );
    });
    return { staff: row, secret, otpauthUri: otpauthUri(secret, row.email, await this.issuer()), recoveryCodes: codes };
  }
}

export function staleEdit(what: string): ApiError {
  return conflict('stale_version', `This ${what} was changed by someone else since you opened it. Reload to see their changes, then make yours again.`);
}
