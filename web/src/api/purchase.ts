import { post, type CallOptions, type PostPath } from './client';

/**
 * A purchase sent to an operation chosen at run time (features/buy/buy-once.ts: the service's or the kind's operation,
 * whose path also binds a passkey confirmation). The typed client knows each operation's input; here the operation is
 * one of the purchases, so its input and answer are the purchases' common shape.
 */
export const sendPurchase = <T>(path: PostPath, input: Record<string, unknown>, opts: CallOptions): Promise<T> =>
  (post as unknown as (path: PostPath, data: unknown, opts: CallOptions) => Promise<T>)(path, input, opts);
