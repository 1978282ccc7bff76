import i18next from 'i18next';
import { ApiError } from '../api/client';
import { errorMessage } from './errors';
import { formatDateTime } from './format';

/** What the service says about a refused PIN (INVALID_PIN, PIN_LOCKED): tries left, and until when it is locked. */
function pinDetails(err: unknown): { triesLeft?: number; lockedUntil?: string } {
  if (!(err instanceof ApiError)) return {};
  const details = (err as ApiError & { details?: unknown }).details;
  if (!details || typeof details !== 'object') return {};
  const d = details as Record<string, unknown>;
  return {
    triesLeft: typeof d.triesLeft === 'number' ? d.triesLeft : undefined,
    lockedUntil: typeof d.lockedUntil === 'string' ? d.lockedUntil : undefined,
  };
}

/**
 * The message for a refused purchase or transfer: a wrong PIN says how many tries are left, a locked PIN until when
 * (when the service sends them); anything else its usual message.
 */
export function refusalMessage(err: unknown): string {
  const { triesLeft, lockedUntil } = pinDetails(err);
  if (lockedUntil && err instanceof ApiError && (err.code === 'PIN_LOCKED' || err.code === 'INVALID_PIN'))
    return i18next.t('pin.lockedUntil', { time: formatDateTime(lockedUntil) });
  if (triesLeft !== undefined && err instanceof ApiError && err.code === 'INVALID_PIN')
    return i18next.t('pin.wrongTriesLeft', { count: triesLeft });
  return errorMessage(err);
}

/**
 * The sign-in screen's words for a refused login PIN: how many tries are left before it locks, or until when it is
 * locked (the e-mailed code still works meanwhile); null for any other refusal.
 */
export function loginPinMessage(err: unknown): string | null {
  if (!(err instanceof ApiError)) return null;
  const { triesLeft, lockedUntil } = pinDetails(err);
  if (lockedUntil) return i18next.t('auth.pinLockedUntil', { time: formatDateTime(lockedUntil) });
  if (err.code === 'INVALID_CREDENTIALS' && triesLeft !== undefined) return i18next.t('auth.pinTriesLeft', { count: triesLeft });
  return null;
}
