import createClient from 'openapi-fetch';
import type { paths } from './schema.js';

export type { paths } from './schema.js';

/**
 * A typed client of the bills, wallet and identity service, generated from its OpenAPI document: only operations
 * that exist can be called, with their real inputs, and answers come back typed. `post` and `get` take the
 * operation's `/_serverFn/...` path; a refusal (`ok: false`) throws ApiError with the service's code and message.
 */
type ServerFn = Extract<keyof paths, `/_serverFn/${string}`>;
export type PostPath = { [P in ServerFn]: paths[P] extends { post: object } ? P : never }[ServerFn];
export type GetPath = { [P in ServerFn]: paths[P] extends { get: object } ? P : never }[ServerFn];
type PostOp<P extends PostPath> = paths[P] extends { post: infer O } ? O : never;
type GetOp<P extends GetPath> = paths[P] extends { get: infer O } ? O : never;
type Ok<O> = O extends { responses: { 200: { content: { 'application/json': infer R } } } } ? Omit<R, 'ok'> : never;
export type PostInput<P extends PostPath> =
  PostOp<P> extends { requestBody?: { content: { 'application/json': { data?: infer D } } } } ? D : never;
export type GetInput<P extends GetPath> = GetOp<P> extends { parameters: { query?: infer Q } } ? Q : never;
export type PostOutput<P extends PostPath> = Ok<PostOp<P>>;
export type GetOutput<P extends GetPath> = Ok<GetOp<P>>;

/** An answer with `ok: false`: its code (the service's ERROR_CODES), message and, on validation, the fields. */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    readonly issues: { path: string; message: string }[] = [],
    /** Machine-readable facts of some refusals: PIN tries left and the end of a PIN lock (docs/errors.md). */
    readonly details: ErrorDetails = {},
  ) {
    super(message);
  }
}

export interface ErrorDetails {
  triesLeft?: number;
  lockedUntil?: string;
}

/** The request never got an answer (offline, connection dropped): the service may or may not have acted. */
export class NetworkError extends Error {}

export interface ClientOptions {
  /** The service's address, e.g. https://api.example.com (empty for the same origin in a browser). */
  baseUrl: string;
  /** The current access token (of verifyLoginOtp, startPinLogin or refreshSession); asked before every call. */
  accessToken?: () => string | null | undefined;
  /** Your own fetch (tests, retries, cookies); it may throw NetworkError itself. */
  fetch?: (request: Request) => Promise<Response>;
}

export interface CallOptions {
  /** One key per attempt of a change: a retry after a lost answer replays the first answer, never repeats it. */
  idempotencyKey?: string;
  /** The grantToken of verifyStepupChallenge, for operations that need a recent step-up proof. */
  grantToken?: string;
  /**
   * Instead of the transaction PIN, where the customer chose it: startAuthentication's answer to passkeyPaymentOptions
   * for this operation and input, as base64url-encoded JSON (sent as X-Passkey-Assertion; the input then has no pin).
   */
  passkeyAssertion?: string;
}

type Raw = (path: string, init: unknown) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

export function createServiceClient(options: ClientOptions) {
  const send = options.fetch ?? ((request: Request) => fetch(request));
  const client = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/$/, ''),
    fetch: async (request: Request) => {
      const token = options.accessToken?.();
      if (token) request.headers.set('authorization', `Bearer ${token}`);
      try {
        return await send(request);
      } catch (err) {
        if (err instanceof ApiError || err instanceof NetworkError) throw err;
        throw new NetworkError(err instanceof Error ? err.message : 'network error');
      }
    },
  });

  function unwrap<T>(result: { data?: unknown; error?: unknown; response: Response }): T {
    if (result.error !== undefined || !result.response.ok) {
      const e = (
        result.error as
          { error?: { code?: string; message?: string; issues?: { path: string; message: string }[]; details?: ErrorDetails } } | undefined
      )?.error;
      throw new ApiError(
        e?.code ?? 'INTERNAL',
        e?.message ?? `HTTP ${result.response.status}`,
        result.response.status,
        e?.issues ?? [],
        e?.details ?? {},
      );
    }
    return result.data as T;
  }

  return {
    /** Calls a POST operation with its inputs (sent as `{"data": ...}`). */
    async post<P extends PostPath>(path: P, data: PostInput<P>, opts: CallOptions = {}): Promise<PostOutput<P>> {
      const headers: Record<string, string> = {};
      if (opts.idempotencyKey) headers['idempotency-key'] = opts.idempotencyKey;
      if (opts.grantToken) headers['x-grant-token'] = opts.grantToken;
      if (opts.passkeyAssertion) headers['x-passkey-assertion'] = opts.passkeyAssertion;
      return unwrap<PostOutput<P>>(await (client.POST as Raw)(path, { body: { data }, headers }));
    },
    /** Calls a GET operation with its query inputs. */
    async get<P extends GetPath>(path: P, query?: GetInput<P>): Promise<GetOutput<P>> {
      return unwrap<GetOutput<P>>(await (client.GET as Raw)(path, { params: { query } }));
    },
  };
}

export type ServiceClient = ReturnType<typeof createServiceClient>;
