import createClient from 'openapi-fetch';
import type { paths } from './schema';

/**
 * The one client of the service (DESIGN §13): typed by the OpenAPI document the service generates from its
 * registry, so the app can only call operations that exist, with their real inputs. The access token lives in
 * this module's memory only; the refresh token is an HttpOnly cookie the app never sees.
 */
type ServerFn = Extract<keyof paths, `/_serverFn/${string}`>;
type PostPath = { [P in ServerFn]: paths[P] extends { post: object } ? P : never }[ServerFn];
type GetPath = { [P in ServerFn]: paths[P] extends { get: object } ? P : never }[ServerFn];
type PostOp<P extends PostPath> = paths[P] extends { post: infer O } ? O : never;
type GetOp<P extends GetPath> = paths[P] extends { get: infer O } ? O : never;
type Ok<O> = O extends { responses: { 200: { content: { 'application/json': infer R } } } } ? Omit<R, 'ok'> : never;
export type PostInput<P extends PostPath> = PostOp<P> extends { requestBody?: { content: { 'application/json': { data?: infer D } } } } ? D : never;
export type GetInput<P extends GetPath> = GetOp<P> extends { parameters: { query?: infer Q } } ? Q : never;
export type PostOutput<P extends PostPath> = Ok<PostOp<P>>;
export type GetOutput<P extends GetPath> = Ok<GetOp<P>>;

/** An answer of the service with ok:false: its code (ERROR_CODES) and message. */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** The request never got an answer (offline, connection dropped): the service may or may not have acted. */
export class NetworkError extends Error {}

let accessToken: string | null = null;
export const setAccessToken = (token: string | null) => void (accessToken = token);
export const hasAccessToken = () => accessToken !== null;

type Refresher = () => Promise<boolean>;
let refresher: Refresher = async () => false;
/** The auth module installs how an expired access token is renewed (the cookie refresh, single-flight). */
export const onUnauthenticated = (fn: Refresher) => void (refresher = fn);

async function send(request: Request): Promise<Response> {
  const withAuth = (r: Request) => {
    const copy = new Request(r, { credentials: 'same-origin' });
    if (accessToken) copy.headers.set('authorization', `Bearer ${accessToken}`);
    copy.headers.set('x-session-transport', 'cookie');
    return copy;
  };
  const retry = request.clone();
  let res: Response;
  try {
    res = await fetch(withAuth(request));
    if (res.status === 401 && accessToken && !request.url.includes('/refreshSession') && (await refresher())) res = await fetch(withAuth(retry));
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw new NetworkError(err instanceof Error ? err.message : 'network error');
  }
  return res;
}

const client = createClient<paths>({ baseUrl: '', fetch: send });

function unwrap<T>(result: { data?: unknown; error?: unknown; response: Response }): T {
  if (result.error !== undefined || !result.response.ok) {
    const e = (result.error as { error?: { code?: string; message?: string } } | undefined)?.error;
    throw new ApiError(e?.code ?? 'INTERNAL', e?.message ?? `HTTP ${result.response.status}`, result.response.status);
  }
  return result.data as T;
}

export interface CallOptions {
  /** Money operations carry one key per attempt: a retry after a lost answer replays, never repeats. */
  idempotencyKey?: string;
  grantToken?: string;
}

export async function post<P extends PostPath>(path: P, data: PostInput<P>, opts: CallOptions = {}): Promise<PostOutput<P>> {
  const headers: Record<string, string> = {};
  if (opts.idempotencyKey) headers['idempotency-key'] = opts.idempotencyKey;
  if (opts.grantToken) headers['x-grant-token'] = opts.grantToken;
  const result = await (client.POST as (p: string, init: unknown) => Promise<{ data?: unknown; error?: unknown; response: Response }>)(path, { body: { data }, headers });
  return unwrap<PostOutput<P>>(result);
}

export async function get<P extends GetPath>(path: P, query?: GetInput<P>): Promise<GetOutput<P>> {
  const result = await (client.GET as (p: string, init: unknown) => Promise<{ data?: unknown; error?: unknown; response: Response }>)(path, { params: { query } });
  return unwrap<GetOutput<P>>(result);
}

export const newIdempotencyKey = () => crypto.randomUUID();
