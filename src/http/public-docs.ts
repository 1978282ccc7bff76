import { reportIssueBody, REPORT_ISSUE_PATH } from './routes/report-issue.js';
import { loginFailedBody, LOGIN_FAILED_PATH, notMeBody } from './routes/security.js';
import { NOT_ME_PATH } from '../modules/security/credential-notices.js';
import { WEBHOOK_PATH } from './routes/payments-webhook.js';
import { AIRTIME_CASH_WEBHOOK_PATH } from './routes/airtime-cash-webhook.js';
import { SMS_REPORTS_PATH } from '../modules/notifications/sms.js';
import { RECEIPT_KEY_PATH } from './routes/receipt-key.js';
import { USSD_CALLBACK_PATH } from '../modules/ussd/api.js';
import { errorResponses } from './openapi-errors.js';
import { airtimeCashEvent, chargeEvent, json, okAnswer, plainBody, ref, type PublicDoc } from './public-docs-parts.js';

export { PUBLIC_TAGS, type PublicDoc } from './public-docs-parts.js';

/**
 * The HTTP endpoints that are not registry operations (spec 4.11 and the platform's own), as OpenAPI operations.
 * The processor's webhook is also an OpenAPI 3.1 `webhooks` entry (`webhook` names it); request bodies given as
 * zod schemas become components like the operations' inputs.
 */
export const PUBLIC_DOCS: PublicDoc[] = [
  {
    method: 'POST',
    path: WEBHOOK_PATH,
    webhook: 'chargeSuccess',
    schemas: { ProcessorEvent: chargeEvent },
    operation: {
      operationId: 'processorWebhook',
      summary: 'Payment-processor event (charge.success)',
      description:
        'The processor posts its events here. The `x-processor-signature` header is the HMAC-SHA512 (hex) of the raw body with the processor secret key; it is checked before anything is parsed (401 otherwise). The event is stored and answered 200 at once; the wallet is credited by a job, once per reference however often the event arrives.',
      tags: ['Public'],
      security: [],
      parameters: [
        {
          name: 'x-processor-signature',
          in: 'header',
          required: true,
          description: 'HMAC-SHA512 of the raw body, hex',
          schema: { type: 'string' },
          example: 'b1946ac92492d2347c6235b4d2611184',
        },
      ],
      requestBody: {
        required: true,
        content: json(ref('ProcessorEvent'), {
          event: 'charge.success',
          data: {
            reference: 'top_01JD8Z6Q4X9R2M5N7P3K1T0W8Y',
            amount: 500000,
            currency: 'NGN',
            status: 'success',
            channel: 'card',
            paid_at: '2026-11-24T09:30:00.000Z',
          },
        }),
      },
      responses: {
        '200': okAnswer('Stored; processed asynchronously'),
        ...errorResponses(['BAD_REQUEST', 'UNAUTHENTICATED', 'PAYLOAD_TOO_LARGE', 'INTERNAL']),
      },
    },
  },
  {
    method: 'POST',
    path: AIRTIME_CASH_WEBHOOK_PATH,
    webhook: 'airtimeCashReceived',
    schemas: { AirtimeCashEvent: airtimeCashEvent },
    operation: {
      operationId: 'airtimeCashWebhook',
      summary: 'Provider C: what arrived for an airtime-to-cash request',
      description:
        "Provider C posts here when airtime arrives for a request (or the request expires or is closed). The `x-provider-signature` header is the HMAC-SHA512 (hex) of the raw body with provider C's secret key, checked before anything is parsed (401 otherwise). A `received` status credits the wallet at the request's rate for the part received, at most once per request however often it arrives; a request id we never issued is answered `known: false` and ignored.",
      tags: ['Public'],
      security: [],
      parameters: [
        {
          name: 'x-provider-signature',
          in: 'header',
          required: true,
          description: 'HMAC-SHA512 of the raw body, hex',
          schema: { type: 'string' },
        },
      ],
      requestBody: {
        required: true,
        content: json(ref('AirtimeCashEvent'), {
          request_id: '20261126100501JDA2C0000000000000000000',
          status: 'received',
          amount_received: '1000.00',
          amount_settled: '900.00',
          transactionId: 'c-a2c-123',
        }),
      },
      responses: {
        '200': okAnswer('Applied', { known: { type: 'boolean' } }, { known: true }),
        ...errorResponses(['BAD_REQUEST', 'UNAUTHENTICATED', 'PAYLOAD_TOO_LARGE', 'INTERNAL']),
      },
    },
  },
  {
    method: 'POST',
    path: REPORT_ISSUE_PATH,
    body: { name: 'ReportIssueInput', schema: reportIssueBody },
    operation: {
      operationId: 'reportIssue',
      summary: "A client's error report",
      description: "A client's fallback error screen reports what broke (spec 4.11). No token; at most 16 KB and 10 a minute per address.",
      tags: ['Public'],
      security: [],
      requestBody: plainBody('ReportIssueInput', {
        message: 'The wallet screen crashed',
        url: 'https://app.example.com/wallet',
        appVersion: '1.4.0',
      }),
      responses: {
        '200': okAnswer('Recorded', { id: { type: 'string' } }, { id: '42' }),
        ...errorResponses(['VALIDATION_FAILED', 'PAYLOAD_TOO_LARGE', 'RATE_LIMITED', 'INTERNAL']),
      },
    },
  },
  {
    method: 'POST',
    path: LOGIN_FAILED_PATH,
    body: { name: 'LoginFailedInput', schema: loginFailedBody },
    operation: {
      operationId: 'loginFailed',
      summary: 'A failed sign-in seen by a client',
      description:
        'Records a failed sign-in for rate limiting and alerts (spec 4.11). No token; answers the same whether or not the identifier exists.',
      tags: ['Public'],
      security: [],
      requestBody: plainBody('LoginFailedInput', { identifier: 'ada@example.com', method: 'pin', reason: 'wrong PIN' }),
      responses: { '200': okAnswer('Recorded'), ...errorResponses(['VALIDATION_FAILED', 'RATE_LIMITED', 'INTERNAL']) },
    },
  },
  {
    method: 'POST',
    path: NOT_ME_PATH,
    body: { name: 'NotMeInput', schema: notMeBody },
    operation: {
      operationId: 'notMe',
      summary: '"This wasn\'t me" on a credential-change notice',
      description:
        'The token of the e-mailed link signs the account out everywhere and turns PIN login off. The link itself (GET) shows a page with a button; this POST is what the button (a form) or an API client sends.',
      tags: ['Public'],
      security: [],
      requestBody: plainBody('NotMeInput', { token: 'nm_01JD8Z6Q4X9R2M5N7P3K1T0W8Y' }),
      responses: {
        '200': okAnswer('Every session is signed out'),
        ...errorResponses(['VALIDATION_FAILED', 'NOT_FOUND', 'RATE_LIMITED', 'INTERNAL']),
      },
    },
  },
  {
    method: 'POST',
    path: `${SMS_REPORTS_PATH}/{provider}`,
    operation: {
      operationId: 'smsDeliveryReport',
      summary: "The SMS gateway's delivery report",
      description:
        "Termii posts JSON signed with SMS_WEBHOOK_SECRET (X-Termii-Signature, HMAC-SHA512); Africa's Talking posts a form to a callback URL that carries the secret as `?token=`. Only the configured gateway's path exists.",
      tags: ['Public'],
      security: [],
      parameters: [{ name: 'provider', in: 'path', required: true, schema: { type: 'string', enum: ['termii', 'africastalking'] } }],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: { type: 'object', properties: { message_id: { type: 'string' }, status: { type: 'string' } } },
            example: { message_id: '3017544054459', status: 'Delivered' },
          },
          'application/x-www-form-urlencoded': {
            schema: {
              type: 'object',
              properties: { id: { type: 'string' }, status: { type: 'string' }, failureReason: { type: 'string' } },
            },
          },
        },
      },
      responses: { '200': okAnswer('Recorded'), ...errorResponses(['BAD_REQUEST', 'UNAUTHENTICATED', 'INTERNAL']) },
    },
  },
  {
    method: 'POST',
    path: USSD_CALLBACK_PATH,
    operation: {
      operationId: 'ussdCallback',
      summary: "The USSD gateway's callback (Africa's Talking)",
      description:
        "One form post per answer of a USSD session: `text` holds the answers so far joined by `*`. The answer is plain text, `CON <screen>` to ask for the next answer or `END <screen>` to close the session; a screen fits 182 characters. Only the gateway's addresses (USSD_ALLOWED_IPS) may call it.",
      tags: ['Public'],
      security: [],
      requestBody: {
        required: true,
        content: {
          'application/x-www-form-urlencoded': {
            schema: {
              type: 'object',
              required: ['sessionId', 'phoneNumber'],
              properties: {
                sessionId: { type: 'string' },
                serviceCode: { type: 'string', examples: ['*384*46#'] },
                phoneNumber: { type: 'string', examples: ['+2348031234567'] },
                networkCode: { type: 'string' },
                text: { type: 'string', examples: ['3*1*2'] },
              },
            },
          },
        },
      },
      responses: {
        '200': {
          description: 'The next screen',
          content: { 'text/plain': { schema: { type: 'string' }, example: 'CON 1 Balance\n2 Airtime' } },
        },
        ...errorResponses(['VALIDATION_FAILED', 'FORBIDDEN', 'INTERNAL']),
      },
    },
  },
  {
    method: 'GET',
    path: RECEIPT_KEY_PATH,
    operation: {
      operationId: 'receiptKey',
      summary: 'The receipt verification key',
      description: "The Ed25519 public key that signs receipts, so anyone can check a receipt's signature offline.",
      tags: ['Platform'],
      security: [],
      responses: {
        '200': okAnswer(
          'The key',
          {
            alg: { const: 'Ed25519' },
            keyId: { type: 'string' },
            publicKeyPem: { type: 'string' },
            jwk: { type: 'object' },
            canonicalization: { type: 'string' },
          },
          {
            alg: 'Ed25519',
            keyId: 'rk1',
            publicKeyPem: '-----BEGIN PUBLIC KEY-----\n...\n-----END PUBLIC KEY-----\n',
            jwk: { kty: 'OKP', crv: 'Ed25519' },
            canonicalization: 'sorted-key JSON',
          },
        ),
      },
    },
  },
  {
    method: 'GET',
    path: '/healthz',
    operation: {
      operationId: 'healthz',
      summary: 'Liveness',
      description: 'The process answers.',
      tags: ['Platform'],
      security: [],
      responses: { '200': okAnswer('Alive') },
    },
  },
  {
    method: 'GET',
    path: '/readyz',
    operation: {
      operationId: 'readyz',
      summary: 'Readiness',
      description: 'The database answers and no migration is pending; a load balancer sends traffic only while this is 200.',
      tags: ['Platform'],
      security: [],
      responses: { '200': okAnswer('Ready'), ...errorResponses(['SERVICE_UNAVAILABLE']) },
    },
  },
  {
    method: 'GET',
    path: '/metrics',
    operation: {
      operationId: 'metrics',
      summary: 'Prometheus metrics',
      description:
        'Prometheus text format. Needs `Authorization: Bearer <METRICS_TOKEN>` when METRICS_TOKEN is set (always in production).',
      tags: ['Platform'],
      security: [{ metricsToken: [] }],
      responses: {
        '200': { description: 'Metrics', content: { 'text/plain': { schema: { type: 'string' } } } },
        ...errorResponses(['UNAUTHENTICATED']),
      },
    },
  },
  {
    method: 'GET',
    path: '/.well-known/jwks.json',
    operation: {
      operationId: 'jwks',
      summary: 'Access-token keys (JWKS)',
      description: 'The public keys that verify the access tokens this service issues.',
      tags: ['Platform'],
      security: [],
      responses: {
        '200': {
          description: 'The key set',
          content: json(
            { type: 'object', required: ['keys'], properties: { keys: { type: 'array', items: { type: 'object' } } } },
            { keys: [{ kty: 'EC', crv: 'P-256', kid: 'k1' }] },
          ),
        },
      },
    },
  },
  {
    method: 'GET',
    path: NOT_ME_PATH,
    operation: {
      operationId: 'notMePage',
      summary: 'The page behind a "this wasn\'t me" link',
      description: 'Changes nothing (mail scanners open links): it shows a button that posts the token to the same path.',
      tags: ['Public'],
      security: [],
      parameters: [
        {
          name: 'token',
          in: 'query',
          required: true,
          schema: { type: 'string', maxLength: 200 },
          example: 'nm_01JD8Z6Q4X9R2M5N7P3K1T0W8Y',
        },
      ],
      responses: { '200': { description: 'An HTML page', content: { 'text/html': { schema: { type: 'string' } } } } },
    },
  },
  {
    method: 'GET',
    path: '/files/kyc/{path}',
    operation: {
      operationId: 'kycFile',
      summary: 'A KYC file by its signed URL',
      description:
        'The URLs of getKycFileUrl and adminGetKycSubmission: valid for minutes, HMAC-signed (`expires`, `sig`); anything else is 404.',
      tags: ['Public'],
      security: [],
      parameters: [
        { name: 'path', in: 'path', required: true, schema: { type: 'string' } },
        { name: 'expires', in: 'query', required: true, schema: { type: 'string' }, example: '1795604167' },
        { name: 'sig', in: 'query', required: true, schema: { type: 'string' }, example: 'c2lnbmF0dXJl' },
      ],
      responses: {
        '200': {
          description: 'The file',
          content: {
            'image/jpeg': { schema: { type: 'string', format: 'binary' } },
            'image/png': { schema: { type: 'string', format: 'binary' } },
            'application/pdf': { schema: { type: 'string', format: 'binary' } },
          },
        },
        ...errorResponses(['NOT_FOUND']),
      },
    },
  },
  {
    method: 'GET',
    path: '/api/openapi.json',
    operation: {
      operationId: 'openapi',
      summary: 'This document',
      description: 'The OpenAPI 3.1 document, generated from the operation registry; an interactive view is at /docs.',
      tags: ['Platform'],
      security: [],
      responses: { '200': { description: 'OpenAPI 3.1', content: json({ type: 'object' }) } },
    },
  },
];
