import { randomUUID } from 'node:crypto';
import {
  ACCOUNT_BLOCKED_MESSAGE,
  ACCOUNT_MESSAGES,
  type Locale,
  MESSAGES,
  type TCustomer,
  type TProfile,
  classifyUserName,
  emailKey,
  firstError,
  type FieldErrors,
  normalizeMobile,
  validateForgot,
  validatePasswordChange,
  validatePasswordReset,
  validateProfile,
  validateSignIn,
  validateSignUp,
} from '@storefront/shared';
import type { AccountsConfig } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { isUniqueViolation, violatedConstraint } from '../../db/dialect/unique-violation.ts';
import { DbRateLimiter, retryAfterSeconds } from '../../lib/db-rate-limiter.ts';
import type { ClientAddress } from '../../lib/client-address.ts';
import { ApiError, RateLimitedError, conflict, notFound } from '../../lib/errors.ts';
import { mailLocale } from '../mail/locale.ts';
import type { Mailer } from '../mail/mailer.ts';
import * as repo from './accounts.repository.ts';
import type { CustomerRow } from './accounts.repository.ts';
import { hashPassword, needsRehash, verifyDecoy, verifyPassword } from './passwords.ts';
import { passwordResetMail } from './reset-mail.ts';
import { newToken, tokenHash } from './tokens.ts';

/** Who is asking: kept with a session, and the address that rate limits count. */
export interface ClientInfo {
  /** The full address, kept with a session for the customer's list of devices. */
  ip: string;
  /** What per-address limits count (docs/decisions/0049). */
  address: ClientAddress;
  userAgent: string;
  /** The language the shop is used in (the `lang` cookie), when the request says (docs/decisions/0038). */
  locale?: Locale | null;
}

export interface NewSession {
  token: string;
  sessionId: number;
  expiresAt: string;
}

/** A reset link works this long (and once). */
export const RESET_LIFETIME_MS = 60 * 60_000;
/** Reset mails per account and per client address per hour: enough for a typo, too few to flood a mailbox. */
const FORGOT_PER_ACCOUNT = 3;
const FORGOT_PER_ADDRESS = 20;
const FORGOT_WINDOW_MS = 60 * 60_000;
/** last_seen_at is written at most this often, not on every request. */
const TOUCH_EVERY_MS = 5 * 60_000;

const iso = (ms = Date.now()) => new Date(ms).toISOString();

/** A 400 in the one error shape carrying the shared rules' messages by field. */
export function validationFailed(errors: FieldErrors): ApiError | null {
  const first = firstError(errors);
  if (!first) return null;
  return new ApiError('validation_error', first.message, errors as Record<string, string>);
}

function check(errors: FieldErrors): void {
  const err = validationFailed(errors);
  if (err) throw err;
}

export function toProfile(row: CustomerRow, subscribed: boolean): TProfile {
  return { name: row.full_name, userId: row.user_id, imageUrl: row.image_url, subscriptionStatus: subscribed ? 'SUBSCRIBED' : 'NOT_SUBSCRIBED' };
}

export function toCustomer(row: CustomerRow, subscribed: boolean): TCustomer {
  return {
    userId: row.user_id,
    fullName: row.full_name,
    email: row.email,
    mobile: row.mobile,
    imageUrl: row.image_url,
    subscriptionStatus: subscribed ? 'SUBSCRIBED' : 'NOT_SUBSCRIBED',
    dateCreated: row.created_at,
  };
}

/**
 * Customer accounts: sign-up, sign-in with limits, sessions, profile, password change and
 * reset. Routes stay thin and call one method each; every rule is here or in
 * packages/shared (account-validation.ts).
 */
export class AccountsService {
  readonly limiter: DbRateLimiter;

  constructor(
    private readonly db: Db,
    private readonly config: { accounts: AccountsConfig; publicUrl: string },
    private readonly mailer: Mailer,
    private readonly log: { warn(obj: unknown, msg: string): void },
  ) {
    this.limiter = new DbRateLimiter(db.kysely);
  }

  private get k() {
    return this.db.kysely;
  }

  // -------------------------------------------------------------------------
  // Sessions

  async createSession(customerId: number, client: ClientInfo): Promise<NewSession> {
    const token = newToken();
    const now = Date.now();
    const expiresAt = iso(now + this.config.accounts.sessionMaxMs);
    const row = await repo.insertSession(this.k, {
      customerId,
      tokenHash: tokenHash(token),
      now: iso(now),
      expiresAt,
      userAgent: client.userAgent.slice(0, 300),
      ip: client.ip.slice(0, 64),
    });
    // Now and then, sweep sessions that can never be used again.
    if (Math.random() < 0.02) void repo.deleteDeadSessions(this.k, iso(now - this.config.accounts.sessionIdleMs)).catch(() => {});
    return { token, sessionId: row.id, expiresAt };
  }

  /** The live session a token belongs to, or null; refreshes its idle clock now and then. */
  async resolveToken(token: string): Promise<{ customerId: number; sessionId: number } | null> {
    const now = Date.now();
    const s = await repo.findLiveSession(this.k, tokenHash(token), iso(now), iso(now - this.config.accounts.sessionIdleMs));
    if (!s) return null;
    if (now - new Date(s.last_seen_at).getTime() > TOUCH_EVERY_MS) await repo.touchSession(this.k, s.id, iso(now));
    return { customerId: s.customer_id, sessionId: s.id };
  }

  async signOut(sessionId: number | null): Promise<void> {
    if (sessionId != null) await repo.revokeSession(this.k, sessionId, iso());
  }

  // -------------------------------------------------------------------------
  // Sign-up and sign-in

  async signUp(body: { fullName: string; email: string; mobile: string; password: string }, client: ClientInfo) {
    check(validateSignUp(body));
    const ipKey = `signup:address:${client.address}`;
    const hit = await this.limiter.hit(ipKey, this.config.accounts.limitWindowMs);
    if (hit.hits > this.config.accounts.signUpPerAddress) {
      throw new RateLimitedError(ACCOUNT_MESSAGES.rateLimited(retryAfterSeconds(hit.resetAt)), retryAfterSeconds(hit.resetAt));
    }
    const email = body.email.normalize('NFKC').trim();
    const key = emailKey(email);
    const mobile = normalizeMobile(body.mobile)!;
    const taken = await repo.takenBy(this.k, key, mobile);
    if (taken.email || taken.mobile) throw duplicate(taken);

    const passwordHash = await hashPassword(body.password);
    let row: CustomerRow;
    try {
      row = await this.db.kysely.transaction().execute(async (trx) => {
        const c = await repo.insertCustomer(trx, {
          userId: randomUUID(),
          fullName: body.fullName.normalize('NFKC').trim(),
          email,
          emailKey: key,
          mobile,
          passwordHash,
          now: iso(),
          locale: client.locale ?? 'en',
        });
        await trx.insertInto('wishlists').values({ customer_id: c.id, created_at: c.created_at }).execute();
        // Their earlier guest orders, matched on email and mobile together (see attachGuestSales).
        await repo.attachGuestSales(trx, c.id, key, mobile);
        return c;
      });
    } catch (err) {
      // Two sign-ups with one email at once: the unique index decides, and the loser gets the same 409.
      if (isUniqueViolation(err)) {
        const which = violatedConstraint(err);
        throw duplicate({ email: /email/.test(which) || !/mobile/.test(which), mobile: /mobile/.test(which) });
      }
      throw err;
    }
    const session = await this.createSession(row.id, client);
    return { customer: row, subscribed: await repo.isSubscribed(this.k, row.id, row.email_key), session };
  }

  async signIn(body: { userName: string; password: string }, client: ClientInfo) {
    check(validateSignIn(body));
    const { kind, value } = classifyUserName(body.userName);
    const customer = kind === 'email' ? await repo.findCustomerByEmailKey(this.k, value) : await repo.findCustomerByMobile(this.k, value);
    // One counter per account however it is named (email or mobile); for a name that
    // matches nobody, one per name, so guessing both sides looks alike from outside.
    const accountKey = customer ? `signin:customer:${customer.id}` : `signin:name:${kind}:${value}`;
    const addressKey = `signin:address:${client.address}`;
    const { limitWindowMs, signInPerAccount, signInPerAddress } = this.config.accounts;
    const [acc, addr] = await Promise.all([this.limiter.hit(accountKey, limitWindowMs), this.limiter.hit(addressKey, limitWindowMs)]);
    const over = [acc.hits > signInPerAccount ? acc.resetAt : null, addr.hits > signInPerAddress ? addr.resetAt : null].filter((d): d is Date => d !== null);
    if (over.length) {
      const wait = retryAfterSeconds(new Date(Math.max(...over.map((d) => d.getTime()))));
      throw new RateLimitedError(ACCOUNT_MESSAGES.rateLimited(wait), wait);
    }

    const ok = customer ? await verifyPassword(customer.password_hash, body.password) : await verifyDecoy(body.password);
    if (!customer || !ok) {
      // One answer for an unknown name and a wrong password (the spec's 'auth_error').
      throw new ApiError('invalid_credentials', ACCOUNT_MESSAGES.invalidCredentials, undefined, 401);
    }
    // A good password: this account starts afresh, and the attempt does not count against the address.
    await Promise.all([this.limiter.clear(accountKey), this.limiter.undo(addressKey)]);
    // Said only after the right password, so a block tells someone guessing nothing
    // (docs/decisions/0032); staff lift it, a password reset does not.
    if (customer.blocked_at != null) throw new ApiError('account_blocked', ACCOUNT_BLOCKED_MESSAGE, undefined, 403);
    if (needsRehash(customer.password_hash)) {
      await repo.updatePasswordHash(this.k, customer.id, await hashPassword(body.password), iso(), false);
    }
    // Their mails follow the language they now use the shop in.
    if (client.locale && client.locale !== customer.locale) {
      await repo.updateCustomerLocale(this.k, customer.id, client.locale);
      customer.locale = client.locale;
    }
    const session = await this.createSession(customer.id, client);
    return { customer, subscribed: await repo.isSubscribed(this.k, customer.id, customer.email_key), session };
  }

  // -------------------------------------------------------------------------
  // Profile

  private async customerRow(id: number): Promise<CustomerRow> {
    const row = await repo.findCustomerById(this.k, id);
    // A session whose customer is gone: treat as not found rather than crash.
    if (!row) throw notFound('The customer');
    return row;
  }

  async getCustomer(id: number): Promise<TCustomer> {
    const row = await this.customerRow(id);
    return toCustomer(row, await repo.isSubscribed(this.k, row.id, row.email_key));
  }

  /** `locale`: the language the profile was saved in (the request's), which their mails follow from now on. */
  async updateCustomer(id: number, body: { fullName: string; mobile: string }, locale: Locale | null = null): Promise<TCustomer> {
    check(validateProfile(body));
    const mobile = normalizeMobile(body.mobile)!;
    const taken = await repo.takenBy(this.k, null, mobile, id);
    if (taken.mobile) throw conflict('duplicate_mobile', ACCOUNT_MESSAGES.duplicateMobile, { mobile: ACCOUNT_MESSAGES.duplicateMobile });
    try {
      await repo.updateCustomerProfile(this.k, id, { fullName: body.fullName.normalize('NFKC').trim(), mobile, now: iso() });
      if (locale) await repo.updateCustomerLocale(this.k, id, locale);
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('duplicate_mobile', ACCOUNT_MESSAGES.duplicateMobile, { mobile: ACCOUNT_MESSAGES.duplicateMobile });
      throw err;
    }
    return this.getCustomer(id);
  }

  /** Sets the profile image to a file this customer uploaded (others' files look absent). */
  async setProfileImage(id: number, file: { uuid: string; cdnUrl: string; isImage: boolean } | null): Promise<TCustomer> {
    if (!file) throw notFound('The file');
    if (!file.isImage) throw new ApiError('bad_request', 'The profile picture must be an image', { uuid: 'not an image' });
    await repo.updateCustomerImage(this.k, id, { imageUrl: file.cdnUrl, fileUuid: file.uuid, now: iso() });
    return this.getCustomer(id);
  }

  // -------------------------------------------------------------------------
  // Passwords

  /** Changes the password and revokes every other session of the customer. */
  async changePassword(id: number, sessionId: number | null, body: { currentPassword: string; newPassword: string }) {
    check(validatePasswordChange(body));
    const row = await this.customerRow(id);
    const key = `signin:customer:${id}`;
    const { limitWindowMs, signInPerAccount } = this.config.accounts;
    // Wrong current passwords count with wrong sign-ins: a stolen session cannot guess it.
    // Counted before the password is checked, in one atomic step, as sign-in does: checked
    // first and counted after, a hundred guesses sent at once would all pass the check.
    const hit = await this.limiter.hit(key, limitWindowMs);
    if (hit.hits > signInPerAccount) {
      const wait = retryAfterSeconds(hit.resetAt);
      throw new RateLimitedError(ACCOUNT_MESSAGES.rateLimited(wait), wait);
    }
    if (!(await verifyPassword(row.password_hash, body.currentPassword))) {
      throw new ApiError('wrong_password', MESSAGES.signIn.wrongPassword, { currentPassword: MESSAGES.signIn.wrongPassword }, 400);
    }
    // The right password: this attempt does not count.
    await this.limiter.undo(key);
    const hash = await hashPassword(body.newPassword);
    const revoked = await this.k.transaction().execute(async (trx) => {
      const now = iso();
      await repo.updatePasswordHash(trx, id, hash, now);
      await repo.retireResets(trx, id, now);
      return repo.revokeCustomerSessions(trx, id, now, sessionId);
    });
    return { revokedSessions: revoked };
  }

  /** Mails a reset link when the email has an account; the answer never says whether it has. */
  async forgot(body: { email: string }, client: ClientInfo): Promise<void> {
    check(validateForgot(body));
    const key = emailKey(body.email);
    const customer = await repo.findCustomerByEmailKey(this.k, key);
    // The same work whether or not the email has an account, so that the time of the answer
    // does not tell (like sign-in's decoy hash, docs/decisions/0009): a token and its hash,
    // and one transaction of the same statements, with a write to commit either way (the two
    // counts). The reset is written with INSERT … SELECT, which writes no row for an unknown
    // email; the mail is queued in the outbox after the answer.
    const token = newToken();
    const hash = tokenHash(token);
    const now = Date.now();
    await this.k.transaction().execute(async (trx) => {
      const limiter = new DbRateLimiter(trx, { prune: false });
      const acc = await limiter.hit(`forgot:email:${key}`, FORGOT_WINDOW_MS);
      const addr = await limiter.hit(`forgot:address:${client.address}`, FORGOT_WINDOW_MS);
      if (acc.hits > FORGOT_PER_ACCOUNT || addr.hits > FORGOT_PER_ADDRESS) {
        // Rolls the two counts back: a refused request writes nothing, and the window stays full.
        const wait = retryAfterSeconds(new Date(Math.max(acc.resetAt.getTime(), addr.resetAt.getTime())));
        throw new RateLimitedError(ACCOUNT_MESSAGES.rateLimited(wait), wait);
      }
      const customerId = customer?.id ?? 0;
      await repo.retireResets(trx, customerId, iso(now));
      await repo.insertResetIfCustomer(trx, { customerId, tokenHash: hash, now: iso(now), expiresAt: iso(now + RESET_LIFETIME_MS) });
    });
    if (!customer) return;
    // In the language the request was made in, else the account's. Anyone may ask for any
    // address's reset, so the request does not change the account's language.
    const locale = client.locale ?? mailLocale(customer.locale);
    const mail = passwordResetMail({ email: customer.email, name: customer.full_name }, this.config.publicUrl, token, locale);
    // After the answer: storing the mail and handing it to the mail server would make an
    // existing account answer measurably slower than an unknown one. The outbox keeps the
    // message if SMTP fails.
    setImmediate(() => void this.mailer.send(mail).catch((err) => this.log.warn({ err }, 'could not queue the password reset mail')));
  }

  /** Sets a new password from a reset link; every session of the account ends. */
  async resetPassword(body: { token: string; password: string }): Promise<void> {
    check(validatePasswordReset({ password: body.password }));
    const invalid = () => new ApiError('invalid_token', ACCOUNT_MESSAGES.resetInvalid, { token: ACCOUNT_MESSAGES.resetInvalid }, 400);
    const reset = await repo.findUsableReset(this.k, tokenHash(body.token), iso());
    if (!reset) throw invalid();
    const hash = await hashPassword(body.password);
    await this.k.transaction().execute(async (trx) => {
      const now = iso();
      if (!(await repo.useReset(trx, reset.id, now))) throw invalid();
      await repo.updatePasswordHash(trx, reset.customer_id, hash, now);
      await repo.revokeCustomerSessions(trx, reset.customer_id, now);
    });
    // Whoever was locked out by wrong guesses can sign in with the new password at once.
    await this.limiter.clear(`signin:customer:${reset.customer_id}`);
  }
}

function duplicate(taken: { email: boolean; mobile: boolean }): ApiError {
  // One code for either clash (decision 0009); the fields say which, for the form.
  const fields: Record<string, string> = {};
  if (taken.email) fields.email = MESSAGES.signUp.duplicateEmail;
  if (taken.mobile) fields.mobile = ACCOUNT_MESSAGES.duplicateMobile;
  return conflict('duplicate_email', taken.email ? MESSAGES.signUp.duplicateEmail : ACCOUNT_MESSAGES.duplicateMobile, fields);
}
