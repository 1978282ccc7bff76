import type { paths } from '@vtu-wallet/client';

/** The body of the plain (not `/_serverFn/`) route that records a failed sign-in (spec 4.11). */
export type LoginFailure = paths['/api/public/login-failed']['post']['requestBody']['content']['application/json'];

/**
 * Tells the service a sign-in failed (spec 4.11: counted for throttling and alerts). A plain route without a token,
 * so not through the session's client; the answer is the same for any identifier, so it is not awaited and a
 * failure to send it is ignored.
 */
export function reportLoginFailure(body: LoginFailure): void {
  void fetch('/api/public/login-failed', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).catch(() => undefined);
}
