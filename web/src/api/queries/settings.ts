import { queryOptions } from '@tanstack/react-query';
import * as api from '../calls';

/** The customer's own settings: profile, transaction PIN, preferences, login PIN and 2FA. */
export const settingsQueries = {
  all: () => ['settings'] as const,
  profile: () => queryOptions({ queryKey: [...settingsQueries.all(), 'profile'], queryFn: () => api.getProfile() }),
  hasPin: () => queryOptions({ queryKey: [...settingsQueries.all(), 'hasPin'], queryFn: () => api.hasTransactionPin() }),
  preferences: () => queryOptions({ queryKey: [...settingsQueries.all(), 'preferences'], queryFn: () => api.getPreferences() }),
  /** Issue 43: the customer's passkeys (fingerprint or face) and whether payments are confirmed with them. */
  passkeys: () => queryOptions({ queryKey: [...settingsQueries.all(), 'passkeys'], queryFn: () => api.listPasskeys() }),
  loginPin: () => queryOptions({ queryKey: [...settingsQueries.all(), 'loginPin'], queryFn: () => api.getLoginPinStatus() }),
  twoFactor: () => queryOptions({ queryKey: [...settingsQueries.all(), '2fa'], queryFn: () => api.getMyTwoFactor({}) }),
};
