import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

// A local stand-in for SSLCommerz that speaks its documented protocol (v4), so that the
// adapter is tested over real HTTP without the internet:
//   POST /gwprocess/v4/api.php                            form → { status, sessionkey, GatewayPageURL }
//   GET  /validator/api/validationserverAPI.php           val_id → status VALID, then VALIDATED
//   GET  /validator/api/merchantTransIDvalidationAPI.php  tran_id → { APIConnect, no_of_trans_found, element }
//        bank_tran_id + refund_amount + refund_remarks (+ refe_id) → a refund: { APIConnect, status
//        success | failed | processing, refund_ref_id, errorReason }; refund_ref_id → its state
//        (processing until the test settles it with settleRefund, then refunded or cancelled)
// A test plays the payer and the bank through complete(), then delivers the result the way
// the gateway does: the browser's form POST to success/fail/cancel URLs (returnFields) and
// the IPN to ipn_url (sendIpn), both signed with verify_sign / verify_key.

export interface StandInSession {
  sessionKey: string;
  init: Record<string, string>;
  status: 'PENDING' | 'VALID' | 'VALIDATED' | 'FAILED' | 'CANCELLED';
  valId: string | null;
  riskLevel: 0 | 1;
  /** What the bank says was paid; the initiated amount unless a test changes it. */
  paidAmount: string;
  paidCurrency: string;
}

export interface SslcommerzStandIn {
  url: string;
  storeId: string;
  storePassword: string;
  sessions: Map<string, StandInSession>;
  /** Every request the stand-in received (path and parsed fields), for assertions. */
  requests: { method: string; path: string; fields: Record<string, string> }[];
  /** Refunds the stand-in has started, by refund_ref_id. */
  refunds: Map<string, { bankTranId: string; refeId: string; amount: string; status: 'processing' | 'refunded' | 'cancelled' }>;
  /** The bank's answer to a refund: it went back, or the gateway dropped it. */
  settleRefund(refundRefId: string, outcome: 'refunded' | 'cancelled'): void;
  /** When set, every API call answers 500 (the gateway is down). */
  down: boolean;
  /** When set, initiation answers FAILED with this reason. */
  refuseInitiation: string | null;
  /** When set, GatewayPageURL points to this (a confused or hostile answer). */
  gatewayPageOverride: string | null;
  /** The payer's and the bank's answer for a transaction. */
  complete(tranId: string, outcome: 'VALID' | 'FAILED' | 'CANCELLED', opts?: { riskLevel?: 0 | 1; amount?: string; currency?: string }): StandInSession;
  /** The signed fields the gateway posts back (browser return and IPN). */
  returnFields(tranId: string, opts?: { password?: string }): Record<string, string>;
  /** Posts the IPN to the session's ipn_url, rewritten onto `base` (the test app's address). */
  sendIpn(tranId: string, base: string, opts?: { password?: string; fields?: Record<string, string> }): Promise<{ status: number; body: string }>;
  close(): Promise<void>;
}

const md5 = (s: string) => createHash('md5').update(s).digest('hex');

function sign(fields: Record<string, string>, password: string): Record<string, string> {
  const keys = Object.keys(fields);
  const data: Record<string, string> = { ...fields, store_passwd: md5(password) };
  const text = Object.keys(data)
    .sort()
    .map((k) => `${k}=${data[k]}`)
    .join('&');
  return { ...fields, verify_key: keys.join(','), verify_sign: md5(text) };
}

async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startSslcommerzStandIn(opts: { storeId?: string; storePassword?: string } = {}): Promise<SslcommerzStandIn> {
  const storeId = opts.storeId ?? 'teststore01';
  const storePassword = opts.storePassword ?? 'teststore01@ssl';
  const sessions = new Map<string, StandInSession>();
  const requests: SslcommerzStandIn['requests'] = [];
  const refunds: SslcommerzStandIn['refunds'] = new Map();
  const poisha = (amount: string) => Math.round(Number(amount) * 100);
  let url = '';

  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  const record = (s: StandInSession) => ({
    status: s.status,
    tran_date: '2026-11-21 12:00:00',
    tran_id: s.init.tran_id,
    val_id: s.valId ?? '',
    amount: s.paidAmount,
    store_amount: s.paidAmount,
    currency: 'BDT',
    bank_tran_id: s.valId ? `BANK${s.valId.slice(0, 8)}` : '',
    card_type: 'VISA-Dutch Bangla',
    card_no: '411111XXXXXX1111',
    card_issuer: 'STANDARD CHARTERED BANK',
    card_brand: 'VISA',
    card_issuer_country: 'Bangladesh',
    card_issuer_country_code: 'BD',
    currency_type: s.paidCurrency,
    currency_amount: s.paidAmount,
    currency_rate: '1.0000',
    value_a: s.init.value_a ?? '',
    risk_level: String(s.riskLevel),
    risk_title: s.riskLevel ? 'High' : 'Safe',
  });

  const server = http.createServer(async (req, res) => {
    const u = new URL(req.url ?? '/', 'http://stand-in');
    const body = req.method === 'POST' ? await readBody(req) : '';
    const fields = Object.fromEntries(new URLSearchParams(req.method === 'POST' ? body : u.search));
    requests.push({ method: req.method ?? 'GET', path: u.pathname, fields });
    if (stand.down) return json(res, 500, { error: 'down' });

    if (req.method === 'POST' && u.pathname === '/gwprocess/v4/api.php') {
      if (fields.store_id !== storeId || fields.store_passwd !== storePassword) {
        return json(res, 200, { status: 'FAILED', failedreason: 'Store Credential Error Or Store is De-active', sessionkey: '', GatewayPageURL: '' });
      }
      if (stand.refuseInitiation) return json(res, 200, { status: 'FAILED', failedreason: stand.refuseInitiation, GatewayPageURL: '' });
      for (const k of [
        'total_amount',
        'currency',
        'tran_id',
        'success_url',
        'fail_url',
        'cancel_url',
        'cus_name',
        'cus_email',
        'cus_phone',
        'product_category',
      ]) {
        if (!fields[k]) return json(res, 200, { status: 'FAILED', failedreason: `Invalid Information: ${k} is missing`, GatewayPageURL: '' });
      }
      const sessionKey = randomBytes(16).toString('hex').toUpperCase();
      sessions.set(fields.tran_id, {
        sessionKey,
        init: fields,
        status: 'PENDING',
        valId: null,
        riskLevel: 0,
        paidAmount: fields.total_amount,
        paidCurrency: fields.currency,
      });
      return json(res, 200, {
        status: 'SUCCESS',
        failedreason: '',
        sessionkey: sessionKey,
        gw: { visa: 'city_visa,ebl_visa', master: 'city_master' },
        redirectGatewayURL: `${url}/gwprocess/v4/bankgw/indexhtmlOTP.php?mamount=${fields.total_amount}`,
        GatewayPageURL: stand.gatewayPageOverride ?? `${url}/EasyCheckOut/testcde${sessionKey.toLowerCase()}`,
        storeBanner: '',
        storeLogo: '',
      });
    }

    if (req.method === 'GET' && (u.pathname === '/validator/api/validationserverAPI.php' || u.pathname === '/validator/api/merchantTransIDvalidationAPI.php')) {
      if (fields.store_id !== storeId || fields.store_passwd !== storePassword) return json(res, 200, { APIConnect: 'INVALID_REQUEST' });
      if (u.pathname.endsWith('merchantTransIDvalidationAPI.php') && fields.refund_ref_id) {
        const r = refunds.get(fields.refund_ref_id);
        if (!r) return json(res, 200, { APIConnect: 'DONE', status: 'invalid', errorReason: 'Invalid refund_ref_id' });
        return json(res, 200, {
          APIConnect: 'DONE',
          bank_tran_id: r.bankTranId,
          refund_ref_id: fields.refund_ref_id,
          initiated_on: '2026-11-21 13:00:00',
          refunded_on: r.status === 'refunded' ? '2026-11-22 10:00:00' : '',
          status: r.status,
          errorReason: r.status === 'cancelled' ? 'Refund cancelled by the bank' : '',
        });
      }
      if (u.pathname.endsWith('merchantTransIDvalidationAPI.php') && fields.bank_tran_id) {
        const paid = [...sessions.values()].find((x) => (x.status === 'VALID' || x.status === 'VALIDATED') && record(x).bank_tran_id === fields.bank_tran_id);
        const answer = (status: string, refundRefId: string, errorReason: string) =>
          json(res, 200, {
            APIConnect: 'DONE',
            bank_tran_id: fields.bank_tran_id,
            trans_id: paid?.init.tran_id ?? '',
            refund_ref_id: refundRefId,
            status,
            errorReason,
          });
        if (!paid) return answer('failed', '', 'Invalid bank_tran_id');
        if (!fields.refund_amount || !fields.refund_remarks) return answer('failed', '', 'refund_amount and refund_remarks are required');
        const same = [...refunds].find(([, r]) => r.bankTranId === fields.bank_tran_id && fields.refe_id && r.refeId === fields.refe_id);
        if (same) return answer('processing', same[0], '');
        const before = [...refunds.values()]
          .filter((r) => r.bankTranId === fields.bank_tran_id && r.status !== 'cancelled')
          .reduce((n, r) => n + poisha(r.amount), 0);
        if (before + poisha(fields.refund_amount) > poisha(paid.paidAmount)) return answer('failed', '', 'Refund amount exceeds the transaction amount');
        const refundRefId = `RF${randomBytes(6).toString('hex').toUpperCase()}`;
        refunds.set(refundRefId, { bankTranId: fields.bank_tran_id, refeId: fields.refe_id ?? '', amount: fields.refund_amount, status: 'processing' });
        return answer('success', refundRefId, '');
      }
      if (u.pathname.endsWith('validationserverAPI.php')) {
        const s = [...sessions.values()].find((x) => x.valId && x.valId === fields.val_id);
        if (!s) return json(res, 200, { status: 'INVALID_TRANSACTION', APIConnect: 'DONE' });
        const answer = { ...record(s), APIConnect: 'DONE', validated_on: '2026-11-21 12:00:05', gw_version: 'stand-in' };
        if (s.status === 'VALID') s.status = 'VALIDATED';
        return json(res, 200, answer);
      }
      const s = sessions.get(fields.tran_id ?? '');
      return json(res, 200, { APIConnect: 'DONE', no_of_trans_found: s ? 1 : 0, element: s ? [record(s)] : [] });
    }

    if (req.method === 'GET' && u.pathname.startsWith('/EasyCheckOut/')) {
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end('<!doctype html><title>SSLCommerz stand-in</title><p>Stand-in payment page</p>');
    }
    json(res, 404, { error: 'not found' });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const stand: SslcommerzStandIn = {
    url,
    storeId,
    storePassword,
    sessions,
    refunds,
    settleRefund(refundRefId, outcome) {
      const r = refunds.get(refundRefId);
      if (!r) throw new Error(`no refund ${refundRefId}`);
      r.status = outcome;
    },
    requests,
    down: false,
    refuseInitiation: null,
    gatewayPageOverride: null,
    complete(tranId, outcome, o = {}) {
      const s = sessions.get(tranId);
      if (!s) throw new Error(`no session for ${tranId}`);
      s.status = outcome;
      s.riskLevel = o.riskLevel ?? 0;
      if (o.amount) s.paidAmount = o.amount;
      if (o.currency) s.paidCurrency = o.currency;
      s.valId = outcome === 'VALID' ? `${Date.now().toString().slice(-8)}${randomBytes(6).toString('hex')}` : null;
      return s;
    },
    returnFields(tranId, o = {}) {
      const s = sessions.get(tranId);
      if (!s) throw new Error(`no session for ${tranId}`);
      const status = s.status === 'VALIDATED' ? 'VALID' : s.status;
      const f: Record<string, string> =
        status === 'VALID'
          ? { ...Object.fromEntries(Object.entries(record(s)).map(([k, v]) => [k, String(v)])), status }
          : {
              status,
              tran_id: tranId,
              error: status === 'FAILED' ? 'Insufficient balance' : 'Customer cancelled',
              amount: s.paidAmount,
              currency: 'BDT',
              value_a: s.init.value_a ?? '',
            };
      return sign(f, o.password ?? storePassword);
    },
    async sendIpn(tranId, base, o = {}) {
      const s = sessions.get(tranId);
      if (!s) throw new Error(`no session for ${tranId}`);
      const target = new URL(s.init.ipn_url);
      const fields = o.fields ?? stand.returnFields(tranId, { password: o.password });
      const res = await fetch(`${base}${target.pathname}${target.search}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields),
      });
      return { status: res.status, body: await res.text() };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return stand;
}
