import { Alert, Button } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { passkeySession, platformPasskeyAvailable } from '../../api/passkeys';
import { useAuth } from '../../app/auth';

/**
 * Issue 43: "Sign in with fingerprint or face", on a phone that can (its own authenticator verifies the person). The
 * phone offers the passkeys it holds for this site; no address is asked. With two-factor on it is the second factor too.
 */
export function PasskeySignIn() {
  const { t } = useTranslation();
  const auth = useAuth();
  const [here, setHere] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    void platformPasskeyAvailable().then((v) => live && setHere(v));
    return () => void (live = false);
  }, []);
  if (!here) return null;
  async function signIn() {
    setBusy(true);
    setFailed(false);
    try {
      await auth.signedIn(await passkeySession(), 'passkey');
    } catch {
      setFailed(true);
      setBusy(false);
    }
  }
  return (
    <>
      <Button variant="default" onClick={() => void signIn()} loading={busy}>
        {t('auth.withPasskey')}
      </Button>
      {failed && (
        <Alert color="red" role="alert">
          {t('auth.passkeyFailed')}
        </Alert>
      )}
    </>
  );
}
