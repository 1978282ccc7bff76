import { ERROR_CODES, type ErrorCode } from '../kernel/errors.js';
import { statusOf } from './errors.js';

type Schema = Record<string, any>;

/**
 * The error responses of an operation: one per status, naming the codes it can carry. Each distinct set of codes
 * is one component (`components.responses`, named by its codes) that every operation with that set refers to.
 */
export function errorResponses(codes: Iterable<ErrorCode>, shared?: Record<string, Schema>): Record<string, Schema> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const c of codes) byStatus.set(statusOf(c), [...(byStatus.get(statusOf(c)) ?? []), c]);
  const responses: Record<string, Schema> = {};
  for (const [status, list] of [...byStatus.entries()].sort((a, b) => a[0] - b[0])) {
    const response = {
      description: `Error: ${list.join(', ')}`,
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/Error' },
          example: {
            ok: false,
            error: {
              code: list[0],
              message: `A sentence for people about ${list[0]}`,
              ...(status === 500 ? { errorId: 'err_01JD8Z6Q4X9R2M5N7P3K1T0W8Y' } : {}),
            },
          },
        },
      },
    };
    if (!shared) {
      responses[String(status)] = response;
      continue;
    }
    const name = list.join('.');
    shared[name] = response;
    responses[String(status)] = { $ref: `#/components/responses/${name}` };
  }
  return responses;
}

export const ERROR_SCHEMA: Schema = {
  type: 'object',
  description: 'Every refusal: `ok` false, a stable code (docs/errors.md) and a message for people.',
  required: ['ok', 'error'],
  properties: {
    ok: { const: false },
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', enum: [...ERROR_CODES] },
        message: { type: 'string' },
        errorId: { type: 'string', description: 'present on 500s: quote it to support' },
        issues: {
          type: 'array',
          description: 'present on VALIDATION_FAILED: one entry per wrong field',
          items: { type: 'object', required: ['path', 'message'], properties: { path: { type: 'string' }, message: { type: 'string' } } },
        },
        details: {
          type: 'object',
          description:
            'machine-readable facts of some refusals: on INVALID_PIN, INVALID_CREDENTIALS and PIN_LOCKED the PIN tries left and the end of the lock',
          properties: {
            triesLeft: { type: 'integer', minimum: 0, description: 'wrong PINs still allowed before the PIN locks' },
            lockedUntil: { type: 'string', format: 'date-time', description: 'when a locked PIN can be tried again' },
          },
        },
      },
    },
  },
};
