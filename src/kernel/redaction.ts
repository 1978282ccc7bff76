import { z } from 'zod';

/**
 * What of an input may be kept in a record that outlives the request (the operators' audit log, docs/security.md
 * "Audit"): the fields its schema declares, with the ones declared secret replaced by "[redacted]". A name that
 * looks secret and a signed link's query parameters are redacted too, whatever the schema says.
 */
export const REDACTED = '[redacted]';

/** Marks a schema secret (zod metadata, kept by `.optional()`, `.describe()` and the like): never stored. */
export function secret<S extends z.ZodType>(schema: S): S {
  return schema.meta({ secret: true }) as S;
}

const isMarkedSecret = (s: z.ZodType) => (z.globalRegistry.get(s) as { secret?: unknown } | undefined)?.secret === true;

/** Parts of a (lowercase) word that mark it secret wherever they stand: `refreshtoken`, `x_pwd`, `clientsecret`. */
const SECRET_ANYWHERE =
  /pass(?:word|wd|code|phrase|key)|pwd|secret|token|totp|jwt|credential|cookie|authori[sz]ation|bvn|cvv|signature|apikey|privatekey/;
/**
 * Short words, secret at a word's start or end only, so `pincode`, `apikey` and `otpcode` are and `shipping`,
 * `opinion`, `signal` and `footprint` are not.
 */
const SECRET_EDGE = /^(?:pin|code|otp|sig(?!n)|nin(?![aeiou])|pass$)|(?:pin|code|key|sig|otp|nin)$/;

/** True when a field name (camelCase, snake_case, kebab-case or run together) looks secret: `pin`, `newPin`, `apikey`. */
export function isSecretField(name: string): boolean {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .some((w) => w !== '' && (SECRET_ANYWHERE.test(w) || SECRET_EDGE.test(w)));
}

/** `?sig=…`, `&access_token=…`, `#token=…`: a parameter of a link whose name looks secret. */
const LINK_PARAM = /([?&#])([^=&#\s"'<>]+)=([^&#\s"'<>]*)/g;
/** `https://user:password@host`. */
const LINK_PASSWORD = /(\/\/[^\s/:@]+:)[^\s/@]+@/g;

function paramName(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** A text with the secret parameters and passwords of the links in it redacted (a pasted signed URL). */
export function redactLinks(text: string): string {
  if (!text.includes('=') && !text.includes('@')) return text;
  return text
    .replace(LINK_PARAM, (m, sep: string, name: string, value: string) =>
      value && isSecretField(paramName(name)) ? `${sep}${name}=${REDACTED}` : m,
    )
    .replace(LINK_PASSWORD, `$1${REDACTED}@`);
}

/**
 * Text PostgreSQL's jsonb can hold: a refused input may carry a lone UTF-16 surrogate or U+0000 (found by fuzzing),
 * which jsonb refuses, and the audit row of that refusal must still be written.
 */
// eslint-disable-next-line no-control-regex -- U+0000 is what must be replaced
const LONE_SURROGATE_OR_NUL = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|\u0000/g;
export const storable = (text: string) => text.replace(LONE_SURROGATE_OR_NUL, '\uFFFD');

const MAX_DEPTH = 6;
const storedText = (s: string) => {
  const t = redactLinks(s);
  return storable(t.length > 500 ? `${t.slice(0, 500)}…` : t);
};

/** A copy of `value` with secret-looking fields and link parameters redacted, long strings cut, deep or wide structures bounded. */
export function redactSecrets(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return storedText(value);
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return value.toISOString();
  if (value === null || typeof value !== 'object') return value ?? null;
  if (depth >= MAX_DEPTH) return '[…]';
  if (Array.isArray(value)) return value.slice(0, 50).map((v) => redactSecrets(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value).slice(0, 100)) out[storable(k)] = isSecretField(k) ? REDACTED : redactSecrets(v, depth + 1);
  return out;
}

/**
 * One place of a schema, through its wrappers (optional, nullable, default, pipe, union, lazy, ...): whether any of
 * them is marked secret, the fields of its objects, the items of its arrays and the values of its records.
 */
interface Place {
  secret: boolean;
  /** An object: only the keys of `fields` are its (zod strips the rest; a loose object's extra keys are not kept). */
  object: boolean;
  fields: Map<string, z.ZodType[]>;
  items: z.ZodType[];
  values: z.ZodType[];
}

type Def = { type: string; [k: string]: unknown };
const defOf = (s: z.ZodType) => (s as unknown as { _zod: { def: Def } })._zod.def;

function placeOf(schemas: readonly z.ZodType[]): Place {
  const place: Place = { secret: false, object: false, fields: new Map(), items: [], values: [] };
  const seen = new Set<z.ZodType>();
  const visit = (s: z.ZodType) => {
    if (seen.has(s)) return;
    seen.add(s);
    if (isMarkedSecret(s)) place.secret = true;
    const def = defOf(s);
    switch (def.type) {
      case 'object':
        place.object = true;
        for (const [k, v] of Object.entries(def.shape as Record<string, z.ZodType>))
          place.fields.set(k, [...(place.fields.get(k) ?? []), v]);
        return;
      case 'record':
        place.values.push(def.valueType as z.ZodType);
        return;
      case 'array':
        place.items.push(def.element as z.ZodType);
        return;
      case 'tuple':
        place.items.push(...(def.items as z.ZodType[]), ...(def.rest ? [def.rest as z.ZodType] : []));
        return;
      case 'union':
        return (def.options as z.ZodType[]).forEach(visit);
      case 'intersection':
        return [def.left, def.right].forEach((x) => visit(x as z.ZodType));
      case 'pipe':
        return [def.in, def.out].forEach((x) => visit(x as z.ZodType));
      case 'lazy':
        return visit((def.getter as () => z.ZodType)());
      default:
        if (def.innerType) visit(def.innerType as z.ZodType);
    }
  };
  schemas.forEach(visit);
  return place;
}

/** Every field a schema declares, by path (`a.b`, `list[].c`, `map.*`), and whether the schema marks it secret. */
export function declaredFields(schema: z.ZodType): { path: string; secret: boolean }[] {
  const out: { path: string; secret: boolean }[] = [];
  const walk = (schemas: readonly z.ZodType[], path: string, depth: number) => {
    const place = placeOf(schemas);
    if (path) out.push({ path, secret: place.secret });
    if (place.secret || depth > 8) return;
    for (const [k, s] of place.fields) walk(s, path ? `${path}.${k}` : k, depth + 1);
    if (place.items.length) walk(place.items, `${path}[]`, depth + 1);
    if (place.values.length) walk(place.values, `${path}.*`, depth + 1);
  };
  walk([schema], '', 0);
  return out;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && [Object.prototype, null].includes(Object.getPrototypeOf(v));

function declared(schemas: readonly z.ZodType[], value: unknown, depth: number): unknown {
  const place = placeOf(schemas);
  if (place.secret) return REDACTED;
  if (depth >= MAX_DEPTH) return '[…]';
  if (Array.isArray(value) && place.items.length) return value.slice(0, 50).map((v) => declared(place.items, v, depth + 1));
  // An object whose keys the schema names; an open one (z.unknown(), a transform's answer) is redacted by names only.
  if (isPlainObject(value) && (place.object || place.values.length)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value).slice(0, 100)) {
      const field = place.fields.get(k) ?? (place.values.length ? place.values : null);
      if (field) out[storable(k)] = isSecretField(k) ? REDACTED : declared(field, v, depth + 1);
    }
    return out;
  }
  return redactSecrets(value, depth);
}

/**
 * An accepted input as it may be stored: the fields `schema` declares (anything else is dropped), secret-marked and
 * secret-looking fields redacted, links' secret parameters redacted, sizes bounded.
 */
export function declaredInput(schema: z.ZodType, value: unknown): unknown {
  return declared([schema], value, 0);
}
