import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { signIn, signUp, type TestCustomer, uniqueIp } from './helpers/accounts.ts';
import { ADDRESS, checkout, checkoutBody, plainSkus, setStock } from './helpers/checkout.ts';
import { pngBytes, uploadForm } from './helpers/files.ts';
import {
  type Dictionary,
  encodeUrlPart,
  fieldPaths,
  filledSchema,
  hostileNumber,
  hostileString,
  JSON_KIND_NAMES,
  JSON_KINDS,
  type JsonKind,
  mutate,
  mutation,
  ownKeys,
  plausible,
  propertyNames,
  Raw,
  RAW_QUERIES,
  RAW_URL_PIECES,
  type Schema,
  setAt,
  toJsonText,
} from './helpers/hostile-input.ts';
import { NoAnswerError, type RawAnswer, rawSend } from './helpers/raw-http.ts';
import { signedInStaff, type TestStaff } from './helpers/staff.ts';
import { startTestApp, TEST_API_KEY } from './helpers/test-app.ts';

// Hostile input for every operation of the OpenAPI document. The document is
// read from the running app, so a new endpoint is fuzzed the day it is added, with no list
// to keep. For each operation, fast-check generates requests from its schemas and spoils
// them: malformed JSON, wrong types, missing and extra keys (__proto__, constructor), huge
// strings and arrays, deep nesting, NUL bytes, lone surrogates, bidirectional marks,
// negative, fractional and enormous numbers, wrong content types, oversized bodies, broken
// query strings and path parameters, garbage session tokens and client addresses.
//
// Every answer must be a 4xx in the one error shape, or a 2xx/3xx where the input was in
// fact valid; never a 5xx, never a hang (FUZZ_TIMEOUT_MS per request); and the server
// must still answer its health check after each operation.
//
//   FUZZ_SEED=n    replays a run (the seed is printed, and named in every failure)
//   FUZZ_RUNS=n    cases per operation (default 30), and about n/30 rounds of the sweeps at
//                  the end of the file; `npm run fuzz -w bench` is a long hunt (300)
//   FUZZ_SHRINK=1  let fast-check shrink a failing case to a smaller one (slower)
//   FUZZ_BURSTS_VERBOSE=1  print what each burst of back-office writes answered
//
// The back office's operations (/api/admin) are also sent as an owner with a real session
// (two-factor on, as owners must have it), so that their code runs, not only the 401. At
// the end, every back-office write is sent ten times at once, with identical bodies and with
// near-identical ones (the same unique values, other fields changed), built from what the
// back office's own lists answer: no answer may be a 5xx, and afterwards no unique index of
// the database may hold a duplicate (docs/decisions/0052).
//
// A replay sends the same requests in the same order; ids the server chose at random
// (invoice ids, file uuids) differ between runs, so a failure that depends on one may need
// a few replays or a longer run.

const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);
const RUNS = Math.max(1, Number(process.env.FUZZ_RUNS ?? 30) || 30);
const TIMEOUT_MS = Math.max(1000, Number(process.env.FUZZ_TIMEOUT_MS ?? 10_000) || 10_000);
console.log(`fuzz-openapi: seed ${SEED} (replay: FUZZ_SEED=${SEED}), ${RUNS} cases per operation (FUZZ_RUNS=n for more)`);

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Schema;
}
interface Operation {
  method: string;
  path: string;
  parameters: Parameter[];
  /** Media type → schema of the request body, when it has one. */
  body: Record<string, Schema>;
  /** Not in the OpenAPI document (the gateway's form posts): HTML answers are fine there. */
  hidden?: boolean;
  /** Its summary and description: the prose names the fields a search filters and sorts on. */
  prose?: string;
  /** Schema of the JSON body of its 200 answer. */
  answer?: Schema;
}

// ---- the app, a customer with data of their own, and the dictionary ----------------------------

// The fuzz starts many multipart uploads of up to 50 MB, each reserving its size for a day:
// room enough that they never reach a quota (quotas have tests of their own: abuse-uploads).
const roomy = { ...loadConfig({}).uploads, customerQuotaBytes: 2 ** 40, guestQuotaBytes: 2 ** 40, guestTotalBytes: 2 ** 40, minFreeDiskBytes: 0 };
const t = await startTestApp({ config: { trustProxy: true, uploads: roomy } });
afterAll(() => t.close());

const dict: Dictionary = { strings: [], integers: [] };
const seen = new Set<string>();
/** Leaves of a JSON answer go into the dictionary: real ids and codes reach deeper code. */
function harvest(v: unknown, depth = 0) {
  if (depth > 6 || dict.strings.length + dict.integers.length > 1500) return;
  if (typeof v === 'string' && v.length > 0 && v.length <= 80 && !seen.has(`s${v}`)) {
    seen.add(`s${v}`);
    dict.strings.push(v);
  } else if (typeof v === 'number' && Number.isInteger(v) && !seen.has(`n${v}`)) {
    seen.add(`n${v}`);
    dict.integers.push(v);
  } else if (Array.isArray(v)) for (const x of v.slice(0, 10)) harvest(x, depth + 1);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) harvest(x, depth + 1);
}

let customer: TestCustomer;

/** A customer who owns an address, a wishlist item, an order and a file. */
async function newCustomer(): Promise<TestCustomer> {
  const c = await signUp(t);
  harvest([c.email, c.mobile, c.userId]);
  const address = await t.api('/api/addresses', { method: 'POST', json: { ...ADDRESS, label: 'Home' }, headers: c.auth });
  harvest(address.body);
  const [sku] = await plainSkus(t.db.kysely, 1, Math.floor(Math.random() * 50));
  await setStock(t.db.kysely, sku.id, [1000]);
  const order = await checkout(t, checkoutBody([{ skuCode: sku.code, quantity: 1 }]), c.auth);
  harvest(order.body);
  const wish = await t.api('/api/wishlists/items', {
    method: 'POST',
    json: { itemId: order.body.sale?.lines?.[0]?.productId, skuCode: sku.code, action: 'add' },
    headers: c.auth,
  });
  harvest(wish.body);
  const file = await fetch(`${t.baseUrl}/api/files`, {
    method: 'POST',
    body: uploadForm({ bytes: pngBytes(), name: 'proof.png', contentType: 'image/png' }),
    headers: { 'x-api-key': TEST_API_KEY, ...c.auth },
  });
  harvest(await file.json());
  return c;
}

/**
 * Set when a request as the customer changed something (it may have signed them out,
 * changed their password or email) or was refused as unauthenticated.
 */
let sessionInDoubt = false;

/** The fuzz may sign the customer out or change their password: get a working session back. */
async function ensureSession() {
  if (!sessionInDoubt) return;
  sessionInDoubt = false;
  const me = await t.api('/api/customers', { headers: customer.auth });
  if (me.status === 200) return;
  for (const userName of [customer.email, customer.mobile]) {
    const again = await signIn(t, userName, customer.password, customer.ip);
    if (again.status === 200) {
      customer = { ...customer, token: again.body.authToken, auth: { ...customer.auth, 'x-auth-token': again.body.authToken } };
      return;
    }
  }
  customer = await newCustomer();
}

customer = await newCustomer();

/** The owner the back office's operations are sent as: two-factor on, signed in over HTTP. */
let owner: TestStaff = await signedInStaff(t, 'owner', { ip: uniqueIp() });
/** Set when a request as the owner was refused as unauthenticated. */
let ownerInDoubt = false;

/** A working owner's session again (an operation may have revoked it): a new owner when it was lost. */
async function ensureOwner() {
  if (!ownerInDoubt) return;
  ownerInDoubt = false;
  if ((await t.api('/api/admin/session', { headers: owner.headers })).status === 200) return;
  owner = await signedInStaff(t, 'owner', { ip: uniqueIp() });
}

for (const p of [
  '/api/kvps',
  '/api/branches',
  '/api/currencies/conversions',
  '/api/v3/items/joined?id=1',
  '/api/v3/items/joined?id=2',
  '/api/discount/coupons/apply?code=NIBASH500',
])
  harvest((await t.api(p)).body);
harvest((await t.api('/api/categories/search', { method: 'POST', json: {} })).body);
harvest(['NIBASH500', 'WELCOME10', 'EID2025', 'image', 'document', 'add', 'remove', 'cod', 'card', 'later', 'Dhaka', 'Gulshan 2', customer.password]);

// ---- the operations ------------------------------------------------------------------------------

const doc = (await t.api('/api/openapi.json')).body as { paths: Record<string, Record<string, any>> };
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const operations: Operation[] = [];
for (const [p, item] of Object.entries(doc.paths)) {
  for (const [method, op] of Object.entries(item)) {
    if (!METHODS.includes(method)) continue;
    const body: Record<string, Schema> = {};
    for (const [type, media] of Object.entries<any>(op.requestBody?.content ?? {})) body[type] = media.schema ?? {};
    operations.push({
      method: method.toUpperCase(),
      path: p,
      parameters: [...(item.parameters ?? []), ...(op.parameters ?? [])],
      body,
      prose: `${op.summary ?? ''} ${op.description ?? ''}`,
      answer: op.responses?.['200']?.content?.['application/json']?.schema,
    });
  }
}

// Routes the document leaves out on purpose, because a card gateway or a browser form
// calls them, not an API client. They take form posts from anyone, so they are fuzzed too.
const gatewayFields: Schema = {
  type: 'object',
  properties: Object.fromEntries(
    ['invoiceId', 'value_a', 'tran_id', 'val_id', 'status', 'amount', 'currency', 'verify_sign', 'verify_key', 'session', 'action', 'error', 'risk_level'].map(
      (k) => [k, { type: 'string' }],
    ),
  ),
};
const outcome: Parameter = { name: 'outcome', in: 'path', required: true, schema: { type: 'string', enum: ['success', 'fail', 'cancel'] } };
operations.push(
  { method: 'POST', path: '/payments/ipn', parameters: [], body: { 'application/x-www-form-urlencoded': gatewayFields }, hidden: true },
  { method: 'POST', path: '/payments/return/{outcome}', parameters: [outcome], body: { 'application/x-www-form-urlencoded': gatewayFields }, hidden: true },
  {
    method: 'GET',
    path: '/payments/return/{outcome}',
    parameters: [outcome, ...Object.keys(gatewayFields.properties).map((name): Parameter => ({ name, in: 'query', schema: { type: 'string' } }))],
    body: {},
    hidden: true,
  },
  { method: 'POST', path: '/payments/sandbox/pay', parameters: [], body: { 'application/x-www-form-urlencoded': gatewayFields }, hidden: true },
  { method: 'GET', path: '/payments/sandbox/pay', parameters: [{ name: 'session', in: 'query', schema: { type: 'string' } }], body: {}, hidden: true },
  {
    method: 'GET',
    path: '/files/{uuid}/{name}',
    parameters: [
      { name: 'uuid', in: 'path', required: true, schema: { type: 'string' } },
      { name: 'name', in: 'path', required: true, schema: { type: 'string' } },
    ],
    body: {},
    hidden: true,
  },
);

// ---- generating a request -------------------------------------------------------------------------

const MALFORMED_JSON: (string | Buffer)[] = [
  '',
  ' ',
  '{',
  '}',
  '{"a":',
  '[1,2',
  'nul',
  '{"a":1,}',
  "{'a':1}",
  '{"a":1}{"b":2}',
  '{"a":1,"a":2}',
  '\u0000',
  'NaN',
  'Infinity',
  '{"a":NaN}',
  '{"a":-}',
  '{"a":01}',
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
  '{"a":"\\x41"}',
  '{"__proto__":{"isAdmin":true}}',
  '{"constructor":{"prototype":{"isAdmin":true}}}',
  '{"a":{"__proto__":{"x":1}}}',
  'null',
  'true',
  '0',
  '"a string"',
  '[]',
  '[{}]',
  Buffer.from([0xff, 0xfe, 0x7b, 0x7d]),
  Buffer.from([0xc3, 0x28, 0x7b, 0x7d]),
  Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{}')]),
  Buffer.from('{"a":1}', 'utf16le'),
];
const WRONG_CONTENT_TYPES = [
  'text/plain',
  'text/plain; charset=utf-8',
  'application/x-www-form-urlencoded',
  'application/xml',
  'multipart/form-data',
  'multipart/form-data; boundary=xyz',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/json;;;',
  'APPLICATION/JSON',
  'application/merge-patch+json',
  'application/octet-stream',
  '*/*',
  'json',
  '',
  `application/${'x'.repeat(2000)}`,
];
/** 1 MiB is the JSON body limit (app.ts); these go beyond it. */
const OVERSIZED = fc.integer({ min: 1024 * 1024 + 1, max: 1280 * 1024 });

interface Body {
  contentType?: string;
  bytes?: Buffer;
  note: string;
}

function formOf(value: unknown): string {
  if (value === null || typeof value !== 'object' || value instanceof Raw) return encodeUrlPart(value);
  return Object.keys(value)
    .map((k) => `${encodeUrlPart(k)}=${encodeUrlPart((value as Record<string, unknown>)[k])}`)
    .join('&');
}

/** A JSON-ish value from a schema, then up to three mutations (sometimes none: valid input). */
function spoiled(schema: Schema | undefined): fc.Arbitrary<{ value: unknown; note: string }> {
  return fc.tuple(plausible(schema, dict), fc.array(mutation, { minLength: 0, maxLength: 3 })).map(([base, ms]) => {
    let value = base;
    for (const m of ms) value = mutate(value, m);
    return { value, note: ms.length ? ms.map((m) => m.kind).join('+') : 'plausible' };
  });
}

function bodyFor(op: Operation): fc.Arbitrary<Body> {
  const types = Object.keys(op.body);
  const options: fc.Arbitrary<Body>[] = [];
  const json = op.body['application/json'];
  const form = op.body['application/x-www-form-urlencoded'];
  if (json || types.length === 0) {
    options.push(
      spoiled(json).map(({ value, note }) => ({
        contentType: 'application/json',
        bytes: Buffer.from(value === undefined ? '' : toJsonText(value)),
        note: `json ${note}`,
      })),
      spoiled(json).map(({ value, note }) => ({
        contentType: 'application/json',
        bytes: Buffer.from(value === undefined ? '' : toJsonText(value)),
        note: `json ${note}`,
      })),
    );
  }
  if (form)
    options.push(
      spoiled(form).map(({ value, note }) => ({ contentType: 'application/x-www-form-urlencoded', bytes: Buffer.from(formOf(value)), note: `form ${note}` })),
    );
  if (op.body['multipart/form-data']) {
    const schema = op.body['multipart/form-data'];
    options.push(
      fc
        .tuple(
          spoiled(schema),
          fc.constantFrom('png', 'bytes', 'empty', 'none'),
          fc.constantFrom('a.png', '../../x.png', 'a\u0000.png', '\u202egnp.exe', 'x'.repeat(600), ''),
        )
        .map(([{ value, note }, file, name]) => {
          const f = new FormData();
          if (value && typeof value === 'object' && !(value instanceof Raw)) {
            for (const k of Object.keys(value)) {
              const v = (value as Record<string, unknown>)[k];
              if (k !== 'file') f.append(k, typeof v === 'string' ? v : toJsonText(v));
            }
          }
          if (file !== 'none')
            f.append('file', new Blob([file === 'png' ? pngBytes() : file === 'bytes' ? Buffer.from('%PDF-not really\u0000') : Buffer.alloc(0)]), name);
          const r = new Response(f);
          return { contentType: r.headers.get('content-type') ?? '', bytes: undefined as Buffer | undefined, note: `multipart ${note} file=${file}`, form: r };
        })
        .map(({ form, ...rest }) => ({ ...rest, formPromise: form }) as Body & { formPromise?: Response }),
      fc.constantFrom('multipart/form-data', 'multipart/form-data; boundary=', 'multipart/form-data; boundary=abc').map((contentType) => ({
        contentType,
        bytes: Buffer.from('--abc\r\nContent-Disposition: form-data; name="file"\r\n\r\nxx'),
        note: 'broken multipart',
      })),
    );
  }
  if (op.body['application/octet-stream']) {
    options.push(fc.uint8Array({ maxLength: 2048 }).map((a) => ({ contentType: 'application/octet-stream', bytes: Buffer.from(a), note: 'octets' })));
  }
  // Whatever the endpoint takes: malformed JSON, wrong content types, oversized bodies, none.
  options.push(
    fc
      .constantFrom(...MALFORMED_JSON)
      .map((b) => ({ contentType: 'application/json', bytes: Buffer.isBuffer(b) ? b : Buffer.from(b), note: 'malformed json' })),
    fc
      .tuple(fc.constantFrom(...WRONG_CONTENT_TYPES), spoiled(json))
      .map(([contentType, { value }]) => ({ contentType, bytes: Buffer.from(toJsonText(value ?? {})), note: `content-type ${contentType.slice(0, 40)}` })),
    OVERSIZED.map((n) => ({ contentType: 'application/json', bytes: Buffer.from(`{"a":"${'x'.repeat(n)}"}`), note: `oversized ${n}` })),
    fc.constant({ note: 'no body' }),
  );
  return fc.oneof(...options);
}

function paramValue(p: Parameter): fc.Arbitrary<{ text: string; note: string }> {
  return fc.oneof(
    { weight: 4, arbitrary: plausible(p.schema, dict).map((v) => ({ text: encodeUrlPart(v), note: 'plausible' })) },
    { weight: 2, arbitrary: hostileString.map((v) => ({ text: encodeUrlPart(v.slice(0, 3000)), note: 'hostile string' })) },
    { weight: 1, arbitrary: hostileNumber.map((v) => ({ text: encodeUrlPart(v), note: 'hostile number' })) },
    { weight: 2, arbitrary: fc.constantFrom(...RAW_URL_PIECES).map((v) => ({ text: v, note: 'raw url piece' })) },
  );
}

function queryFor(op: Operation): fc.Arbitrary<{ text: string; note: string }> {
  const qs = op.parameters.filter((p) => p.in === 'query');
  const schema: Schema = {
    type: 'object',
    properties: Object.fromEntries(qs.map((p) => [p.name, p.schema ?? {}])),
    required: qs.filter((p) => p.required).map((p) => p.name),
  };
  const encoded = spoiled(schema).map(({ value, note }) => {
    if (value === null || typeof value !== 'object' || value instanceof Raw || Array.isArray(value))
      return { text: `?${encodeUrlPart(value)}`, note: `query ${note}` };
    const parts: string[] = [];
    for (const k of Object.keys(value)) {
      const v = (value as Record<string, unknown>)[k];
      if (Array.isArray(v)) for (const x of v) parts.push(`${encodeUrlPart(k)}=${encodeUrlPart(x)}`);
      else parts.push(`${encodeUrlPart(k)}=${encodeUrlPart(v)}`);
    }
    return { text: parts.length ? `?${parts.join('&')}` : '', note: `query ${note}` };
  });
  return fc.oneof({ weight: 4, arbitrary: encoded }, { weight: 1, arbitrary: fc.constantFrom(...RAW_QUERIES).map((text) => ({ text, note: 'raw query' })) });
}

const MAX_URL = 12_000;

const AUTHS = ['guest', 'customer', 'customer', 'customer', 'garbage token', 'garbage cookie', 'no api key'] as const;
/** The back office's operations: most cases as the owner, the rest refused before their input is read. */
const ADMIN_AUTHS = ['owner', 'owner', 'owner', 'owner', 'guest', 'customer', 'garbage cookie', 'no api key'] as const;
type Auth = (typeof AUTHS)[number] | (typeof ADMIN_AUTHS)[number];

/**
 * Back-office operations never sent as the owner, because what they do would break the rest
 * of the run: they are still sent without a session (401) by the cases, and left out of the
 * bursts at the end.
 */
const OWNER_SKIPPED: Record<string, string> = {
  // Signs the owner out: every later case as the owner would start with a new sign-in.
  'DELETE /api/admin/session': 'signs the owner out',
  // Disables or demotes any member by id, the owner itself among them (the shop's last owner is kept, but another owner's session is not).
  'PATCH /api/admin/staff/{id}': 'disables or demotes members, the owner among them',
  // The owner's own two-factor sign-in: owners must keep it on, and a new secret would end the owner's sign-ins.
  'POST /api/admin/two-factor/setup': 'starts a new two-factor secret for the owner',
  'POST /api/admin/two-factor/enable': 'turns on a new two-factor secret for the owner',
  'POST /api/admin/two-factor/disable': 'turns off the owner’s two-factor sign-in',
};
const isAdminOp = (op: Operation) => op.path.startsWith('/api/admin');
const asOwnerToo = (op: Operation) => isAdminOp(op) && !(`${op.method} ${op.path}` in OWNER_SKIPPED);
const GARBAGE_TOKENS = ['', 'x', 'null', '\u00ff'.repeat(300), 'a'.repeat(5000), "' or 1=1 --", '../../', '%00'];
const GARBAGE_FORWARDED = ['unknown', '', '::1, 10.0.0.1', '999.999.999.999', 'x'.repeat(400), '10.0.0.1, 10.0.0.2, 10.0.0.3, 10.0.0.4, 10.0.0.5'];

interface Case {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  formPromise?: Response;
  auth: Auth;
  note: string;
}

function caseFor(op: Operation): fc.Arbitrary<Case> {
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const params = fc.tuple(...pathParams.map(paramValue));
  return fc
    .record({
      params: pathParams.length ? params : fc.constant([] as { text: string; note: string }[]),
      query: queryFor(op),
      body: bodyFor(op),
      auth: fc.constantFrom<Auth>(...(asOwnerToo(op) ? ADMIN_AUTHS : AUTHS)),
      garbage: fc.constantFrom(...GARBAGE_TOKENS),
      forwarded: fc.option(fc.constantFrom(...GARBAGE_FORWARDED), { freq: 8 }),
      cookie: fc.option(fc.constantFrom('currency=%ZZ', 'order_access=x:y;order_access=%ZZ', `order_access=${'INV-1:a,'.repeat(200)}`, 'sid=', 'a=b; =; ;;'), {
        freq: 6,
      }),
    })
    .map(({ params, query, body, auth, garbage, forwarded, cookie }) => {
      let i = 0;
      const path = op.path.replace(/\{[^}]+\}/g, () => (params[i++]?.text ?? 'x').slice(0, 3000));
      const headers: Record<string, string> = { accept: 'application/json', 'x-forwarded-for': forwarded ?? uniqueIp() };
      if (auth !== 'no api key') headers['x-api-key'] = TEST_API_KEY;
      if (auth === 'customer') headers['x-auth-token'] = customer.token;
      if (auth === 'garbage token') headers['x-auth-token'] = garbage;
      // The owner's cookie is put in when the case is sent (ensureOwner may have signed in anew).
      const cookies = [
        auth === 'garbage cookie' ? `sid=${encodeUrlPart(garbage)}; admin_sid=${encodeUrlPart(garbage)}` : '',
        auth === 'owner' ? 'admin_sid=owner' : '',
        cookie ?? '',
      ].filter(Boolean);
      if (cookies.length) headers.cookie = cookies.join('; ');
      if (body.contentType !== undefined) headers['content-type'] = body.contentType;
      const formPromise = (body as { formPromise?: Response }).formPromise;
      const note = [auth, ...params.map((p, k) => `${pathParams[k].name}:${p.note}`), query.note, body.note].join(' | ');
      // Node refuses request heads over 16 KB itself (431); beyond that, a longer URL tests
      // nothing new and only slows the run. The cut may split a %XX escape: hostile too.
      const url = query.note === 'raw query' ? `${path.slice(0, MAX_URL)}${query.text}` : `${path}${query.text}`.slice(0, MAX_URL);
      const c: Case = { method: op.method, path: url, headers, body: body.bytes, formPromise, auth, note };
      // fast-check prints a failing case with this: short enough to read, enough to rebuild it.
      Object.defineProperty(c, fc.toStringMethod, { value: () => describeCase(c) });
      return c;
    });
}

function clip(s: string, n = 160): string {
  return s.length > n ? `${s.slice(0, n)}…(${s.length} chars)` : s;
}

function describeCase(c: Case): string {
  const body = c.formPromise ? '(multipart form)' : c.body ? JSON.stringify(clip(c.body.toString('latin1'), 200)) : '(none)';
  const headers = Object.entries(c.headers)
    .map(([k, v]) => `${k}: ${clip(v, 80)}`)
    .join('; ');
  return `${c.method} ${clip(c.path, 200)} {${headers}} body ${body} [${c.note}]`;
}

// ---- judging an answer ---------------------------------------------------------------------------

/** What is wrong with an answer, or null. */
function problem(op: Operation, res: RawAnswer): string | null {
  if (res.status >= 500) return `answered ${res.status}: ${res.text.slice(0, 300)}`;
  if (res.status < 200) return `answered ${res.status}`;
  if (res.status < 400) return null;
  const type = String(res.headers['content-type'] ?? '');
  // The gateway's pages answer the payer's browser with a page, not JSON.
  if (op.hidden && type.startsWith('text/html')) return null;
  if (!type.startsWith('application/json')) return `a ${res.status} that is not JSON (${type || 'no content type'}): ${res.text.slice(0, 200)}`;
  let body: any;
  try {
    body = JSON.parse(res.text);
  } catch {
    return `a ${res.status} whose JSON does not parse: ${res.text.slice(0, 200)}`;
  }
  const e = body?.error;
  const shapeOk =
    body &&
    typeof body === 'object' &&
    Object.keys(body).join() === 'error' &&
    e &&
    typeof e.code === 'string' &&
    typeof e.message === 'string' &&
    e.message.length > 0 &&
    Object.keys(e).every((k) => ['code', 'message', 'fields'].includes(k)) &&
    (e.fields === undefined || (typeof e.fields === 'object' && Object.values(e.fields).every((v) => typeof v === 'string')));
  if (!shapeOk) return `a ${res.status} not in the one error shape: ${res.text.slice(0, 300)}`;
  if (/\n\s+at |node_modules|FST_ERR/.test(e.message)) return `a ${res.status} leaking internals: ${e.message.slice(0, 300)}`;
  return null;
}

async function send(c: Case): Promise<RawAnswer> {
  let body = c.body;
  const headers = { ...c.headers };
  if (c.formPromise) {
    body = Buffer.from(await c.formPromise.clone().arrayBuffer());
    headers['content-type'] = c.formPromise.headers.get('content-type') ?? headers['content-type'];
  }
  return rawSend(t.baseUrl, { method: c.method, path: c.path, headers, body }, TIMEOUT_MS);
}

async function healthy(): Promise<boolean> {
  try {
    const res = await rawSend(t.baseUrl, { method: 'GET', path: '/api/health' }, TIMEOUT_MS);
    return res.status === 200;
  } catch {
    return false;
  }
}

/** A seed of its own per operation, from the run's seed: one operation replays alone. */
function seedOf(op: Operation): number {
  let h = SEED | 0;
  for (const ch of `${op.method} ${op.path}`) h = (Math.imul(h, 31) + ch.charCodeAt(0)) | 0;
  return h;
}

describe(`every operation of the OpenAPI document under hostile input (seed ${SEED})`, () => {
  it('the document lists the API (the fuzz has something to walk)', () => {
    expect(operations.filter((o) => !o.hidden).length).toBeGreaterThan(20);
  });

  for (const op of operations) {
    it(`${op.method} ${op.path} answers hostile input with a 4xx in the error shape, never a 5xx or a hang`, {
      timeout: 60_000 + RUNS * TIMEOUT_MS,
    }, async () => {
      const seed = seedOf(op);
      let lastNote = '';
      try {
        await fc.assert(
          fc.asyncProperty(caseFor(op), async (c) => {
            lastNote = c.note;
            if (c.auth === 'customer') await ensureSession();
            if (c.auth === 'customer') c.headers['x-auth-token'] = customer.token;
            if (c.auth === 'owner') {
              await ensureOwner();
              c.headers.cookie = (c.headers.cookie ?? '').replace(/admin_sid=[^;]*/, owner.headers.cookie);
            }
            let res: RawAnswer;
            try {
              res = await send(c);
            } catch (err) {
              if (err instanceof NoAnswerError) throw new Error(`hang: ${err.message}\n  request: ${describeCase(c)}`);
              throw new Error(`no answer (${(err as Error).message})\n  request: ${describeCase(c)}`);
            }
            if (res.status >= 200 && res.status < 300 && String(res.headers['content-type'] ?? '').startsWith('application/json')) {
              try {
                harvest(JSON.parse(res.text));
              } catch {
                // not for the dictionary
              }
            }
            if (c.auth === 'customer' && (res.status === 401 || (c.method !== 'GET' && res.status < 300))) sessionInDoubt = true;
            if (c.auth === 'owner' && res.status === 401) ownerInDoubt = true;
            const wrong = problem(op, res);
            if (wrong) throw new Error(`${wrong}\n  request: ${describeCase(c)}`);
          }),
          { seed, numRuns: RUNS, endOnFailure: process.env.FUZZ_SHRINK !== '1', includeErrorInReport: true },
        );
      } catch (err) {
        throw new Error(`${(err as Error).message}\n(run seed ${SEED}: replay with FUZZ_SEED=${SEED}; last case: ${lastNote})`);
      }
      expect(await healthy(), `the server stopped answering its health check after ${op.method} ${op.path}`).toBe(true);
    });
  }

  it('the server still serves after the whole run', async () => {
    expect(await healthy()).toBe(true);
    // A product still published: the owner's cases may have archived or unpublished any other.
    const published = await t.db.kysely.selectFrom('products').select('id').where('status', '=', 'published').orderBy('id').executeTakeFirstOrThrow();
    const res = await t.api(`/api/v3/items/joined?id=${published.id}`);
    expect(res.status).toBe(200);
  });
});

// Found by this fuzz on PostgreSQL (which cannot store U+0000; SQLite silently did): kept
// as plain cases so that they never come back, whatever the seed.
describe('cases the fuzz found', () => {
  it('NUL characters in a query, a path or a body answer 400 on every database', async () => {
    const { expectApiError } = await import('./helpers/assertions.ts');
    expectApiError(await t.api('/api/kvps?keys=%00%00'), 400, 'validation_error');
    expectApiError(await t.api('/api/files/a%00b'), 400, 'validation_error');
    expectApiError(await t.api('/api/carts/quote', { method: 'POST', json: { lines: [{ skuCode: 'A\u0000', quantity: 1 }] } }), 400, 'validation_error');
    expectApiError(
      await t.api('/api/contact', {
        method: 'POST',
        json: { client_name: 'N\u0000', client_email: 'a@example.com', client_subject: 's', client_message: 'm' },
      }),
      400,
      'validation_error',
    );
  });
  it('an id beyond the 32-bit range answers 400, not a database error', async () => {
    const { expectApiError } = await import('./helpers/assertions.ts');
    expectApiError(await t.api('/api/sales?id=2147483648', { headers: customer.auth }), 400);
    expectApiError(
      await t.api('/api/checkouts', {
        method: 'POST',
        json: { items: [{ skuCode: 'A', quantity: 1 }], paymentMethod: 'cod', deliveryMethod: 'home_delivery', addressId: 2 ** 31 },
        headers: customer.auth,
      }),
      400,
    );
  });
  it('every paged search refuses filter and sort fields named after Object.prototype with a 400', async () => {
    const { expectApiError } = await import('./helpers/assertions.ts');
    const searches = operations.filter((o) => JSON.stringify(o.body['application/json']?.properties ?? {}).includes('"sortParams"'));
    expect(searches.length).toBeGreaterThan(5);
    for (const op of searches) {
      for (const body of [
        { textParams: [{ field: 'toString', value: 1 }] },
        { sortParams: [{ field: '__proto__' }] },
        { sortParams: [{ field: 'constructor' }] },
      ]) {
        const res = await t.api(op.path, { method: op.method, json: body, headers: customer.auth });
        expectApiError(res, 400);
      }
    }
  });
  it('a malformed multipart form answers 400', async () => {
    const { expectApiError } = await import('./helpers/assertions.ts');
    // A customer of its own: the fuzz above may have spent the first one's upload burst,
    // and a throttled upload is refused (429) before its body is read.
    const fresh = await newCustomer();
    for (const type of ['multipart/form-data', 'multipart/form-data; boundary=', 'multipart/form-data; boundary=abc']) {
      expectApiError(
        await t.api('/api/files', {
          method: 'POST',
          body: '--abc\r\nContent-Disposition: form-data; name="file"\r\n\r\nxx',
          headers: { 'content-type': type, ...fresh.auth },
        }),
        400,
      );
    }
  });
  it('a day that is no calendar day answers 400 where the back office takes one (the cash of an order)', async () => {
    const { expectApiError } = await import('./helpers/assertions.ts');
    await ensureOwner();
    for (const collectedOn of ['0751-59-13', '2026-02-30']) {
      const res = await t.api('/api/admin/orders/1/cash', { method: 'POST', json: { amount: 100, collectedOn }, headers: owner.headers });
      expectApiError(res, 400, 'validation_error');
      expect(res.body.error.fields).toHaveProperty('collectedOn');
    }
  });
  it('a GET with a body answers 400 before its handler, even one whose answer is large (the catalogue export)', async () => {
    await ensureOwner();
    const body = Buffer.from(JSON.stringify({ a: 'x'.repeat(1024 * 1024 + 10) }));
    const res = await rawSend(
      t.baseUrl,
      {
        method: 'GET',
        path: '/api/admin/products/export',
        headers: { 'x-api-key': TEST_API_KEY, 'content-type': 'application/json', cookie: owner.headers.cookie },
        body,
      },
      TIMEOUT_MS,
    );
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text).error.code).toBe('bad_request');
  });
  it('a broken percent-escape in a path and an oversized request head answer in the error shape', async () => {
    const { expectApiError } = await import('./helpers/assertions.ts');
    expectApiError(await t.api('/api/files/%ZZ'), 400, 'bad_request');
    const res = await rawSend(t.baseUrl, { method: 'GET', path: `/api/kvps?q=${'a'.repeat(20_000)}` }, 10_000);
    expect(res.status).toBe(431);
    expect(JSON.parse(res.text)).toEqual({ error: { code: 'headers_too_large', message: expect.any(String) } });
  });
});

// Own keys named __proto__ must reach the server as keys (not as a prototype): this checks
// the generator itself, so a passing fuzz means what it says.
describe('the hostile generators', () => {
  it('write __proto__ as an own key and raw numbers as they are', () => {
    expect(toJsonText(ownKeys([['__proto__', { x: 1 }]]))).toBe('{"__proto__":{"x":1}}');
    expect(toJsonText({ a: new Raw('1e400') })).toBe('{"a":1e400}');
    expect(encodeUrlPart('\ud800')).toBe('%ED%A0%80');
  });
});

// ---- sweeps: every JSON type at every field, every filter and sort of every paged search -------
//
// The random cases above reach a given field with a given JSON type only by luck, and a
// filter on a real field name almost never: the names of a search's filter fields are in no
// schema, only in its prose. So a boolean filter on a text column (which SQLite's driver
// cannot bind) or a text match on an integer column (lower(integer) does not exist in
// PostgreSQL) went unseen. These sweeps leave nothing to luck:
//  - every field of every body (nested ones, array items) gets a value of every JSON type
//    (JSON_KINDS: strings, small, negative, fractional and huge numbers, booleans, null,
//    arrays, objects), the rest of the body plausible;
//  - every paged search (a body with textParams and sortParams) is asked which filter and
//    sort fields it knows: the candidates are the names in its prose and in its answer's
//    schema, and a field is known when the server does not call it unknown. Then every
//    known filter field gets every match type with a value of every JSON type, and every
//    known sort field is sorted on both ways.
// One round of each by default; FUZZ_RUNS=n runs about n/30 rounds, each picking other values.
// They come last in the file: the uploads they start as the customer use up its upload
// throttle (a 429), which the cases above do not expect.

const ROUNDS = Math.max(1, Math.round(RUNS / 30));
const MATCH_TYPES = ['EXACT', 'IN', 'CONTAINS', 'STARTS_WITH'] as const;

/** A small seeded generator (mulberry32): the sweeps replay with FUZZ_SEED as the cases do. */
function randomOf(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)];
  return { next, pick, int: (n: number) => Math.floor(next() * n) };
}
type Random = ReturnType<typeof randomOf>;

interface SweepRequest {
  path: string;
  body: string;
  contentType: string;
  auth: 'customer' | 'guest';
  note: string;
}
interface SweepAnswer {
  status: number;
  /** The parsed JSON answer, when it is JSON. */
  json: any;
  text: string;
  problem: string | null;
}

/**
 * One request of a sweep, over a kept-alive connection (the sweeps send thousands of small
 * requests; the raw client above opens a connection each). Answers are judged as above.
 */
async function sweepSend(op: Operation, r: SweepRequest, changes: boolean): Promise<SweepAnswer> {
  if (r.auth === 'customer') await ensureSession();
  const headers: Record<string, string> = { 'content-type': r.contentType, 'x-forwarded-for': uniqueIp() };
  if (r.auth === 'customer') headers['x-auth-token'] = customer.token;
  const request = `${op.method} ${clip(r.path, 200)} as ${r.auth}, body ${clip(r.body, 300)} [${r.note}]`;
  let res: Response;
  let text: string;
  try {
    res = await fetch(`${t.baseUrl}${r.path}`, {
      method: op.method,
      body: r.body,
      headers: { ...headers, accept: 'application/json', 'x-api-key': TEST_API_KEY },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    text = await res.text();
  } catch (err) {
    return { status: 0, json: undefined, text: '', problem: `no answer in ${TIMEOUT_MS} ms (${(err as Error).message})\n  request: ${request}` };
  }
  if (r.auth === 'customer' && (res.status === 401 || (changes && res.status < 300))) sessionInDoubt = true;
  const type = res.headers.get('content-type') ?? '';
  let json: any;
  if (type.startsWith('application/json')) {
    try {
      json = JSON.parse(text);
    } catch {
      // problem() says so
    }
  }
  const wrong = problem(op, { status: res.status, headers: type ? { 'content-type': type } : {}, text, ms: 0 });
  return { status: res.status, json, text, problem: wrong && `${wrong}\n  request: ${request}` };
}

/** Path and required query parameters filled with plausible values (real ids where known). */
function urlOf(op: Operation, rnd: Random): string {
  const sample = (s: Schema | undefined) => fc.sample(plausible(s, dict), { seed: rnd.int(2 ** 31), numRuns: 1 })[0];
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeUrlPart(sample(op.parameters.find((p) => p.in === 'path' && p.name === name)?.schema) ?? 'x'),
  );
  const query = op.parameters
    .filter((p) => p.in === 'query' && (p.required || rnd.next() < 0.3))
    .map((p) => `${encodeUrlPart(p.name)}=${encodeUrlPart(sample(p.schema))}`);
  return query.length ? `${path}?${query.join('&')}` : path;
}

/** Fails with every problem a sweep met (a few of them in full), then checks the server is up. */
async function judge(op: Operation, problems: string[], sent: number) {
  if (problems.length) {
    const shown = problems.slice(0, 8).join('\n\n');
    throw new Error(`${problems.length} of ${sent} requests went wrong (run seed ${SEED}: replay with FUZZ_SEED=${SEED}):\n\n${shown}`);
  }
  expect(await healthy(), `the server stopped answering its health check after ${op.method} ${op.path}`).toBe(true);
}

const SWEEP_TIMEOUT_MS = 120_000 * ROUNDS;

describe(`every field of every body takes a value of every JSON type (seed ${SEED})`, () => {
  const swept = operations.filter((op) => op.body['application/json'] || op.body['application/x-www-form-urlencoded']);

  it('the sweep has bodies to walk, nested fields among them', () => {
    expect(swept.length).toBeGreaterThan(20);
    expect(swept.some((op) => fieldPaths(op.body['application/json']).some((p) => p.length > 2))).toBe(true);
  });

  for (const op of swept) {
    const form = !op.body['application/json'];
    const schema = op.body['application/json'] ?? op.body['application/x-www-form-urlencoded'];
    const paths = fieldPaths(schema);
    it(`${op.method} ${op.path}: each of its ${paths.length} fields with every JSON type, never a 5xx`, { timeout: SWEEP_TIMEOUT_MS }, async () => {
      const seed = seedOf(op) ^ 0x5eed;
      const rnd = randomOf(seed);
      // Half the bodies have every field in place, so that the changed field is not the only one there.
      const bases = fc.sample(fc.oneof(plausible(schema, dict), plausible(filledSchema(schema), dict)), {
        seed,
        numRuns: Math.max(1, paths.length * JSON_KIND_NAMES.length * ROUNDS),
      });
      const problems: string[] = [];
      let sent = 0;
      for (let round = 0; round < ROUNDS; round++) {
        for (const at of paths) {
          for (const kind of JSON_KIND_NAMES) {
            const value = valueOf(kind, rnd, []);
            const body = setAt(bases[sent % bases.length], at, value);
            const answer = await sweepSend(
              op,
              {
                path: urlOf(op, rnd),
                body: form ? formOf(body) : toJsonText(body),
                contentType: form ? 'application/x-www-form-urlencoded' : 'application/json',
                auth: rnd.next() < 0.75 ? 'customer' : 'guest',
                note: `${at.join('.') || '(body)'} = ${kind}`,
              },
              true,
            );
            sent++;
            if (answer.problem) problems.push(answer.problem);
          }
        }
      }
      await judge(op, problems, sent);
    });
  }
});

/** A value of a JSON kind; strings and integers are often real ones (`real`, then the dictionary). */
function valueOf(kind: JsonKind, rnd: Random, real: unknown[]): unknown {
  if (kind === 'string') {
    const known = real.filter((v) => typeof v === 'string');
    const r = rnd.next();
    if (known.length && r < 0.4) return rnd.pick(known);
    if (dict.strings.length && r < 0.6) return rnd.pick(dict.strings);
    return rnd.pick(JSON_KINDS.string);
  }
  if (kind === 'integer') {
    const known = real.filter((v) => typeof v === 'number' && Number.isInteger(v));
    const r = rnd.next();
    if (known.length && r < 0.4) return rnd.pick(known);
    if (dict.integers.length && r < 0.6) return rnd.pick(dict.integers);
  }
  return rnd.pick(JSON_KINDS[kind]);
}

/** Values of each key in an answer's list (a search answers { list: [...] }): real values to filter on. */
function valuesByKey(v: unknown, out = new Map<string, unknown[]>(), depth = 0): Map<string, unknown[]> {
  if (depth > 3 || v === null || typeof v !== 'object') return out;
  if (Array.isArray(v)) for (const x of v.slice(0, 20)) valuesByKey(x, out, depth + 1);
  else {
    for (const [k, x] of Object.entries(v)) {
      if (x !== null && typeof x !== 'object') {
        const list = out.get(k) ?? [];
        if (list.length < 20 && !list.includes(x)) list.push(x);
        out.set(k, list);
      } else valuesByKey(x, out, depth + 1);
    }
  }
  return out;
}

const isPagedSearch = (op: Operation) => {
  const props = op.body['application/json']?.properties ?? {};
  return !op.hidden && 'textParams' in props && 'sortParams' in props;
};

describe(`every paged search: every filter field with every match type and JSON type, every sort field (seed ${SEED})`, () => {
  const searches = operations.filter(isPagedSearch);
  const sharedNames = new Set(searches.flatMap((op) => (op.prose ?? '').match(/\b[a-z]+[A-Z][A-Za-z0-9]*\b/g) ?? []));
  const foundOnSearches = new Set<string>();

  it('there are paged searches to sweep', () => {
    expect(searches.length).toBeGreaterThan(5);
  });

  for (const op of searches) {
    it(`${op.method} ${op.path}: filters and sorts on every field it knows, never a 5xx`, { timeout: SWEEP_TIMEOUT_MS }, async () => {
      const rnd = randomOf(seedOf(op) ^ 0xf117e5);
      const problems: string[] = [];
      let sent = 0;
      const search = async (body: Record<string, unknown>, note: string) => {
        const answer = await sweepSend(op, { path: urlOf(op, rnd), body: toJsonText(body), contentType: 'application/json', auth: 'customer', note }, false);
        sent++;
        if (answer.problem) problems.push(answer.problem);
        return answer;
      };

      // Real values to filter on: what the search answers unfiltered.
      const real = valuesByKey((await search({ size: 20 }, 'unfiltered')).json);
      // Candidate names: the prose, the answer's schema, and what the server says when asked
      // for a field it does not know (an error may list the ones it does).
      const words = (text: string) => text.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? [];
      // Searches share filters (the full-text search takes every filter of the listing, its
      // prose says): names in code style from every search's prose and the fields found on
      // the searches before this one are candidates too.
      const candidates = new Set([...words(op.prose ?? ''), ...propertyNames(op.answer), ...real.keys(), ...sharedNames, ...foundOnSearches]);
      for (const probe of [{ textParams: [{ field: 'noSuchField', value: 'x' }] }, { sortParams: [{ field: 'noSuchField' }] }]) {
        for (const w of words((await search(probe, 'an unknown field')).text)) candidates.add(w);
      }
      candidates.delete('noSuchField');
      // Known: answered, or refused for a reason about this field ("field: why", as the API
      // words a field's error) other than that it is unknown.
      const known = (a: SweepAnswer, field: string) =>
        a.status < 400 ||
        a.status >= 500 ||
        Object.values<unknown>(a.json?.error?.fields ?? {}).some((why) => typeof why === 'string' && why.startsWith(`${field}:`) && !/unknown/i.test(why));
      const filters: string[] = [];
      const sorts: string[] = [];
      for (const c of candidates) {
        // A plain value: a real one, or one that a text field takes and any other refuses by name.
        const value = (real.get(c) ?? []).find((v) => typeof v === 'string' || typeof v === 'number') ?? 'x';
        if (known(await search({ textParams: [{ field: c, value }] }, `is ${c} a filter field?`), c)) filters.push(c);
        if (known(await search({ sortParams: [{ field: c }] }, `is ${c} a sort field?`), c)) sorts.push(c);
      }

      for (const f of [...filters, ...sorts]) foundOnSearches.add(f);
      /** Sometimes another filter with a real value (a search may need one, such as itemId), a sort, a count. */
      const around = (except: string) => {
        const extra: Record<string, unknown> = { fetchCount: rnd.next() < 0.5, size: 1 + rnd.int(5), page: 1 + rnd.int(3) };
        const others = filters.filter((f) => f !== except && (real.get(f) ?? []).length);
        const other = others.length && rnd.next() < 0.5 ? rnd.pick(others) : undefined;
        const textParams = other ? [{ field: other, value: rnd.pick(real.get(other)!), matchType: 'EXACT' }] : [];
        const sortParams = sorts.length && rnd.next() < 0.5 ? [{ field: rnd.pick(sorts), type: rnd.pick(['ASC', 'DESC']) }] : [];
        return { extra, textParams, sortParams };
      };

      for (let round = 0; round < ROUNDS; round++) {
        for (const field of filters) {
          for (const matchType of MATCH_TYPES) {
            for (const kind of JSON_KIND_NAMES) {
              const value = valueOf(kind, rnd, real.get(field) ?? []);
              const { extra, textParams, sortParams } = around(field);
              await search({ ...extra, textParams: [{ field, value, matchType }, ...textParams], sortParams }, `filter ${field} ${matchType} ${kind}`);
            }
          }
        }
        for (const field of sorts) {
          for (const type of ['ASC', 'DESC']) {
            const { extra, textParams } = around(field);
            await search({ ...extra, textParams, sortParams: [{ field, type }] }, `sort ${field} ${type}`);
          }
        }
      }
      await judge(op, problems, sent);
      // The sweep means something only if it found the fields (the prose names them all).
      expect(filters.length, `no filter field of ${op.path} found among ${[...candidates].join(', ')}`).toBeGreaterThan(0);
    });
  }
});

// ---- bursts: every back-office write ten times at once, as the owner --------------------------
//
// A check in a service ("is this slug taken?") then an insert passes for every request of a
// burst on PostgreSQL: only a unique index keeps the rule, and the service must answer its
// refusal with a 409, not a 500 (docs/decisions/0052). So each write of the back office is
// sent ten times at once: once with ten identical bodies, once with ten near-identical ones
// (the same values in the fields that unique indexes cover, other text changed). The bodies
// are made from what the back office's own lists and pages answer (a record restricted to the
// body's fields is, most often, a valid body), with the values of unique fields made new, so
// that the ten race for a value nobody has yet. Afterwards, no unique index of the database
// may hold two rows with one value.

const BURST = 10;
/** Multipart bodies (a file) have no record to be made from: the cases above send them. */
const burstable = (op: Operation) => asOwnerToo(op) && op.method !== 'GET' && !op.body['multipart/form-data'];

interface UniqueIndex {
  table: string;
  name: string;
  /** The indexed columns or expressions, as SQL. */
  keys: string[];
  /** A partial index's condition, as SQL. */
  where: string | null;
}

/** The text inside the parentheses that open at `open`, and where they close. */
function inParens(text: string, open: number): { inner: string; end: number } {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return { inner: text.slice(open + 1, i), end: i };
  }
  throw new Error(`unbalanced: ${text}`);
}

/** Splits "a, upper(b), c" at its top-level commas. */
function topLevel(list: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    if (list[i] === '(') depth++;
    else if (list[i] === ')') depth--;
    else if (list[i] === ',' && depth === 0) {
      out.push(list.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(list.slice(start).trim());
  return out.filter(Boolean);
}

/** Every unique index of the database (primary keys and unique constraints among them), read from its catalogue. */
async function uniqueIndexes(): Promise<UniqueIndex[]> {
  const { sql } = await import('kysely');
  const k = t.db.kysely;
  const out: UniqueIndex[] = [];
  if (t.dialect === 'postgres') {
    const rows = await sql<{ tablename: string; indexname: string; indexdef: string }>`
      select tablename, indexname, indexdef from pg_indexes where schemaname = current_schema() and indexdef like 'CREATE UNIQUE INDEX%'`.execute(k);
    for (const r of rows.rows) {
      const using = r.indexdef.indexOf('(', r.indexdef.indexOf(' USING '));
      const { inner, end } = inParens(r.indexdef, using);
      const rest = r.indexdef.slice(end + 1).trim();
      out.push({ table: r.tablename, name: r.indexname, keys: topLevel(inner), where: rest.startsWith('WHERE') ? rest.slice(5).trim() : null });
    }
    return out;
  }
  const tables = await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(k);
  for (const { name: table } of tables.rows) {
    const list = await sql<{ name: string; unique: number; origin: string }>`select * from pragma_index_list(${table})`.execute(k);
    for (const ix of list.rows.filter((x) => Number(x.unique) === 1)) {
      const def = (await sql<{ sql: string | null }>`select sql from sqlite_master where type = 'index' and name = ${ix.name}`.execute(k)).rows[0]?.sql;
      if (def) {
        const on = def.search(/\bon\s/i);
        const { inner, end } = inParens(def, def.indexOf('(', on));
        const rest = def.slice(end + 1).trim();
        out.push({ table, name: ix.name, keys: topLevel(inner), where: /^where\s/i.test(rest) ? rest.slice(5).trim() : null });
      } else {
        // A PRIMARY KEY or UNIQUE constraint's own index: its columns by name.
        const cols = await sql<{ name: string }>`select name from pragma_index_info(${ix.name}) order by seqno`.execute(k);
        out.push({ table, name: ix.name, keys: cols.rows.map((c) => `"${c.name}"`), where: null });
      }
    }
  }
  return out;
}

/** Groups of rows that share one value of a unique index (rows with a null in it never clash). */
async function duplicatesOf(ix: UniqueIndex): Promise<number> {
  const { sql } = await import('kysely');
  const keys = ix.keys.join(', ');
  const notNull = ix.keys.map((key) => `(${key}) is not null`).join(' and ');
  const where = ix.where ? `(${ix.where}) and ${notNull}` : notNull;
  const q = `select count(*) as n from (select 1 as one from "${ix.table}" where ${where} group by ${keys} having count(*) > 1) d`;
  const r = await sql<{ n: number | string }>`${sql.raw(q)}`.execute(t.db.kysely);
  return Number(r.rows[0]?.n ?? 0);
}

const camel = (s: string) => s.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** The body fields a unique index covers, by name (slug, code, email, modelCode, reference…). */
let uniqueFields = new Set<string>();

/** A JSON answer of a GET as the owner, or undefined. */
async function ownerJson(path: string): Promise<unknown> {
  await ensureOwner();
  const res = await fetch(`${t.baseUrl}${path}`, { headers: { accept: 'application/json', 'x-api-key': TEST_API_KEY, cookie: owner.headers.cookie } });
  if (res.status === 401) ownerInDoubt = true;
  if (!res.ok || !(res.headers.get('content-type') ?? '').startsWith('application/json')) return undefined;
  return res.json();
}

/** The objects in an answer: its items, their parts, and the answer itself. */
function recordsIn(v: unknown, out: Record<string, unknown>[] = [], depth = 0): Record<string, unknown>[] {
  if (depth > 4 || v === null || typeof v !== 'object') return out;
  if (Array.isArray(v)) for (const x of v.slice(0, 5)) recordsIn(x, out, depth + 1);
  else {
    out.push(v as Record<string, unknown>);
    for (const x of Object.values(v)) recordsIn(x, out, depth + 1);
  }
  return out;
}

/**
 * The reads of what a write changes: the GETs of its path and of every path above it (the
 * list, the group), and the GET of one item of those lists ("/x/{id}").
 */
function readsOf(op: Operation): Operation[] {
  const plain = op.path.replace(/\/\{[^}]+\}.*$/, '');
  const above: string[] = [];
  for (let p = plain; p.startsWith('/api/admin/'); p = p.slice(0, p.lastIndexOf('/'))) above.push(p);
  const gets = operations.filter((o) => o.method === 'GET' && !o.hidden);
  const lists = above.flatMap((p) => gets.filter((o) => o.path === p));
  const items = above.flatMap((p) => gets.filter((o) => new RegExp(`^${p.replace(/[.*+?^$()|[\]\\]/g, '\\$&')}/\\{[^}/]+\\}$`).test(o.path)));
  return [...lists, ...items, ...gets.filter((o) => o.path === op.path)];
}

/** Records the back office answers about what `op` writes: its lists, then some of their items in full. */
async function recordsFor(op: Operation, rnd: Random): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  const reads = readsOf(op);
  for (const read of reads.filter((r) => !r.path.includes('{'))) {
    // A list may need a query parameter (the content list: a kind): a few plausible ones.
    for (let i = 0; i < (read.parameters.some((p) => p.in === 'query' && p.required) ? 4 : 1); i++) recordsIn(await ownerJson(urlOf(read, rnd)), out);
  }
  // Whole items first: an item's page has more of a body's fields than its line in a list.
  const listed = out.filter((r) => r.id !== undefined || r.code !== undefined).slice(0, 2);
  const whole: Record<string, unknown>[] = [];
  for (const item of reads.filter((r) => r.path.includes('{'))) {
    for (const r of listed) {
      const path = item.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeUrlPart(r[name] ?? r.id ?? r.code));
      const answer = await ownerJson(path);
      if (answer && typeof answer === 'object' && !Array.isArray(answer)) whole.push(answer as Record<string, unknown>);
    }
  }
  return [...whole, ...out];
}

/** One alternative of a schema (the non-null one of "X or null"). */
function solid(s: Schema | undefined): Schema | undefined {
  const alternatives: Schema[] | undefined = s?.anyOf ?? s?.oneOf;
  return alternatives?.find((a) => a.type !== 'null') ?? s;
}

/**
 * A body of `schema` from a record the back office answered: the record's values where the
 * body has the field, plausible ones for the rest; null when the record has none of them.
 */
function asBody(record: Record<string, unknown>, schema: Schema, sampled: unknown): { body: Record<string, unknown>; overlap: number } | null {
  const props = solid(schema)?.properties ?? {};
  const body: Record<string, unknown> = sampled && typeof sampled === 'object' && !Array.isArray(sampled) ? { ...(sampled as Record<string, unknown>) } : {};
  let overlap = 0;
  for (const k of Object.keys(props)) {
    if (record[k] === undefined) continue;
    body[k] = record[k];
    overlap++;
  }
  return overlap ? { body, overlap } : null;
}

/** A new value of the same shape: an email, a slug, a code, three capitals (a currency), text. */
function anew(v: string, tag: string): string {
  if (/^[^@\s]+@[^@\s]+$/.test(v)) return `${tag}.${v}`;
  if (/^[A-Z]{1,4}$/.test(v)) return [...v].map((_, i) => String.fromCharCode(65 + ((tag.charCodeAt(i % tag.length) + i * 7) % 26))).join('');
  if (/^[\w.-]+$/.test(v)) return `${v.slice(0, 40)}-${/[A-Z]/.test(v) && !/[a-z]/.test(v) ? tag.toUpperCase() : tag}`;
  return `${v.slice(0, 60)} ${tag}`;
}

/**
 * The body with every value of a unique field made new, its kind kept (never a value the
 * schema lists). What a new thing is made of has no ids yet: a record's own ids are dropped.
 */
function freshened(v: unknown, s: Schema | undefined, tag: string, key = '', creating = false): unknown {
  const schema = solid(s);
  if (Array.isArray(v)) return v.map((x) => freshened(x, schema?.items, tag, key, creating));
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.entries(v)
        .filter(([k]) => !(creating && k === 'id'))
        .map(([k, x]) => [k, freshened(x, schema?.properties?.[k], tag, k, creating)]),
    );
  if (typeof v !== 'string' || !v || !uniqueFields.has(key) || schema?.enum || schema?.const !== undefined) return v;
  return anew(v, tag);
}

/** The same unique values; other text (a title, a name, a description) told apart by `i`. */
function nearly(v: unknown, s: Schema | undefined, i: number, key = ''): unknown {
  const schema = solid(s);
  if (Array.isArray(v)) return v.map((x) => nearly(x, schema?.items, i, key));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, nearly(x, schema?.properties?.[k], i, k)]));
  if (typeof v === 'string' && !uniqueFields.has(key) && !schema?.enum && / /.test(v) && v.length < 150) return `${v} (${i + 1})`;
  return v;
}

describe(`every back-office write ten times at once, as the owner (seed ${SEED})`, () => {
  const writes = operations.filter(burstable);
  let indexes: UniqueIndex[] = [];
  /** The writes whose bursts did something (a 2xx), and what each burst answered. */
  const took = new Set<string>();
  const answered = new Map<string, string>();

  // Read before any burst (a burst run alone, with -t, needs them too).
  beforeAll(async () => {
    indexes = await uniqueIndexes();
    // A column and, for a normalised copy (email_key), the field it is made from (email).
    // Indexes of one or two keys: a wider one (a saved address) is no field's own rule.
    const columns = indexes
      .filter((ix) => ix.keys.length <= 2)
      .flatMap((ix) => ix.keys.flatMap((key) => (key.match(/[a-z_]+/g) ?? []).filter((w) => !['upper', 'lower'].includes(w))));
    uniqueFields = new Set(columns.flatMap((c) => [camel(c), camel(c.replace(/_key$/, ''))]));
  });

  it('there are back-office writes to race, and unique indexes to hold them', () => {
    expect(writes.length).toBeGreaterThan(30);
    expect(indexes.length).toBeGreaterThan(30);
    for (const f of ['slug', 'code', 'email', 'modelCode', 'reference']) expect(uniqueFields, f).toContain(f);
  });

  for (const op of writes) {
    it(`${op.method} ${op.path}: ten identical and ten near-identical at once, never a 5xx`, { timeout: 120_000 }, async () => {
      const rnd = randomOf(seedOf(op) ^ 0xb0057);
      const schema = op.body['application/json'] ?? op.body['application/x-www-form-urlencoded'];
      const records = await recordsFor(op, rnd);
      const sampled = schema ? fc.sample(plausible(filledSchema(schema), dict), { seed: rnd.int(2 ** 31), numRuns: 1 })[0] : undefined;
      // The record that fills most of the body; its id names the item in the path.
      const fitting = schema
        ? records
            .map((record) => ({ record, made: asBody(record, schema, sampled) }))
            .filter((x) => x.made)
            .sort((a, b) => (b.made?.overlap ?? 0) - (a.made?.overlap ?? 0))
        : [];
      // Among the records that fill as much, up to three in an order the seed picks (an article
      // one run, a slider the next): the next is tried when one made nothing (a page, whose
      // slugs are fixed, cannot be made anew).
      const most = fitting.filter((x) => x.made?.overlap === fitting[0]?.made?.overlap);
      const order = most.map((x) => ({ x, k: rnd.next() })).sort((a, b) => a.k - b.k);
      const tries = order.length ? order.slice(0, 3).map(({ x }) => x) : [undefined];
      const problems: string[] = [];
      let sent = 0;
      for (const [attempt, best] of tries.entries()) {
        const record = best?.record ?? records.find((r) => r.id !== undefined || r.code !== undefined) ?? {};
        const base = best?.made?.body ?? sampled;
        const fill = (p: Parameter) => {
          const known = record[p.name] ?? (p.name === 'id' || p.name.endsWith('Id') ? record.id : undefined);
          return encodeUrlPart(known ?? fc.sample(plausible(p.schema, dict), { seed: rnd.int(2 ** 31), numRuns: 1 })[0] ?? 'x');
        };
        const pathParams = op.parameters.filter((p) => p.in === 'path');
        const query = op.parameters.filter((p) => p.in === 'query' && p.required).map((p) => `${encodeUrlPart(p.name)}=${fill(p)}`);
        const path =
          op.path.replace(/\{([^}]+)\}/g, (_, name: string) => fill(pathParams.find((p) => p.name === name) ?? { name, in: 'path' })) +
          (query.length ? `?${query.join('&')}` : '');
        let made = false;
        const fire = async (bodies: unknown[], note: string) => {
          await ensureOwner();
          const answers = await Promise.all(
            bodies.map(async (body) => {
              const res = await fetch(`${t.baseUrl}${path}`, {
                method: op.method,
                body: body === undefined ? undefined : toJsonText(body),
                headers: {
                  ...(body === undefined ? {} : { 'content-type': 'application/json' }),
                  accept: 'application/json',
                  'x-api-key': TEST_API_KEY,
                  cookie: owner.headers.cookie,
                },
                signal: AbortSignal.timeout(TIMEOUT_MS * 3),
              }).catch((err: Error) => err);
              if (res instanceof Error) return `no answer (${res.message})`;
              const text = await res.text();
              if (res.status === 401) ownerInDoubt = true;
              if (res.status < 300) {
                made = true;
                took.add(`${op.method} ${op.path}`);
              }
              const key = `${op.method} ${op.path} ${note}`;
              const shown = res.status >= 400 && process.env.FUZZ_BURSTS_VERBOSE ? ` ${text.slice(0, 160)} BODY ${toJsonText(body).slice(0, 300)}` : '';
              answered.set(key, `${answered.get(key) ?? ''} ${res.status}${shown}`);
              return problem(op, { status: res.status, headers: { 'content-type': res.headers.get('content-type') ?? '' }, text, ms: 0 });
            }),
          );
          sent += bodies.length;
          for (const wrong of answers)
            if (wrong) problems.push(`${wrong}\n  request: ${op.method} ${clip(path, 200)}, body ${clip(toJsonText(bodies[0] ?? null), 300)} [${note}]`);
        };
        const creating = op.method === 'POST' && !op.path.includes('{');
        const tag = `${attempt ? `t${attempt}` : ''}${(SEED >>> 0).toString(36)}`;
        const fresh = freshened(base, schema, `b${tag}`, '', creating);
        await fire(
          Array.from({ length: BURST }, () => fresh),
          'ten identical',
        );
        const again = freshened(base, schema, `n${tag}`, '', creating);
        await fire(
          Array.from({ length: BURST }, (_, i) => nearly(again, schema, i)),
          'ten near-identical',
        );
        if (made) break;
      }
      await judge(op, problems, sent);
    });
  }

  it('the bursts reached the back office’s code: many writes were made', () => {
    if (process.env.FUZZ_BURSTS_VERBOSE) console.log([...answered].map(([k, v]) => `${k}:${v}`).join('\n'));
    expect(took.size, `writes with a 2xx: ${[...took].join(', ')}`).toBeGreaterThan(writes.length / 3);
  });

  it('no unique index holds two rows with one value after the bursts', async () => {
    const broken: string[] = [];
    for (const ix of indexes) {
      const n = await duplicatesOf(ix);
      if (n) broken.push(`${ix.name} on ${ix.table} (${ix.keys.join(', ')})${ix.where ? ` where ${ix.where}` : ''}: ${n} duplicated values`);
    }
    expect(broken).toEqual([]);
  });
});
