import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, SandboxPaymentSessionsTable } from '../../db/schema.ts';
import { parseGatewayAmount, signFields, toGatewayAmount, toTransaction, verifyFields } from './gateway-fields.ts';
import type { GatewayTransaction, PaymentInit, PaymentProvider, PaymentSession, RefundAnswer, RefundState } from './provider.ts';

// The built-in test gateway (decisions.md: the default provider). It behaves like
// SSLCommerz from the shop's side — a session, a hosted page, a form POST back to our
// success/fail/cancel URL, a signed IPN and a validation lookup — but its "bank" is a
// table in our own database and its page (routes/payments.ts) is clearly marked as a test.

type Db = Kysely<Database>;
type SessionRow = Omit<SandboxPaymentSessionsTable, 'id'> & { id: number };

export const SANDBOX_PAGE_PATH = '/payments/sandbox/pay';

const token = (bytes: number) => randomBytes(bytes).toString('base64url');

export interface SandboxDeps {
  db: Db;
  /** Read on every call: the page lives on the shop's own public address. */
  publicUrl(): string;
  secret: string;
}

export function createSandboxProvider(deps: SandboxDeps): PaymentProvider {
  return {
    name: 'sandbox',
    // The same range as SSLCommerz, so that the sandbox refuses what the real gateway would.
    minAmount: 1_000,
    maxAmount: 50_000_000,

    async initiate(init: PaymentInit): Promise<PaymentSession> {
      const sessionKey = token(24);
      await deps.db
        .insertInto('sandbox_payment_sessions')
        .values({
          session_key: sessionKey,
          tran_id: init.tranId,
          val_id: null,
          amount: toGatewayAmount(init.amount),
          currency: init.currency,
          success_url: init.successUrl,
          fail_url: init.failUrl,
          cancel_url: init.cancelUrl,
          ipn_url: init.ipnUrl,
          customer_name: init.customer.name.slice(0, 100),
          product_name: init.productName.slice(0, 255),
          value_a: init.invoiceId,
          status: 'PENDING',
          risk_level: 0,
          created_at: new Date().toISOString(),
          completed_at: null,
        })
        .execute();
      return { gatewayUrl: `${deps.publicUrl()}${SANDBOX_PAGE_PATH}?session=${sessionKey}`, sessionKey };
    },

    async validate(valId: string): Promise<GatewayTransaction | null> {
      const row = await deps.db.selectFrom('sandbox_payment_sessions').selectAll().where('val_id', '=', valId).executeTakeFirst();
      if (!row) return null;
      // Like SSLCommerz: VALID the first time a payment is validated, VALIDATED after.
      let status = row.status;
      if (status === 'VALID') {
        const first = await deps.db
          .updateTable('sandbox_payment_sessions')
          .set({ status: 'VALIDATED' })
          .where('id', '=', row.id)
          .where('status', '=', 'VALID')
          .executeTakeFirst();
        status = Number(first.numUpdatedRows) === 1 ? 'VALID' : 'VALIDATED';
      }
      return toTransaction(gatewayRecord({ ...row, status }));
    },

    async queryByTranId(tranId: string): Promise<GatewayTransaction[]> {
      const rows = await deps.db.selectFrom('sandbox_payment_sessions').selectAll().where('tran_id', '=', tranId).execute();
      return rows.map((r) => toTransaction(gatewayRecord(r)));
    },

    verifySignature(fields: Record<string, string>): boolean {
      return verifyFields(fields, deps.secret);
    },

    // The same two refund calls as SSLCommerz's, answered in its words: a refund of a paid
    // session, never more than was paid in all; the same refe_id again is "processing" with
    // the first refund's reference. A sandbox refund has gone through when it is asked about.
    async refund(req): Promise<RefundAnswer> {
      const paid = (await deps.db.selectFrom('sandbox_payment_sessions').selectAll().where('status', 'in', ['VALID', 'VALIDATED']).execute()).find(
        (r) => gatewayRecord(r).bank_tran_id === req.bankTranId,
      );
      const answer = (status: RefundAnswer['status'], refundRefId: string | null, reason: string | null): RefundAnswer => ({
        status,
        refundRefId,
        reason,
        raw: {
          APIConnect: 'DONE',
          bank_tran_id: req.bankTranId,
          trans_id: paid?.tran_id ?? '',
          refund_ref_id: refundRefId ?? '',
          status,
          errorReason: reason ?? '',
        },
      });
      if (!paid) return answer('failed', null, 'Invalid bank transaction id');
      return deps.db.transaction().execute(async (trx) => {
        const earlier = await trx.selectFrom('sandbox_refunds').selectAll().where('bank_tran_id', '=', req.bankTranId).execute();
        const same = earlier.find((r) => r.refe_id === req.refeId);
        if (same) return answer('processing', same.refund_ref_id, null);
        const before = earlier.filter((r) => r.status !== 'cancelled').reduce((n, r) => n + (parseGatewayAmount(r.amount) ?? 0), 0);
        const paidAmount = parseGatewayAmount(paid.amount) ?? 0;
        if (req.amount <= 0 || before + req.amount > paidAmount) return answer('failed', null, 'Refund amount is more than the transaction amount');
        const refundRefId = `SBR${token(9)}`;
        await trx
          .insertInto('sandbox_refunds')
          .values({
            refund_ref_id: refundRefId,
            bank_tran_id: req.bankTranId,
            refe_id: req.refeId,
            amount: toGatewayAmount(req.amount),
            status: 'processing',
            created_at: new Date().toISOString(),
          })
          .execute();
        return answer('success', refundRefId, null);
      });
    },

    async refundStatus(refundRefId): Promise<RefundState> {
      const row = await deps.db.selectFrom('sandbox_refunds').selectAll().where('refund_ref_id', '=', refundRefId).executeTakeFirst();
      if (!row) return { status: 'unknown', raw: { APIConnect: 'DONE', status: 'invalid', refund_ref_id: refundRefId } };
      if (row.status === 'processing') await deps.db.updateTable('sandbox_refunds').set({ status: 'refunded' }).where('id', '=', row.id).execute();
      return {
        status: 'refunded',
        raw: { APIConnect: 'DONE', bank_tran_id: row.bank_tran_id, refund_ref_id: row.refund_ref_id, initiated_on: row.created_at, status: 'refunded' },
      };
    },
  };
}

/** What the sandbox's validation and query APIs answer for a session, in SSLCommerz's words. */
function gatewayRecord(row: SessionRow): Record<string, unknown> {
  return {
    APIConnect: 'DONE',
    status: row.status,
    tran_id: row.tran_id,
    val_id: row.val_id ?? '',
    amount: row.amount,
    store_amount: row.amount,
    currency: row.currency,
    currency_type: row.currency,
    currency_amount: row.amount,
    tran_date: row.completed_at ?? row.created_at,
    bank_tran_id: row.val_id ? `SANDBOX-${row.val_id.slice(0, 10)}` : '',
    card_type: 'SANDBOX-TEST CARD',
    card_brand: 'TEST',
    risk_level: String(row.risk_level),
    risk_title: row.risk_level === 1 ? 'High risk (sandbox)' : 'Safe',
    value_a: row.value_a ?? '',
    validated_on: row.completed_at ?? '',
  };
}

export type SandboxAction = 'pay' | 'risky' | 'fail' | 'cancel';

export async function sandboxSession(db: Db, sessionKey: string): Promise<SessionRow | undefined> {
  if (!/^[\w-]{16,64}$/.test(sessionKey)) return undefined;
  return db.selectFrom('sandbox_payment_sessions').selectAll().where('session_key', '=', sessionKey).executeTakeFirst();
}

/**
 * The payer's choice on the sandbox page. Only a PENDING session changes (a second click,
 * or the back button, finds it completed and gets the same outcome again). Returns the
 * session as it now is.
 */
export async function completeSandboxSession(db: Db, sessionKey: string, action: SandboxAction): Promise<SessionRow | undefined> {
  const now = new Date().toISOString();
  const paid = action === 'pay' || action === 'risky';
  await db
    .updateTable('sandbox_payment_sessions')
    .set({
      status: paid ? 'VALID' : action === 'fail' ? 'FAILED' : 'CANCELLED',
      val_id: paid ? `SBX${token(18)}` : null,
      risk_level: action === 'risky' ? 1 : 0,
      completed_at: now,
    })
    .where('session_key', '=', sessionKey)
    .where('status', '=', 'PENDING')
    .execute();
  return sandboxSession(db, sessionKey);
}

/**
 * The fields a gateway posts back to the shop (browser return and IPN), signed the
 * SSLCommerz way. VALIDATED is reported as VALID here: the return describes the payment,
 * not how often it has been validated.
 */
export function sandboxReturnFields(row: SessionRow, secret: string): Record<string, string> {
  const status = row.status === 'VALIDATED' ? 'VALID' : row.status;
  const base: Record<string, string> = {
    status,
    tran_id: row.tran_id,
    amount: row.amount,
    currency: row.currency,
    currency_type: row.currency,
    currency_amount: row.amount,
    tran_date: row.completed_at ?? row.created_at,
    value_a: row.value_a ?? '',
  };
  if (status === 'VALID') {
    Object.assign(base, {
      val_id: row.val_id ?? '',
      store_amount: row.amount,
      card_type: 'SANDBOX-TEST CARD',
      bank_tran_id: `SANDBOX-${(row.val_id ?? '').slice(0, 10)}`,
      risk_level: String(row.risk_level),
      risk_title: row.risk_level === 1 ? 'High risk (sandbox)' : 'Safe',
    });
  } else {
    base.error = status === 'FAILED' ? 'Declined by the sandbox (test)' : 'Cancelled by the payer';
  }
  return { ...base, ...signFields(base, secret) };
}
