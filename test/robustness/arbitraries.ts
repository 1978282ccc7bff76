import fc from 'fast-check';
import type { z } from 'zod';

/**
 * fast-check arbitraries derived from an operation's zod input schema (zod 4 introspection): valid-shaped
 * values, and the same with one field swapped for a hostile value of the wrong type or a boundary.
 */
type Zod = z.ZodType & { _zod: { def: any }; [k: string]: any };

const HUGE = 'a'.repeat(100_000);

function deep(levels: number, leaf: unknown, kind: 'array' | 'object'): unknown {
  let v: unknown = leaf;
  for (let i = 0; i < levels; i++) v = kind === 'array' ? [v] : { a: v };
  return v;
}

/** Keys that, parsed from JSON, become own properties named like the prototype chain. */
export const protoObject = (inner: Record<string, unknown> = {}) =>
  JSON.parse(
    `{"__proto__":{"polluted":true,"role":"admin"},"constructor":{"prototype":{"polluted":true}},"prototype":{"polluted":true},"x":${JSON.stringify(inner)}}`,
  );

export const UNICODE_EDGES = [
  '\u0000',
  'a\u0000b',
  '\uD800',
  '\uDFFF\uD800',
  '\u202Egnp.exe',
  '\uFEFFbom',
  '\u200B\u200D',
  'e\u0301\u0301\u0301',
  '👩‍👩‍👧‍👦'.repeat(40),
  'İıß',
  '١٢٣٤', // Arabic-Indic digits: \d in some engines, not a PIN here
  '１２３４５６', // full-width digits
  '𝟙𝟚𝟛𝟜',
  '\r\n\t',
  '%00%ff',
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  '../../../etc/passwd',
  '${7*7}{{7*7}}',
];

const PLAUSIBLE = [
  'mtn',
  'airtel',
  'glo',
  '9mobile',
  '08031234567',
  '+2348031234567',
  'ada@example.com',
  '09:30',
  '2026-12-01',
  '2026-12-01T09:30:00.000Z',
  'https://app.example.com/x',
  'daily',
  'streaming',
  'dstv',
  'ikeja-electric',
  'prepaid',
  'WAEC',
  'sandbox',
];

/** Hostile values of every JSON type, boundaries and edge cases; any of them is wrong for most fields. */
export const junkValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    0,
    -0,
    -1,
    0.5,
    -0.0001,
    2 ** 31,
    2 ** 53,
    -(2 ** 53),
    Number.MAX_SAFE_INTEGER + 2,
    Number.MAX_VALUE,
    Number.MIN_VALUE,
    1e21,
    'NaN',
    'Infinity',
    '-Infinity',
    '1e309',
    '0x10',
    '1_000',
    ' 1 ',
    '',
    ' ',
    HUGE,
    null,
    true,
    false,
    [],
    [1, 2, 3],
    {},
    [{}],
    deep(1000, 1, 'array'),
    deep(1000, 'x', 'object'),
  ),
  fc.constantFrom(...UNICODE_EDGES),
  fc.constant(null).map(() => protoObject()),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.jsonValue({ maxDepth: 2 }),
);

function unwrap(s: Zod): Zod {
  let cur = s;
  for (let i = 0; i < 10; i++) {
    const d = cur._zod.def;
    if (['optional', 'default', 'nullable', 'readonly', 'catch', 'prefault', 'nonoptional'].includes(d.type)) cur = d.innerType;
    else if (d.type === 'pipe') cur = d.in;
    else break;
  }
  return cur;
}

/** A value the field's schema is likely to accept (a best effort: refinements may still refuse it). */
export function validish(schema: Zod, depth = 0): fc.Arbitrary<unknown> {
  const s = unwrap(schema);
  const d = s._zod.def;
  switch (d.type) {
    case 'string': {
      if (s.format === 'uuid' || s.format === 'guid') return fc.uuid();
      if (s.format === 'email') return fc.emailAddress();
      if (s.format === 'url') return fc.webUrl();
      const min = s.minLength ?? 0;
      const max = Math.max(min, Math.min(s.maxLength ?? 24, 64));
      return fc.oneof(
        fc.string({ minLength: min, maxLength: max }),
        fc.stringMatching(/^\d{4,11}$/),
        fc.constant('0'.repeat(Math.max(min, 1))),
        // Values real inputs take (a network, a phone, an e-mail, a time, a URL) so more calls pass the schema.
        fc.constantFrom(...PLAUSIBLE),
      );
    }
    case 'number': {
      const min = Number.isFinite(s.minValue) ? s.minValue : -1_000_000;
      const max = Number.isFinite(s.maxValue) ? s.maxValue : 1_000_000_000;
      return fc.oneof(fc.integer({ min: Math.max(min, -1e9), max: Math.min(max, 1e12) }), fc.constantFrom(min, max));
    }
    case 'bigint':
      return fc.integer().map(String);
    case 'boolean':
      return fc.boolean();
    case 'enum':
      return fc.constantFrom(...(Object.values(d.entries) as unknown[]));
    case 'literal':
      return fc.constantFrom(...(d.values as unknown[]));
    case 'object':
      if (depth > 3) return fc.constant({});
      return fc.record(Object.fromEntries(Object.entries(d.shape).map(([k, v]) => [k, validish(v as Zod, depth + 1)])), {
        requiredKeys: [],
      });
    case 'array':
      return depth > 3 ? fc.constant([]) : fc.array(validish(d.element, depth + 1), { maxLength: 3 });
    case 'union':
      return fc.oneof(...(d.options as Zod[]).map((o) => validish(o, depth + 1)));
    case 'record':
      return fc.dictionary(fc.string({ maxLength: 8 }), validish(d.valueType, depth + 1), { maxKeys: 3 });
    default:
      return fc.jsonValue({ maxDepth: 1 });
  }
}

/** The operation's fields, valid-shaped: every required field present, optional ones sometimes. */
export function validInput(input: z.ZodObject<any>): fc.Arbitrary<Record<string, unknown>> {
  const shape = input.shape as Record<string, Zod>;
  const required = Object.keys(shape).filter((k) => !['optional', 'default'].includes(shape[k]._zod.def.type));
  return fc.record(Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, validish(v)])), { requiredKeys: required }) as fc.Arbitrary<
    Record<string, unknown>
  >;
}

/** Valid-shaped input with one field (or a new prototype-named key) replaced by a hostile value. */
export function mutatedInput(input: z.ZodObject<any>): fc.Arbitrary<Record<string, unknown>> {
  const keys = Object.keys(input.shape);
  const targets = [...keys, '__proto__', 'constructor', 'prototype'];
  return fc.tuple(validInput(input), fc.constantFrom(...targets), junkValue, fc.nat()).map(([base, key, junk, pick]) => {
    // Object.defineProperty keeps "__proto__" an own, serialisable key rather than setting the prototype.
    const set = (o: object, k: string, v: unknown) =>
      Object.defineProperty(o, k, { value: v, enumerable: true, configurable: true, writable: true });
    const out: Record<string, unknown> = { ...base };
    const inner = out[key];
    // Half the time a nested object (delivery, poll, preferences) gets the hostile value one level down.
    if (pick % 2 === 1 && inner && typeof inner === 'object' && !Array.isArray(inner) && Object.keys(inner).length) {
      const keys = Object.keys(inner);
      set(out, key, set({ ...inner }, keys[pick % keys.length], junk));
    } else set(out, key, junk);
    return out;
  });
}

/** Everything a client may put in `data`: valid-shaped, one field wrong, or not an object at all. */
export function anyInput(input: z.ZodObject<any>): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 2, arbitrary: validInput(input) },
    { weight: 5, arbitrary: mutatedInput(input) },
    { weight: 1, arbitrary: junkValue },
  );
}

/** Input that can never pass the strict schema: an unknown key next to (possibly hostile) fields. */
export function invalidInput(input: z.ZodObject<any>): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .tuple(fc.oneof(validInput(input), mutatedInput(input)), fc.constantFrom('__junk', 'isAdmin', 'userId_', 'role', 'balance_'))
    .map(([base, k]) => {
      const out: Record<string, unknown> = { ...base };
      // A name the schema does not declare (checked by the caller against the shape).
      if (!(k in input.shape)) out[k] = 1;
      else out.__junk = 1;
      return out;
    });
}

/** GET inputs travel in the query string: every value becomes text. */
export function toQuery(value: unknown): string {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const pairs = Object.keys(value).map((k) => {
      const v = (value as Record<string, unknown>)[k];
      return [k, typeof v === 'string' ? v : (JSON.stringify(v) ?? '')] as [string, string];
    });
    return '?' + new URLSearchParams(pairs).toString();
  }
  return `?q=${encodeURIComponent(JSON.stringify(value) ?? '')}`;
}

/** Raw POST bodies sent as application/json: invalid UTF-8, deep nesting, huge, prototype keys, odd numbers. */
export function rawBodies(firstKey: string): Array<{ name: string; body: Buffer }> {
  const k = JSON.stringify(firstKey);
  const b = (s: string) => Buffer.from(s, 'utf8');
  const withBytes = (before: string, bytes: number[], after: string) => Buffer.concat([b(before), Buffer.from(bytes), b(after)]);
  return [
    { name: 'invalid UTF-8 in a value', body: withBytes(`{"data":{${k}:"`, [0xff, 0xfe, 0xc3, 0x28], `"}}`) },
    { name: 'overlong UTF-8 and a lone surrogate', body: withBytes(`{"data":{${k}:"`, [0xc0, 0xaf, 0xed, 0xa0, 0x80], `"}}`) },
    { name: 'invalid UTF-8 in a key', body: withBytes(`{"data":{"`, [0xfe, 0x80], `":1}}`) },
    { name: 'truncated multibyte at the end', body: withBytes(`{"data":{}}`, [0xe2, 0x82], '') },
    { name: 'BOM first', body: b(`\uFEFF{"data":{}}`) },
    { name: '1000 nested arrays', body: b(`{"data":{${k}:${'['.repeat(1000)}${']'.repeat(1000)}}}`) },
    { name: '1000 nested objects', body: b(`{"data":${'{"a":'.repeat(1000)}1${'}'.repeat(1000)}}`) },
    { name: '100k-char string', body: b(`{"data":{${k}:"${HUGE}"}}`) },
    { name: 'over the body limit', body: b(`{"data":{${k}:"${'b'.repeat(300_000)}"}}`) },
    { name: '__proto__ at top level', body: b(`{"__proto__":{"data":{"polluted":1}}}`) },
    {
      name: 'prototype keys inside data',
      body: b(`{"data":{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"prototype":{"polluted":1}}}`),
    },
    { name: 'prototype key as the field', body: b(`{"data":{${k}:{"__proto__":{"polluted":true}}}}`) },
    { name: 'array for data', body: b(`{"data":[{${k}:1}]}`) },
    { name: 'array for the body', body: b(`[{"data":{}}]`) },
    { name: 'NaN literal', body: b(`{"data":{${k}:NaN}}`) },
    { name: 'number overflowing to Infinity', body: b(`{"data":{${k}:1e999}}`) },
    { name: 'negative zero and tiny', body: b(`{"data":{${k}:-0,"x":1e-400}}`) },
    { name: 'duplicate data keys', body: b(`{"data":{},"data":{${k}:"1"}}`) },
    { name: 'empty body', body: b('') },
    { name: 'JSON null', body: b('null') },
    { name: 'trailing garbage', body: b(`{"data":{}}xyz`) },
    { name: 'NUL in a key', body: b(`{"data":{"a\\u0000b":1}}`) },
  ];
}
