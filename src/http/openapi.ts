import { z } from 'zod';
import type { Config } from '../config.js';
import { ERROR_CODES, statusOf, type ErrorCode } from './errors.js';
import { authOf, serverFnPath, versionedPath, type AnyOperation } from './registry.js';

const COMMON: ErrorCode[] = ['VALIDATION_FAILED', 'RATE_LIMITED', 'INTERNAL'];

function jsonSchema(schema: z.ZodType, io: 'input' | 'output') {
  try {
    const s = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
    delete s.$schema;
    return s;
  } catch {
    return {};
  }
}

/** OpenAPI 3.1 from the registry: every operation with its purpose, schemas and error responses. */
export function buildOpenApi(ops: AnyOperation[], config: Config) {
  const paths: Record<string, Record<string, unknown>> = {};
  const errorSchema = {
    type: 'object',
    required: ['ok', 'error'],
    properties: {
      ok: { const: false },
      error: {
        type: 'object',
        required: ['code', 'message'],
        properties: {
          code: { type: 'string', enum: [...ERROR_CODES] },
          message: { type: 'string' },
          errorId: { type: 'string' },
          issues: { type: 'array', items: { type: 'object', properties: { path: { type: 'string' }, message: { type: 'string' } } } },
        },
      },
    },
  };
  for (const op of ops) {
    const auth = authOf(op);
    const codes = new Set<ErrorCode>([...COMMON, ...(op.errors ?? [])]);
    if (auth !== 'public') codes.add('UNAUTHENTICATED');
    if (auth === 'admin') codes.add('FORBIDDEN');
    if (op.gates?.pin) ['INVALID_PIN', 'PIN_NOT_SET', 'PIN_LOCKED'].forEach((c) => codes.add(c as ErrorCode));
    if (op.gates?.kycTier) codes.add('KYC_TIER_REQUIRED');
    if (op.gates?.stepUp || op.gates?.reauth) codes.add('STEP_UP_REQUIRED');
    if (op.method === 'POST' && auth !== 'public') ['IDEMPOTENCY_KEY_REUSED', 'IDEMPOTENCY_IN_PROGRESS'].forEach((c) => codes.add(c as ErrorCode));
    const byStatus = new Map<number, ErrorCode[]>();
    for (const c of codes) byStatus.set(statusOf(c), [...(byStatus.get(statusOf(c)) ?? []), c]);
    const responses: Record<string, unknown> = {
      '200': {
        description: 'Success',
        content: { 'application/json': { schema: { allOf: [{ type: 'object', properties: { ok: { const: true } }, required: ['ok'] }, jsonSchema(op.output, 'output')] } } },
      },
    };
    for (const [status, list] of [...byStatus.entries()].sort()) {
      responses[String(status)] = { description: list.join(', '), content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
    }
    const inputSchema = jsonSchema(op.input, 'input') as { properties?: Record<string, any>; required?: string[] };
    const operation: Record<string, unknown> = {
      operationId: op.name,
      summary: op.purpose,
      tags: [op.suffix],
      security: auth === 'public' ? [] : [{ bearer: [] }],
      responses,
    };
    if (op.method === 'GET') {
      operation.parameters = Object.entries(inputSchema.properties ?? {}).map(([name, schema]) => ({
        name,
        in: 'query',
        required: (inputSchema.required ?? []).includes(name),
        schema,
      }));
    } else {
      operation.parameters = [{ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', maxLength: 255 } }];
      if (op.gates?.stepUp || op.gates?.reauth) (operation.parameters as unknown[]).push({ name: 'X-Grant-Token', in: 'header', required: false, schema: { type: 'string' } });
      operation.requestBody = {
        required: false,
        content: { 'application/json': { schema: { type: 'object', properties: { data: inputSchema }, additionalProperties: false } } },
      };
    }
    paths[serverFnPath(op)] = { [op.method.toLowerCase()]: operation };
    if (op.versioned) paths[versionedPath(op)] = { [op.method.toLowerCase()]: { ...operation, operationId: `${op.name}V1` } };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Bills, wallet and identity service', version: '1.0.0', description: 'Generated from the operation registry.' },
    servers: [{ url: config.publicUrl }],
    components: { schemas: { Error: errorSchema }, securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    paths,
  };
}
