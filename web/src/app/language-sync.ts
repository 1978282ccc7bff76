import { LANGUAGES, phoneLanguage, setLanguage, type Language } from './i18n';
import * as api from '../api/calls';

/** Where i18n.ts remembers the language picked on this device (on the sign-in screen or in Settings). */
const LANGUAGE_KEY = 'vtu.language';

/**
 * After a sign-in, the account and the device agree on one language (issue 29: push, e-mail and SMS are written in
 * the account's language). A language picked on this device (the sign-in screen's choice included) is sent to the
 * account's preferences; a device that never picked one takes the account's (or gives it the phone's language).
 */
export async function syncLanguage(): Promise<void> {
  const picked = localStorage.getItem(LANGUAGE_KEY);
  if (LANGUAGES.some((l) => l.code === picked)) {
    await api.updatePreferences({ language: picked as Language });
    return;
  }
  const account = (await api.getPreferences()).preferences.language;
  if (account !== 'en' && LANGUAGES.some((l) => l.code === account)) await setLanguage(account as Language);
  // An account still in English (the default) on a phone set to another of the app's languages, the one it shows:
  // the account takes it, so its e-mails and SMS are written in it too.
  else {
    const phone = phoneLanguage();
    if (phone && phone !== 'en') await api.updatePreferences({ language: phone });
  }
}
