import randexp from 'randexp';

// randexp is CommonJS whose module.exports is the class, while its types declare an ES default export.
const RandExp = randexp as unknown as typeof import('randexp').default;

/**
 * Examples for the OpenAPI document, derived from the JSON Schemas themselves so they cannot drift from them:
 * a schema's own `examples` first (the shared inputs carry realistic ones: a phone, a PIN, an amount), then
 * enum/const, formats, patterns (a deterministic string the pattern accepts) and bounds. Spectral checks every
 * example against its schema, so an example that stopped matching fails CI.
 */
type Schema = Record<string, any>;

const FORMATS: Record<string, unknown> = {
  email: 'ada@example.com',
  'date-time': '2026-11-24T09:30:00.000Z',
  date: '2026-11-24',
  time: '09:30:00',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  uuid: '0b6c5f3e-4a1d-4c3b-9f5e-2d7a8b9c0d1e',
  ipv4: '203.0.113.7',
  ipv6: '2001:db8::7',
  base64: 'aGVsbG8=',
};

/** A string the pattern accepts, the same on every run (the middle of each range, the first alternative). */
function fromPattern(pattern: string, minLength?: number, maxLength?: number): string | undefined {
  try {
    const r = new RandExp(new RegExp(pattern));
    r.max = 8;
    r.randInt = (a: number, b: number) => a + Math.floor((b - a) / 2);
    const s = r.gen();
    if ((minLength !== undefined && s.length < minLength) || (maxLength !== undefined && s.length > maxLength)) return undefined;
    return s;
  } catch {
    return undefined;
  }
}

const NAMED_STRINGS: Record<string, string> = {
  reference: 'vtu_01JD8Z6Q4X9R2M5N7P3K1T0W8Y',
  email: 'ada@example.com',
  phone: '08031234567',
  network: 'mtn',
  username: 'ada_obi',
  fullName: 'Ada Obi',
  name: 'Ada Obi',
  note: 'for the weekend',
  reason: 'customer asked for it',
  message: 'The purchase did not arrive',
  title: 'Maintenance tonight',
  body: 'Purchases pause from 01:00 to 01:30.',
  recipient: '08031234567',
  service: 'airtime',
  provider: 'a',
  token: '1234-5678-9012-3456-7890',
  units: '45.6 kWh',
  customerName: 'ADA OBI',
  accountName: 'OBI ADA',
  accountNumber: '0123456789',
  bankName: 'Guaranty Trust Bank',
  currency: 'NGN',
  kind: 'airtime_purchase',
  type: 'vtu_purchase',
};

/** A plain string named like a timestamp or an id gets one of those. */
function namedString(key: string | undefined): string | undefined {
  if (!key) return undefined;
  if (NAMED_STRINGS[key]) return NAMED_STRINGS[key];
  if (/At$/.test(key)) return '2026-11-24T09:30:00.000Z';
  if (key === 'id' || /Id$/.test(key)) return '01JD8Z6Q4X9R2M5N7P3K1T0W8Y';
  return undefined;
}

export function sampleOf(schema: Schema, resolve: (ref: string) => Schema, key?: string, depth = 0): unknown {
  if (depth > 12) return null;
  if (schema.$ref) return sampleOf(resolve(schema.$ref), resolve, key, depth + 1);
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if (schema.example !== undefined) return schema.example;
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.allOf)) {
    const parts = schema.allOf.map((s: Schema) => sampleOf(s, resolve, key, depth + 1));
    if (parts.every((p: unknown) => p && typeof p === 'object' && !Array.isArray(p))) return Object.assign({}, ...parts);
    return parts[parts.length - 1];
  }
  const choices = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(choices)) {
    const first = choices.find((c: Schema) => c.type !== 'null') ?? choices[0];
    return sampleOf(first, resolve, key, depth + 1);
  }
  const type = Array.isArray(schema.type) ? (schema.type.find((t: string) => t !== 'null') ?? 'null') : schema.type;
  switch (type) {
    case 'null':
      return null;
    case 'boolean':
      return true;
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : undefined);
      const max = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : undefined);
      const wanted = /amount|price|balance/i.test(key ?? '') ? 1000 : 1;
      let n = min !== undefined ? Math.max(min, wanted) : wanted;
      if (max !== undefined) n = Math.min(n, max);
      return type === 'integer' ? Math.ceil(n) : n;
    }
    case 'string': {
      if (schema.format && FORMATS[schema.format] !== undefined) return FORMATS[schema.format];
      if (schema.pattern) {
        const s = fromPattern(schema.pattern, schema.minLength, schema.maxLength);
        if (s !== undefined) return s;
      }
      let s = namedString(key) ?? 'text';
      if (schema.maxLength !== undefined && s.length > schema.maxLength) s = s.slice(0, schema.maxLength);
      if (schema.minLength !== undefined && s.length < schema.minLength) s = s.padEnd(schema.minLength, 'x');
      return s;
    }
    case 'array': {
      const count = Math.max(1, schema.minItems ?? 1);
      return Array.from({ length: Math.min(count, schema.maxItems ?? count) }, () => sampleOf(schema.items ?? {}, resolve, key, depth + 1));
    }
    case 'object':
    default: {
      if (!schema.properties) return type === 'object' ? {} : 'text';
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(schema.properties as Record<string, Schema>)) out[k] = sampleOf(v, resolve, k, depth + 1);
      return out;
    }
  }
}
