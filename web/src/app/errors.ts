import i18next from 'i18next';
import { ApiError, NetworkError } from '../api/client';
import type { Messages } from '../locales/en';

type ErrorMessages = Messages['errors'];
/** The codes that have a message (not the nested groups of other error texts). */
type CodeKey = { [K in keyof ErrorMessages]: ErrorMessages[K] extends string ? K : never }[keyof ErrorMessages];

/** A human message for any failure: every error code of the service has one; raw codes are never shown. */
export function errorMessage(err: unknown): string {
  if (err instanceof NetworkError) return i18next.t('errors.NETWORK');
  if (err instanceof ApiError) {
    // The service's code, as a key: a code the app has no message for falls through to the general one.
    const key = `errors.${err.code}` as `errors.${CodeKey}`;
    if (i18next.exists(key)) return i18next.t(key, { message: err.message }) as string;
  }
  return i18next.t('errors.INTERNAL');
}

export const isCode = (err: unknown, code: string) => err instanceof ApiError && err.code === code;
