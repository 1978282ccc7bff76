import {
  ApiError,
  createServiceClient,
  NetworkError,
  type CallOptions,
  type GetInput,
  type GetOutput,
  type GetPath,
  type PostInput,
  type PostOutput,
  type PostPath,
} from '@vtu-wallet/client';

export {
  ApiError,
  NetworkError,
  type CallOptions,
  type GetInput,
  type GetOutput,
  type PostInput,
  type PostOutput,
  type PostPath,
} from '@vtu-wallet/client';

/**
 * The app's one client of the service (docs/design.md §13): the typed client package (client/), so the app can only call
 * operations that exist, with their real inputs. The access token lives in this module's memory only; the refresh
 * token is an HttpOnly cookie the app never sees.
 */
let accessToken: string | null = null;
export const setAccessToken = (token: string | null) => void (accessToken = token);
export const hasAccessToken = () => accessToken !== null;

type Refresher = () => Promise<boolean>;
let refresher: Refresher = async () => false;
/** The auth module installs how an expired access token is renewed (the cookie refresh, single-flight). */
export const onUnauthenticated = (fn: Refresher) => void (refresher = fn);

/** Which requests follow a person's action (issue 41): the console installs it (console/activity.ts). */
export interface ActivityMarker {
  /** Whether this request reports a person's action; the others carry `X-Activity: background`. */
  take(url: string): boolean;
  /** The request that took the action never reached the service. */
  giveBack(): void;
}
let marker: ActivityMarker | null = null;
export const markActivity = (m: ActivityMarker) => void (marker = m);

/**
 * Same-origin cookies, the current token, and one retry after a refresh when the token had expired. With a marker
 * installed, a request that does not follow a person's action says so.
 */
async function send(request: Request): Promise<Response> {
  const person = marker?.take(request.url) ?? true;
  const withAuth = (r: Request) => {
    const copy = new Request(r, { credentials: 'same-origin' });
    if (accessToken) copy.headers.set('authorization', `Bearer ${accessToken}`);
    copy.headers.set('x-session-transport', 'cookie');
    if (!person) copy.headers.set('x-activity', 'background');
    return copy;
  };
  const retry = request.clone();
  try {
    const res = await fetch(withAuth(request));
    if (res.status === 401 && accessToken && !request.url.includes('/refreshSession') && (await refresher()))
      return await fetch(withAuth(retry));
    return res;
  } catch (err) {
    if (person) marker?.giveBack();
    throw new NetworkError(err instanceof Error ? err.message : 'network error');
  }
}

const client = createServiceClient({ baseUrl: '', fetch: send });

let afterWrite: ((path: string) => void) | null = null;
/** What runs after each write the service accepted: the console refreshes what it shows (issue 44, console/fresh.ts). */
export const onWrite = (fn: ((path: string) => void) | null) => void (afterWrite = fn);

export async function post<P extends PostPath>(path: P, data: PostInput<P>, opts: CallOptions = {}): Promise<PostOutput<P>> {
  const answer = await client.post(path, data, opts);
  afterWrite?.(path);
  return answer;
}
export const get = <P extends GetPath>(path: P, query?: GetInput<P>): Promise<GetOutput<P>> => client.get(path, query);

export const newIdempotencyKey = () => crypto.randomUUID();

/**
 * A download operation's file (issue 43: getStatement), fetched with the session like any call (the token, the
 * refresh on expiry); a refusal is the usual ApiError from the JSON envelope.
 */
export async function download<P extends GetPath>(path: P, query: GetInput<P>): Promise<{ blob: Blob; fileName: string }> {
  const qs = new URLSearchParams(Object.entries(query ?? {}).map(([k, v]) => [k, String(v)]));
  const res = await send(new Request(`${path}?${qs}`, { method: 'GET' }));
  if (!res.ok) {
    const e = (
      (await res.json().catch(() => null)) as {
        error?: { code?: string; message?: string; issues?: { path: string; message: string }[] };
      } | null
    )?.error;
    throw new ApiError(e?.code ?? 'INTERNAL', e?.message ?? `HTTP ${res.status}`, res.status, e?.issues ?? []);
  }
  const fileName = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'download';
  return { blob: await res.blob(), fileName };
}
