import fc from 'fast-check';

// Generators of hostile input for the fuzz test (fuzz-openapi.test.ts), driven by the
// JSON Schemas of the OpenAPI document: a plausible value from a schema, then one or more
// mutations of it (wrong types, missing and extra keys, huge and deep values, control and
// bidirectional characters, numbers JSON can write but no field expects). Values are plain
// JSON trees, except `Raw`, which stands for JSON text that JSON.stringify cannot produce
// (1e400, 100 000 nested brackets) and is spliced in as it is.

export type Schema = Record<string, any>;

/** JSON text put into a body exactly as written. */
export class Raw {
  constructor(readonly text: string) {}
}

/**
 * Values picked up from the shop (real sku codes, ids, invoice ids, file uuids…), so that
 * generated requests also reach the code behind the validation, not only the validation.
 */
export interface Dictionary {
  strings: string[];
  integers: number[];
}

/** JSON text of a value, with own `__proto__` keys and Raw fragments kept. */
export function toJsonText(value: unknown): string {
  if (value instanceof Raw) return value.text;
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(',')}]`;
  return `{${Object.keys(value)
    .map((k) => `${JSON.stringify(k)}:${toJsonText((value as Record<string, unknown>)[k])}`)
    .join(',')}}`;
}

/** An object with the given own keys, `__proto__` included (a literal would set the prototype). */
export function ownKeys(entries: [string, unknown][]): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (const [k, v] of entries) Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  return o;
}

// ---- hostile leaves ------------------------------------------------------------------------

const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u0000'.repeat(64),
  '\ud800', // lone high surrogate
  'x\udfffy', // lone low surrogate
  '\udc00\ud800', // reversed pair
  '\u202eevil\u202c', // right-to-left override
  '\u200f\u200e\u061c', // RTL / LTR / Arabic letter marks
  '\ufeff', // byte order mark
  '\u2028\u2029', // line and paragraph separators
  '\u001b[31m', // terminal escape
  '\r\nX-Injected: 1',
  "' OR 1=1 --",
  '"; drop table sales; --',
  '%',
  '%00',
  '%ZZ',
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '<script>alert(1)</script>',
  '${7*7}{{7*7}}',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'null',
  'undefined',
  'NaN',
  '-0',
  '1e400',
  '0x10',
  '😀'.repeat(300),
  'e\u0301'.repeat(400), // combining marks
  'ক্ষ'.repeat(100), // Bengali conjuncts
  'ﷺ'.repeat(200),
  'A'.repeat(1025),
];

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  // huge: up to 200 000 characters (still under the 1 MiB body limit as JSON)
  { weight: 1, arbitrary: fc.integer({ min: 5_000, max: 200_000 }).map((n) => 'ä'.repeat(n)) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.string({ maxLength: 10 }), fc.constantFrom('\u0000', '\ud800', '\u202e', '\u200f', '\ufeff'), fc.string({ maxLength: 10 }))
      .map(([a, b, c]) => a + b + c),
  },
);

const NASTY_NUMBERS = [
  -1,
  0,
  -0,
  0.5,
  -0.5,
  1.5,
  1e-7,
  Number.MIN_VALUE,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 32,
  2 ** 53 + 2,
  -(2 ** 53) - 2,
  2 ** 63,
  1e21,
  1e308,
  -1e308,
];
const RAW_NUMBERS = ['1e400', '-1e400', '1e-400', '123456789012345678901234567890', '0.1000000000000000000000001', '-0.0', '1E2', '1.0'];

export const hostileNumber: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom<unknown>(...NASTY_NUMBERS) },
  { weight: 2, arbitrary: fc.constantFrom(...RAW_NUMBERS).map((t) => new Raw(t)) },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  { weight: 1, arbitrary: fc.integer() },
);

/** A value of another type than the field expects (or of a surprising one). */
export const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(null, true, false, [], {}, '', '1', 'true', [null], [[]], { '': '' }),
  hostileNumber,
  hostileString,
  fc.jsonValue({ maxDepth: 3 }),
);

/** Brackets or objects nested `depth` deep, as raw JSON text. */
export const deepNesting: fc.Arbitrary<Raw> = fc
  .tuple(fc.integer({ min: 200, max: 50_000 }), fc.constantFrom('array', 'object'))
  .map(([depth, kind]) => (kind === 'array' ? new Raw('['.repeat(depth) + ']'.repeat(depth)) : new Raw(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`)));

/** A long array, as raw JSON text of small elements. */
export const hugeArray: fc.Arbitrary<Raw> = fc
  .tuple(fc.integer({ min: 1_000, max: 50_000 }), fc.constantFrom('1', '"x"', '{}', 'null', '[]', '{"skuCode":"A","quantity":1}'))
  .map(([n, el]) => new Raw(`[${Array.from({ length: n }, () => el).join(',')}]`));

/** Keys nobody expects, the prototype-polluting ones among them. */
export const extraKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    'isAdmin',
    'role',
    'customerId',
    'userId',
    'price',
    'total',
    'status',
    'id',
    '',
    ' ',
    '\u0000',
    '$where',
    'a.b',
    '[0]',
  ),
  fc.string({ maxLength: 12 }),
);

// ---- plausible values from a schema ------------------------------------------------------------

function pick<T>(list: T[], n: number): T | undefined {
  return list.length ? list[n % list.length] : undefined;
}

function types(s: Schema): string[] {
  if (Array.isArray(s.type)) return s.type;
  if (typeof s.type === 'string') return [s.type];
  return [];
}

/**
 * A value that fits the schema's shape, often with real values from the shop: the
 * starting point that mutations then spoil. (Refinements beyond JSON Schema, such as a
 * mobile number's format, are not known here; such values get a 400, which is fine.)
 */
export function plausible(s: Schema | undefined, dict: Dictionary, depth = 0): fc.Arbitrary<unknown> {
  if (!s || typeof s !== 'object' || Object.keys(s).length === 0) return fc.jsonValue({ maxDepth: 2 });
  if (s.const !== undefined) return fc.constant(s.const);
  if (Array.isArray(s.enum) && s.enum.length) return fc.constantFrom(...s.enum);
  const alternatives: Schema[] | undefined = s.anyOf ?? s.oneOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((a) => plausible(a, dict, depth)));
  if (Array.isArray(s.allOf) && s.allOf.length) return plausible(Object.assign({}, ...s.allOf), dict, depth);
  const ts = types(s);
  if (ts.length > 1) return fc.oneof(...ts.map((t) => plausible({ ...s, type: t }, dict, depth)));
  const type = ts[0] ?? (s.properties ? 'object' : s.items ? 'array' : undefined);
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
    case 'number': {
      const min = Math.max(typeof s.minimum === 'number' ? s.minimum : -1e6, typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + 1 : -1e6);
      const max = Math.min(typeof s.maximum === 'number' ? s.maximum : 1e6, typeof s.exclusiveMaximum === 'number' ? s.exclusiveMaximum - 1 : 1e6);
      const lo = Math.ceil(Math.min(min, max));
      const hi = Math.floor(Math.max(min, max));
      const inRange = fc.integer({ min: lo, max: hi });
      const known = fc.nat().map(
        (n) =>
          pick(
            dict.integers.filter((i) => i >= lo && i <= hi),
            n,
          ) ?? lo,
      );
      return fc.oneof(
        { weight: 2, arbitrary: known },
        { weight: 2, arbitrary: fc.constantFrom(lo, Math.min(hi, Math.max(lo, 1))) },
        { weight: 1, arbitrary: inRange },
      );
    }
    case 'string': {
      const minLength = s.minLength ?? 0;
      const maxLength = Math.min(s.maxLength ?? 60, 60);
      const fitting = (x: string) => x.length >= minLength && x.length <= (s.maxLength ?? Infinity) && (!s.pattern || new RegExp(s.pattern).test(x));
      const known = fc.nat().map((n) => pick(dict.strings.filter(fitting), n) ?? 'x'.repeat(Math.max(1, minLength)));
      const free = s.pattern
        ? fc.stringMatching(new RegExp(s.pattern)).map((x) => x.slice(0, s.maxLength ?? x.length))
        : fc.string({ minLength, maxLength: Math.max(minLength, maxLength) });
      return fc.oneof({ weight: 3, arbitrary: known }, { weight: 1, arbitrary: free });
    }
    case 'array': {
      if (depth > 4) return fc.constant([]);
      const minLength = s.minItems ?? 0;
      return fc.array(plausible(s.items, dict, depth + 1), { minLength, maxLength: Math.max(minLength, Math.min(s.maxItems ?? 3, 3)) });
    }
    case 'object': {
      const props: Record<string, Schema> = s.properties ?? {};
      const required: string[] = s.required ?? [];
      if (depth > 4 || Object.keys(props).length === 0) return fc.constant({});
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, v] of Object.entries(props)) model[k] = plausible(v, dict, depth + 1);
      return fc.record(model, { requiredKeys: required.filter((k) => k in props) });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

// ---- mutations of a value ----------------------------------------------------------------------

export type PathStep = string | number;

/** Every place in a JSON tree (the root is []), objects and arrays included. */
function places(v: unknown, at: PathStep[] = [], out: PathStep[][] = []): PathStep[][] {
  out.push(at);
  if (v instanceof Raw || v === null || typeof v !== 'object') return out;
  if (Array.isArray(v)) v.forEach((x, i) => places(x, [...at, i], out));
  else for (const k of Object.keys(v)) places((v as Record<string, unknown>)[k], [...at, k], out);
  return out;
}

function clone(v: unknown): unknown {
  if (v instanceof Raw || v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(clone);
  return ownKeys(Object.keys(v).map((k) => [k, clone((v as Record<string, unknown>)[k])]));
}

function replaceAt(root: unknown, at: PathStep[], fn: (old: unknown) => unknown): unknown {
  if (at.length === 0) return fn(root);
  const copy = clone(root) as Record<string | number, unknown>;
  let node = copy;
  for (const step of at.slice(0, -1)) node = node[step] as Record<string | number, unknown>;
  const last = at[at.length - 1];
  node[last] = fn(node[last]);
  return copy;
}

export type Mutation =
  | { kind: 'wrong-type'; place: number; value: unknown }
  | { kind: 'drop-key'; place: number }
  | { kind: 'extra-key'; place: number; key: string; value: unknown }
  | { kind: 'string'; place: number; value: string }
  | { kind: 'number'; place: number; value: unknown }
  | { kind: 'huge-array'; place: number; value: Raw }
  | { kind: 'deep'; place: number; value: Raw };

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('wrong-type' as const), place: fc.nat(), value: wrongType }),
  fc.record({ kind: fc.constant('drop-key' as const), place: fc.nat() }),
  fc.record({ kind: fc.constant('extra-key' as const), place: fc.nat(), key: extraKey, value: wrongType }),
  fc.record({ kind: fc.constant('string' as const), place: fc.nat(), value: hostileString }),
  fc.record({ kind: fc.constant('number' as const), place: fc.nat(), value: hostileNumber }),
  fc.record({ kind: fc.constant('huge-array' as const), place: fc.nat(), value: hugeArray }),
  fc.record({ kind: fc.constant('deep' as const), place: fc.nat(), value: deepNesting }),
);

/** Applies a mutation at a place chosen among the value's places of a fitting kind. */
export function mutate(value: unknown, m: Mutation): unknown {
  const all = places(value);
  const of = (test: (v: unknown) => boolean) => {
    const found = all.filter((p) => test(get(value, p)));
    return found.length ? found[m.place % found.length] : all[m.place % all.length];
  };
  switch (m.kind) {
    case 'wrong-type':
      return replaceAt(value, all[m.place % all.length], () => m.value);
    case 'drop-key': {
      const at = all.filter((p) => p.length > 0 && typeof p[p.length - 1] === 'string');
      if (!at.length) return undefined; // nothing to drop: drop the whole body
      const p = at[m.place % at.length];
      return replaceAt(value, p.slice(0, -1), (parent) =>
        ownKeys(
          Object.keys(parent as object)
            .filter((k) => k !== p[p.length - 1])
            .map((k) => [k, (parent as Record<string, unknown>)[k]]),
        ),
      );
    }
    case 'extra-key': {
      const p = of((v) => v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Raw));
      return replaceAt(value, p, (old) => {
        const base =
          old !== null && typeof old === 'object' && !Array.isArray(old) && !(old instanceof Raw)
            ? Object.keys(old).map((k) => [k, (old as Record<string, unknown>)[k]] as [string, unknown])
            : [];
        return ownKeys([...base, [m.key, m.value]]);
      });
    }
    case 'string':
      return replaceAt(
        value,
        of((v) => typeof v === 'string'),
        () => m.value,
      );
    case 'number':
      return replaceAt(
        value,
        of((v) => typeof v === 'number'),
        () => m.value,
      );
    case 'huge-array':
      return replaceAt(value, of(Array.isArray), () => m.value);
    case 'deep':
      return replaceAt(value, all[m.place % all.length], () => m.value);
  }
}

function get(root: unknown, at: PathStep[]): unknown {
  let v = root as Record<string | number, unknown> | undefined;
  for (const step of at) v = v?.[step] as Record<string | number, unknown> | undefined;
  return v;
}

// ---- every JSON type at every field ---------------------------------------------------------------

/**
 * The JSON types a sweep puts at each field, numbers split by the ways they go wrong. Random
 * mutations reach a given field with a given type only by luck; a value of a type the field
 * does not expect (a boolean where a filter's column is text, a fraction where it is an
 * integer) is exactly where a database driver throws instead of the validation answering.
 */
export const JSON_KINDS = {
  string: [
    '',
    'x',
    ' , ',
    '1',
    '1,2',
    '-1',
    '1.5',
    'true',
    'false',
    '0',
    'null',
    '%',
    '_',
    "' OR 1=1 --",
    'a\u0000b',
    '\ud800',
    'ä'.repeat(600),
    '9'.repeat(30),
    'AFL-1',
  ],
  integer: [0, 1, 2, 3, 42],
  negative: [-1, -2, -0, -(2 ** 31) - 1, -(2 ** 53) - 2],
  fraction: [0.5, 1.5, -2.5, 1e-7, Number.MIN_VALUE],
  huge: [2 ** 31, 2 ** 32, 2 ** 53 + 2, 2 ** 63, 1e21, 1e308, new Raw('1e400'), new Raw('123456789012345678901234567890')],
  boolean: [true, false],
  null: [null],
  array: [[], [1], ['x'], [null], [{}], [true, false], [[1]]],
  object: [{}, { a: 1 }, { field: 'id', value: 1 }, { $ne: null }, ownKeys([['__proto__', { x: 1 }]])],
} as const satisfies Record<string, readonly unknown[]>;
export type JsonKind = keyof typeof JSON_KINDS;
export const JSON_KIND_NAMES = Object.keys(JSON_KINDS) as JsonKind[];

/**
 * Every field a schema describes, nested ones included: an object's properties by name and
 * an array's items at index 0, through anyOf, oneOf and allOf.
 */
export function fieldPaths(s: Schema | undefined, at: PathStep[] = [], depth = 0, out = new Map<string, PathStep[]>()): PathStep[][] {
  if (!s || typeof s !== 'object' || depth > 6) return [...out.values()];
  for (const alt of [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])]) fieldPaths(alt, at, depth, out);
  for (const [k, v] of Object.entries<Schema>(s.properties ?? {})) {
    const p = [...at, k];
    out.set(JSON.stringify(p), p);
    fieldPaths(v, p, depth + 1, out);
  }
  if (s.items && typeof s.items === 'object') {
    const p = [...at, 0];
    out.set(JSON.stringify(p), p);
    fieldPaths(s.items, p, depth + 1, out);
  }
  return [...out.values()];
}

/**
 * The schema with every property required and every array holding an item: a value from
 * it has every field in place, so that a sweep changes one field of an otherwise whole body.
 */
export function filledSchema(s: Schema | undefined, depth = 0): Schema | undefined {
  if (!s || typeof s !== 'object' || depth > 6) return s;
  const out: Schema = { ...s };
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) if (Array.isArray(s[key])) out[key] = s[key].map((a: Schema) => filledSchema(a, depth));
  if (s.properties) {
    out.properties = Object.fromEntries(Object.entries<Schema>(s.properties).map(([k, v]) => [k, filledSchema(v, depth + 1)]));
    out.required = Object.keys(s.properties);
  }
  if (s.items && typeof s.items === 'object') {
    out.items = filledSchema(s.items, depth + 1);
    out.minItems = Math.max(1, s.minItems ?? 0);
  }
  return out;
}

/** A copy of the value with `value` at the place (made where missing: objects, arrays). */
export function setAt(root: unknown, at: PathStep[], value: unknown): unknown {
  if (at.length === 0) return value;
  const [step, ...rest] = at;
  if (typeof step === 'number') {
    const list = Array.isArray(root) ? root.map(clone) : [];
    while (list.length <= step) list.push(typeof rest[0] === 'number' ? [] : {});
    list[step] = setAt(list[step], rest, value);
    return list;
  }
  const entries: [string, unknown][] =
    root !== null && typeof root === 'object' && !Array.isArray(root) && !(root instanceof Raw)
      ? Object.keys(root).map((k) => [k, clone((root as Record<string, unknown>)[k])])
      : [];
  const i = entries.findIndex(([k]) => k === step);
  if (i >= 0) entries[i] = [step, setAt(entries[i][1], rest, value)];
  else entries.push([step, setAt(undefined, rest, value)]);
  return ownKeys(entries);
}

/** Property names anywhere in a schema (a response's fields are likely names to filter on). */
export function propertyNames(s: Schema | undefined, out = new Set<string>(), depth = 0): Set<string> {
  if (!s || typeof s !== 'object' || depth > 8) return out;
  for (const alt of [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])]) propertyNames(alt, out, depth);
  for (const [k, v] of Object.entries<Schema>(s.properties ?? {})) {
    out.add(k);
    propertyNames(v, out, depth + 1);
  }
  if (s.items && typeof s.items === 'object') propertyNames(s.items, out, depth + 1);
  return out;
}

// ---- encodings in a URL ------------------------------------------------------------------------

/**
 * Percent-encodes a value for a path segment or query value. A lone surrogate has no UTF-8
 * form; it goes out as the bytes a careless encoder would write (CESU-8), which are not
 * valid UTF-8 — exactly the kind of input the server must refuse cleanly.
 */
export function encodeUrlPart(v: unknown): string {
  const s = v instanceof Raw ? v.text : typeof v === 'string' ? v : v === null || v === undefined ? '' : typeof v === 'object' ? toJsonText(v) : String(v);
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const isHigh = c >= 0xd800 && c <= 0xdbff;
    const next = s.charCodeAt(i + 1);
    if (isHigh && next >= 0xdc00 && next <= 0xdfff) {
      out += encodeURIComponent(s[i] + s[i + 1]);
      i++;
    } else if (c >= 0xd800 && c <= 0xdfff) {
      out += `%${(0xe0 | (c >> 12)).toString(16).toUpperCase()}%${(0x80 | ((c >> 6) & 0x3f)).toString(16).toUpperCase()}%${(0x80 | (c & 0x3f)).toString(16).toUpperCase()}`;
    } else out += encodeURIComponent(s[i]);
  }
  return out;
}

/** Raw URL pieces that no encoder writes: broken escapes, encoded slashes and dots, overlong UTF-8. */
export const RAW_URL_PIECES = [
  '%',
  '%Z',
  '%ZZ',
  '%00',
  '%2F',
  '..%2F..%2Fetc%2Fpasswd',
  '%2e%2e',
  '%C0%AF',
  '%FF%FE',
  '%ED%A0%80',
  '%E2%80%AE',
  '%0D%0A',
  '%25',
  '%u0041',
  '+',
  '%20',
  '~',
  "'",
  '(',
  ')',
];

/** Query strings the form parser may choke on. */
export const RAW_QUERIES = [
  '?',
  '?&&&',
  '?=',
  '?%',
  '?a=%ZZ',
  '?%ZZ=1',
  '?id=1&id=2&id=3',
  '?id[]=1',
  '?id[0]=1&id[1]=2',
  '?__proto__[x]=1',
  '?constructor[prototype][x]=1',
  '?__proto__=1',
  '?id=%00',
  '?id=1e400',
  '?id=-0',
  '?id=0x10',
  '?size=99999999999999999999',
  '?page=-1&size=0',
  '?code=%ED%A0%80',
  `?q=${'a'.repeat(4000)}`,
  // over Node's 16 KB limit for a request head: answered 431 before any route runs
  `?q=${'a'.repeat(20_000)}`,
  `?${'a=1&'.repeat(1500)}`,
];
