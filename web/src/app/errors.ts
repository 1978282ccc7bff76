import i18next from 'i18next';
import { ApiError, NetworkError } from '../api/client';

/** A human message for any failure: every error code of the service has one; raw codes are never shown. */
export function errorMessage(err: unknown): string {
  if (err instanceof NetworkError) return i18next.t('errors.NETWORK');
  if (err instanceof ApiError) {
    const key = `errors.${err.code}`;
    if (i18next.exists(key)) return i18next.t(key, { message: err.message });
  }
  return i18next.t('errors.INTERNAL');
}

export const isCode = (err: unknown, code: string) => err instanceof ApiError && err.code === code;
