import { queryOptions } from '@tanstack/react-query';
import { get, post } from '../client';

/** The customer's own settings: profile, transaction PIN, preferences, login PIN and 2FA. */
export const settingsQueries = {
  all: () => ['settings'] as const,
  profile: () =>
    queryOptions({ queryKey: [...settingsQueries.all(), 'profile'], queryFn: () => get('/_serverFn/getProfileBearerSettings') }),
  hasPin: () =>
    queryOptions({ queryKey: [...settingsQueries.all(), 'hasPin'], queryFn: () => get('/_serverFn/hasTransactionPinBearerSettings') }),
  preferences: () =>
    queryOptions({ queryKey: [...settingsQueries.all(), 'preferences'], queryFn: () => get('/_serverFn/getPreferencesBearerSettings') }),
  /** Issue 43: the customer's passkeys (fingerprint or face) and whether payments are confirmed with them. */
  passkeys: () =>
    queryOptions({ queryKey: [...settingsQueries.all(), 'passkeys'], queryFn: () => get('/_serverFn/listPasskeysBearerAuth') }),
  loginPin: () =>
    queryOptions({ queryKey: [...settingsQueries.all(), 'loginPin'], queryFn: () => get('/_serverFn/getLoginPinStatusBearerAuth') }),
  twoFactor: () =>
    queryOptions({ queryKey: [...settingsQueries.all(), '2fa'], queryFn: () => post('/_serverFn/getMyTwoFactorBearer2FA', {}) }),
};
