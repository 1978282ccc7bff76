import type { AuthUser } from '../../kernel/actor.js';
import type { PreferencesPatch } from './preferences.js';
import type { SettingsDeps } from './deps.js';
import { hasTransactionPin, setTransactionPin } from './transaction-pin.js';
import { getPreferences, updatePreferences } from './update-preferences.js';
import { closeAccount } from './close-account.js';

export type { SettingsDeps } from './deps.js';

export type SettingsService = ReturnType<typeof createSettingsService>;

/** The account's settings: the transaction PIN, preferences and closing the account, one file per use case. */
export function createSettingsService(deps: SettingsDeps) {
  return {
    hasTransactionPin: (userId: string) => hasTransactionPin(deps, userId),
    /** Needs a recent proof; changing it also needs currentPin (transaction-pin.ts). */
    setTransactionPin: (user: AuthUser, pin: string, currentPin: string | undefined, grantToken: string | undefined) =>
      setTransactionPin(deps, user, pin, currentPin, grantToken),
    getPreferences: (userId: string) => getPreferences(deps, userId),
    updatePreferences: (userId: string, patch: PreferencesPatch) => updatePreferences(deps, userId, patch),
    /** Closes the account (close-account.ts): refused while money is held or a loan is open. */
    closeAccount: (user: AuthUser) => closeAccount(deps, user),
  };
}
