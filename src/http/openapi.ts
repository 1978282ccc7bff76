import { z } from 'zod';
import type { Config } from '../config.js';
import type { ErrorCode } from '../kernel/errors.js';
import { ERROR_SCHEMA, errorResponses } from './openapi-errors.js';
import { sampleOf } from './openapi-examples.js';
import { PUBLIC_DOCS, PUBLIC_TAGS } from './public-docs.js';
import { addOutboundWebhooks } from './openapi-webhooks.js';
import { authOf, scopeOf, serverFnPath, versionedPath, type AnyOperation } from '../platform/operation.js';

type Schema = Record<string, any>;

const COMMON: ErrorCode[] = ['VALIDATION_FAILED', 'RATE_LIMITED', 'INTERNAL'];
const SCHEMAS = '#/components/schemas/';

/** What each tag (the area of an operation's suffix) covers; an operation whose tag is missing here fails the build. */
export const TAGS: Record<string, string> = {
  Auth: 'Signing in (e-mail code, login PIN), sessions, single-device claims and phone verification.',
  '2FA': 'Step-up challenges, authenticator-app (TOTP) enrolment, grants and two-factor reset.',
  Settings: 'The profile, transaction PIN, notification preferences and closing the account.',
  Wallet: 'Balance and ledger, top-up intents, debits, wallet-to-wallet transfers and dedicated virtual accounts.',
  Payments: 'Payment-processor top-ups: checkout, verification, receipts and payment history.',
  VTU: 'Airtime, data, cable TV, electricity, betting and exam PINs: catalogues, verification, quotes and purchases.',
  KYC: 'The three KYC tiers: file uploads, liveness, NIN and bank checks, status.',
  Notifications: 'The in-app inbox, broadcasts and polls.',
  Push: 'Web push subscriptions and the VAPID key.',
  Receipts: 'Signed receipts and their public verification.',
  Reports: 'Customer reports about transactions.',
  Savings: 'Savings locks.',
  Loans: 'Small loans: overview, taking and repaying.',
  Growth: 'Referrals, milestones and daily check-ins.',
  Marketplace: 'Marketplace products and orders.',
  Subscriptions: 'Subscription plans and orders.',
  Support: 'Support threads with the operators.',
  Schedules: 'Scheduled (recurring) purchases.',
  Beneficiaries: 'Saved beneficiaries (numbers, smartcards, meters, betting accounts, wallet users) and "my number".',
  Whatsapp: 'The WhatsApp assistant: linking a number with a one-time code, and the one-time PIN page of its purchases.',
  Developers:
    'API keys (issue 45): create, list, revoke and roll the keys a reseller calls the operations with (the apiKey scheme: a test key runs against the simulators); ' +
    "webhook endpoints, their delivery log and resends; the signed events sent to a reseller's endpoints are this document's `webhooks` " +
    '(purchase.succeeded, purchase.failed, purchase.refunded, wallet.credited, epin.batch_ready), each verified with its Webhook-Signature.',
  Admin: "Operators only (an ADMIN_EMAILS account's token): reviews, adjustments, catalogue, floats and reconciliation.",
  ...PUBLIC_TAGS,
};

const PAGING: Record<string, string> = { limit: 'Limit', offset: 'Offset' };
const PAGING_DESCRIPTIONS: Record<string, string> = {
  limit: 'Rows per page (spec 4.12); larger values are cut to the cap.',
  offset: 'Rows to skip; newest first, so new rows shift the offsets: de-duplicate on the reference.',
};

const pascal = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
export const tagOf = (op: { suffix: string }) => op.suffix.replace(/^(Bearer|Public)/, '');

/** Zod to JSON Schema for a registry of named schemas: shared schemas (`.meta({ id })`) become components too. */
function componentsOf(named: Map<z.ZodType, string>, io: 'input' | 'output'): Record<string, Schema> {
  const registry = z.registry<{ id: string }>();
  for (const [schema, id] of named) registry.add(schema, { id });
  const out = z.toJSONSchema(registry, { io, unrepresentable: 'any', uri: (id) => `${SCHEMAS}${id}` }) as {
    schemas: Record<string, Schema>;
  };
  const result: Record<string, Schema> = {};
  for (const [id, s] of Object.entries(out.schemas)) {
    if (id === '__shared') Object.assign(result, s.$defs ?? {});
    else result[id] = s;
  }
  const text = JSON.stringify(result).replaceAll(`${SCHEMAS}__shared#/$defs/`, SCHEMAS);
  const clean: Record<string, Schema> = JSON.parse(text);
  for (const s of Object.values(clean)) {
    delete s.$schema;
    delete s.$id;
  }
  return clean;
}

/** A description an integrator can act on: purpose, who may call, gates, other path. */
function describe(op: AnyOperation): string {
  const auth = authOf(op);
  const lines = [`${pascal(op.purpose)}.`];
  lines.push(
    auth === 'public'
      ? 'Public: no access token.'
      : auth === 'admin'
        ? "Operators only: an operator's access token (Authorization: Bearer)."
        : "The signed-in customer's access token (Authorization: Bearer); acts on the caller's own data only.",
  );
  if (auth === 'admin')
    lines.push(
      `Operator roles: ${op.roles?.length ? `admin, ${op.roles.join(', ')}` : 'admin only'} (other operators get 403 FORBIDDEN). Every call leaves one audit row.`,
    );
  if (auth === 'admin')
    lines.push(
      op.enrolsOperatorFactor
        ? 'Runs for an operator without a second factor too (it enrols one).'
        : 'Under OPERATOR_2FA=required the operator needs a confirmed authenticator (TOTP) or passkey (403 OPERATOR_2FA_REQUIRED).',
    );
  if (op.gates?.pin)
    lines.push(
      'Needs the 4-digit transaction PIN in `pin` (wrong PINs lock it for a while), or, where the customer chose it, a passkey assertion for this request in X-Passkey-Assertion (passkeyPaymentOptions).',
    );
  if (op.gates?.kycTier) lines.push(`Needs KYC tier ${op.gates.kycTier} or higher.`);
  if (op.gates?.money) lines.push('Moves money: refused with ACCOUNT_FROZEN while an operator has frozen the account.');
  if (op.gates?.stepUp || op.gates?.reauth)
    lines.push('Needs a recent step-up proof: the `grantToken` of verifyStepupChallenge in the X-Grant-Token header.');
  if (op.method === 'POST' && auth !== 'public')
    lines.push('Send an Idempotency-Key header to make a retry safe: the same key and body replay the first answer.');
  if (op.versioned) lines.push(`Also served at \`${versionedPath(op)}\` with the same input and answer.`);
  return lines.join('\n\n');
}

function errorCodes(op: AnyOperation): Set<ErrorCode> {
  const auth = authOf(op);
  const codes = new Set<ErrorCode>([...COMMON, ...(op.errors ?? [])]);
  if (auth !== 'public') codes.add('UNAUTHENTICATED');
  if (auth === 'admin') codes.add('FORBIDDEN');
  if (auth === 'admin' && !op.enrolsOperatorFactor) codes.add('OPERATOR_2FA_REQUIRED');
  if (op.gates?.pin) ['INVALID_PIN', 'PIN_NOT_SET', 'PIN_LOCKED', 'PASSKEY_INVALID'].forEach((c) => codes.add(c as ErrorCode));
  if (op.gates?.kycTier) codes.add('KYC_TIER_REQUIRED');
  if (op.gates?.money) codes.add('ACCOUNT_FROZEN');
  if (op.gates?.stepUp || op.gates?.reauth) codes.add('STEP_UP_REQUIRED');
  if (op.method === 'POST' && auth !== 'public')
    ['IDEMPOTENCY_KEY_REUSED', 'IDEMPOTENCY_IN_PROGRESS'].forEach((c) => codes.add(c as ErrorCode));
  return codes;
}

/** The schemas the document's components hold, and each operation's input and output component names. */
interface Components {
  schemas: Record<string, Schema>;
  inputSchemas: Record<string, Schema>;
  inputName: Map<AnyOperation, string>;
  outputName: Map<AnyOperation, string>;
  /** The schema a `#/components/schemas/` reference names. */
  resolve: (ref: string) => Schema;
  parameters: Record<string, Schema>;
  responses: Record<string, Schema>;
}

function componentsFor(ops: readonly AnyOperation[]): Components {
  const inputs = new Map<z.ZodType, string>();
  const outputs = new Map<z.ZodType, string>();
  const inputName = new Map<AnyOperation, string>();
  const outputName = new Map<AnyOperation, string>();
  for (const op of ops) {
    if (!TAGS[tagOf(op)]) throw new Error(`operation ${op.name}: tag ${tagOf(op)} is not described in openapi.ts TAGS`);
    // An input or output schema shared by several operations is one component under the first one's name.
    if (!inputs.has(op.input)) inputs.set(op.input, `${pascal(op.name)}Input`);
    inputName.set(op, inputs.get(op.input)!);
    // A download's answer is its file (issue 43), not a JSON component.
    if (op.download) continue;
    if (!outputs.has(op.output)) outputs.set(op.output, `${pascal(op.name)}Output`);
    outputName.set(op, outputs.get(op.output)!);
  }
  for (const d of PUBLIC_DOCS) if (d.body && !inputs.has(d.body.schema)) inputs.set(d.body.schema, d.body.name);
  const inputSchemas = componentsOf(inputs, 'input');
  const outputSchemas = componentsOf(outputs, 'output');
  for (const [id, s] of Object.entries(inputSchemas)) {
    // A shared schema used on both sides keeps one name when both sides agree, else the input side is renamed.
    if (outputSchemas[id] && JSON.stringify(outputSchemas[id]) !== JSON.stringify(s))
      throw new Error(`component ${id} differs between inputs and outputs`);
  }
  // An answer is its output with `ok: true` beside it (docs/design.md §4), so each operation's output component says so.
  for (const name of new Set(outputName.values())) {
    const s = outputSchemas[name];
    if (s.type === 'object') {
      s.properties = { ok: { const: true }, ...(s.properties ?? {}) };
      s.required = ['ok', ...(s.required ?? [])];
    }
  }
  const schemas: Record<string, Schema> = { Error: ERROR_SCHEMA, ...outputSchemas, ...inputSchemas };
  for (const d of PUBLIC_DOCS) Object.assign(schemas, d.schemas ?? {});
  const resolve = (ref: string) => schemas[ref.slice(SCHEMAS.length)] ?? {};
  return { schemas, inputSchemas, inputName, outputName, resolve, parameters: headerParameters(), responses: {} };
}

/** The header parameters shared by reference; paging parameters join them as operations use them. */
function headerParameters(): Record<string, Schema> {
  return {
    IdempotencyKey: {
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description: 'One key per attempt of a change: a retry with the same key and body answers what the first did.',
      schema: { type: 'string', maxLength: 255 },
      example: '6f1c2a9e-3b7d-4e0f-a5c8-1d2e3f4a5b6c',
    },
    GrantToken: {
      name: 'X-Grant-Token',
      in: 'header',
      required: false,
      description: 'The grantToken of verifyStepupChallenge, for operations that need a recent step-up proof.',
      schema: { type: 'string' },
      example: 'grt_01JD8Z6Q4X9R2M5N7P3K1T0W8Y',
    },
    PasskeyAssertion: {
      name: 'X-Passkey-Assertion',
      in: 'header',
      required: false,
      description:
        "Instead of the PIN, where the customer chose it: startAuthentication's answer to passkeyPaymentOptions for this operation and input, as base64url-encoded JSON (once).",
      schema: { type: 'string', maxLength: 24000 },
      example: 'eyJpZCI6Ii4uLiJ9',
    },
  };
}

/** A GET's input as query parameters; paging (limit, offset) is one shared parameter wherever it pages the usual way. */
function queryParameters(input: Schema, c: Components): unknown[] {
  return Object.entries((input.properties ?? {}) as Record<string, Schema>).map(([name, schema]) => {
    const parameter = {
      name,
      in: 'query',
      required: (input.required ?? []).includes(name),
      schema,
      example: sampleOf(schema, c.resolve, name),
    };
    const shared = PAGING[name];
    if (!shared) return parameter;
    c.parameters[shared] ??= { ...parameter, description: PAGING_DESCRIPTIONS[name] };
    const { description: _d, ...common } = c.parameters[shared];
    return JSON.stringify(common) === JSON.stringify(parameter) ? { $ref: `#/components/parameters/${shared}` } : parameter;
  });
}

/** A POST's headers by reference and its `{data}` body. */
function postParts(op: AnyOperation, c: Components): Record<string, unknown> {
  const parts: Record<string, unknown> = {};
  const params: unknown[] = [];
  if (authOf(op) !== 'public') params.push({ $ref: '#/components/parameters/IdempotencyKey' });
  if (op.gates?.stepUp || op.gates?.reauth) params.push({ $ref: '#/components/parameters/GrantToken' });
  if (op.gates?.pin) params.push({ $ref: '#/components/parameters/PasskeyAssertion' });
  if (params.length) parts.parameters = params;
  const ref = { $ref: `${SCHEMAS}${c.inputName.get(op)}` };
  parts.requestBody = {
    required: false,
    description: 'The inputs inside `data` (docs/design.md §4); an empty body means no inputs.',
    content: {
      'application/json': {
        schema: { type: 'object', properties: { data: ref }, additionalProperties: false },
        example: { data: sampleOf(ref, c.resolve) },
      },
    },
  };
  return parts;
}

/** The 200 answer: the output as JSON, or a download's file in one of its content types (issue 43). */
function doneResponse(op: AnyOperation, c: Components) {
  if (op.download)
    return {
      description: 'The file, with `Content-Disposition: attachment; filename="…"`',
      headers: { 'Content-Disposition': { schema: { type: 'string' }, description: 'attachment; filename="…"' } },
      content: Object.fromEntries(op.download.map((type) => [type, { schema: { type: 'string', format: 'binary' } }])),
    };
  const output = { $ref: `${SCHEMAS}${c.outputName.get(op)}` };
  return { description: 'Done', content: { 'application/json': { schema: output, example: sampleOf(output, c.resolve) } } };
}

function operationDoc(op: AnyOperation, c: Components): Record<string, unknown> {
  const operation: Record<string, unknown> = {
    operationId: op.name,
    summary: pascal(op.purpose).slice(0, 120),
    description: describe(op),
    tags: [tagOf(op)],
    ...securityOf(op),
    ...rolesOf(op),
    responses: {
      '200': doneResponse(op, c),
      ...errorResponses(errorCodes(op), c.responses),
    },
  };
  if (op.method === 'GET') operation.parameters = queryParameters(c.inputSchemas[c.inputName.get(op)!] as Schema, c);
  else Object.assign(operation, postParts(op, c));
  return operation;
}

/** The public endpoints' paths; a webhook is also a `webhooks` entry over one shared path item. */
function addPublicDocs(paths: Record<string, Record<string, unknown>>) {
  const pathItems: Record<string, Schema> = {};
  const webhooks: Record<string, Schema> = {};
  for (const d of PUBLIC_DOCS) {
    if (d.webhook) {
      // One definition: the path the processor posts to, and the same request as the `webhooks` entry.
      paths[d.path] = { [d.method.toLowerCase()]: d.operation };
      pathItems[d.webhook] = { [d.method.toLowerCase()]: { ...d.operation, operationId: d.webhook } };
      webhooks[d.webhook] = { $ref: `#/components/pathItems/${d.webhook}` };
    } else {
      paths[d.path] = { ...(paths[d.path] ?? {}), [d.method.toLowerCase()]: d.operation };
    }
  }
  return { pathItems, webhooks };
}

const SECURITY_SCHEMES = {
  bearer: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'The access token of verifyLoginOtp, startPinLogin or refreshSession.',
  },
  apiKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: '<brand>_sk_live_... or <brand>_sk_test_...',
    description:
      'An API key (createApiKey): `Authorization: Bearer <key>` on the operations its scopes (read, purchase, transfer) cover, ' +
      "listed as this scheme's roles on each operation. A write needs an Idempotency-Key; the transaction PIN is never asked. " +
      'A test key runs against the simulators with a wallet of its own (docs/resellers.md).',
  },
  metricsToken: { type: 'http', scheme: 'bearer', description: 'METRICS_TOKEN' },
};

/**
 * Who may call an operation: a session's token, and an API key holding its scope (`x-api-key-scope`) when keys may
 * (issue 45). The scope is an extension: OpenAPI lists scopes only for OAuth schemes.
 */
function securityOf(op: AnyOperation) {
  if (authOf(op) === 'public') return { security: [] };
  const scope = scopeOf(op);
  return scope === 'session' ? { security: [{ bearer: [] }] } : { security: [{ bearer: [] }, { apiKey: [] }], 'x-api-key-scope': scope };
}

/**
 * The operator roles that may call an admin operation (`x-roles`, admin first; issue 44): the console's role table is
 * generated from it (`npm run api:types`), so the screens and buttons an operator sees follow the registry.
 */
const rolesOf = (op: AnyOperation) => (authOf(op) === 'admin' ? { 'x-roles': ['admin', ...(op.roles ?? [])] } : {});

/** OpenAPI 3.1 from the registry and the public endpoints: shared components by $ref, descriptions, examples. */
export function buildOpenApi(ops: readonly AnyOperation[], config: Config) {
  const c = componentsFor(ops);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of ops) {
    const operation = operationDoc(op, c);
    paths[serverFnPath(op)] = { [op.method.toLowerCase()]: operation };
    if (op.versioned) paths[versionedPath(op)] = { [op.method.toLowerCase()]: { ...operation, operationId: `${op.name}V1` } };
  }
  const { pathItems, webhooks } = addPublicDocs(paths);
  addOutboundWebhooks(c.schemas, webhooks);
  pruneUnused(c.schemas, [paths, webhooks, pathItems]);
  const usedTags = new Set([...ops.map(tagOf), ...PUBLIC_DOCS.map((d) => (d.operation.tags as string[])[0])]);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Bills, wallet and identity service',
      version: '1.0.0',
      description:
        'Wallet, bills (VTU) and identity for Nigerian VTU businesses. Every operation is a POST or GET under `/_serverFn/<name><Suffix>`; POST inputs go inside `{"data": {...}}`, answers carry `ok`. Amounts are naira with at most 2 decimals. Generated from the operation registry.',
      contact: { name: 'The operator of this deployment', url: config.publicUrl },
    },
    servers: [{ url: config.publicUrl }],
    tags: Object.entries(TAGS)
      .filter(([name]) => usedTags.has(name))
      .map(([name, description]) => ({ name, description })),
    components: { schemas: c.schemas, responses: c.responses, parameters: c.parameters, pathItems, securitySchemes: SECURITY_SCHEMES },
    paths,
    webhooks,
  };
}

/** Deletes the schemas nothing refers to (the inputs of GET operations are spelled out as query parameters). */
function pruneUnused(schemas: Record<string, Schema>, roots: unknown[]) {
  const used = new Set<string>();
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k === '$ref' && typeof x === 'string' && x.startsWith(SCHEMAS)) {
          const name = x.slice(SCHEMAS.length);
          if (!used.has(name)) {
            used.add(name);
            walk(schemas[name]);
          }
        } else walk(x);
      }
    }
  };
  walk(roots);
  for (const name of Object.keys(schemas)) if (!used.has(name)) delete schemas[name];
}
