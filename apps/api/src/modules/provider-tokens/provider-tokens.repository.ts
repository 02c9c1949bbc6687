import type { Kysely, Selectable } from 'kysely';
import type { Database, ProviderTokensTable } from '../../db/schema.ts';

// Every query about the providers' shared access tokens (docs/decisions/0041).

export type ProviderTokenRow = Selectable<ProviderTokensTable>;
export type TokenProvider = ProviderTokensTable['provider'];

export interface SealedToken {
  access_token: string;
  refresh_token: string | null;
  token_hash: string;
  issued_at: number;
  refresh_at: number;
  expires_at: number;
}

export function readToken(db: Kysely<Database>, provider: TokenProvider, accountKey: string) {
  return db.selectFrom('provider_tokens').selectAll().where('provider', '=', provider).where('account_key', '=', accountKey).executeTakeFirst();
}

/** The account's row, empty, if it has none yet: the lease is taken on it. */
export async function ensureRow(db: Kysely<Database>, provider: TokenProvider, accountKey: string, at: string): Promise<void> {
  await db
    .insertInto('provider_tokens')
    .values({
      provider,
      account_key: accountKey,
      access_token: null,
      refresh_token: null,
      token_hash: null,
      issued_at: null,
      refresh_at: null,
      expires_at: null,
      lease_owner: null,
      lease_until: null,
      updated_at: at,
    })
    .onConflict((oc) => oc.columns(['provider', 'account_key']).doNothing())
    .execute();
}

/** Takes the renewal lease until `until` if nobody holds it now: one conditional update, so two processes never both win. */
export async function claimLease(
  db: Kysely<Database>,
  provider: TokenProvider,
  accountKey: string,
  owner: string,
  now: number,
  until: number,
): Promise<boolean> {
  const r = await db
    .updateTable('provider_tokens')
    .set({ lease_owner: owner, lease_until: until })
    .where('provider', '=', provider)
    .where('account_key', '=', accountKey)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function releaseLease(db: Kysely<Database>, provider: TokenProvider, accountKey: string, owner: string): Promise<void> {
  await db
    .updateTable('provider_tokens')
    .set({ lease_owner: null, lease_until: null })
    .where('provider', '=', provider)
    .where('account_key', '=', accountKey)
    .where('lease_owner', '=', owner)
    .execute();
}

export async function writeToken(db: Kysely<Database>, provider: TokenProvider, accountKey: string, token: SealedToken, at: string): Promise<void> {
  await ensureRow(db, provider, accountKey, at);
  await db
    .updateTable('provider_tokens')
    .set({ ...token, updated_at: at })
    .where('provider', '=', provider)
    .where('account_key', '=', accountKey)
    .execute();
}

/** Forgets every token of the account (its credentials changed, or a caller asked). */
export async function clearToken(db: Kysely<Database>, provider: TokenProvider, accountKey: string, at: string): Promise<void> {
  await db
    .updateTable('provider_tokens')
    .set({ access_token: null, refresh_token: null, token_hash: null, issued_at: null, refresh_at: null, expires_at: null, updated_at: at })
    .where('provider', '=', provider)
    .where('account_key', '=', accountKey)
    .execute();
}

/**
 * Forgets the access token the provider refused, only if it is still the stored one: a token
 * another process has put there since is kept. The refresh token stays (a refresh is cheaper
 * than a grant, and bKash counts grants). Returns whether it was forgotten.
 */
export async function forgetAccessToken(db: Kysely<Database>, provider: TokenProvider, accountKey: string, tokenHash: string, at: string): Promise<boolean> {
  const r = await db
    .updateTable('provider_tokens')
    .set({ access_token: null, token_hash: null, refresh_at: null, expires_at: null, updated_at: at })
    .where('provider', '=', provider)
    .where('account_key', '=', accountKey)
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
