import { useEffect, useState } from 'react';
import { platformPasskeyAvailable } from '../api/passkeys';

/** Whether this phone verifies its person for a passkey (fingerprint, face or its lock); false until known. */
export function usePlatformPasskey(): boolean {
  const [here, setHere] = useState(false);
  useEffect(() => {
    let live = true;
    void platformPasskeyAvailable().then((v) => live && setHere(v));
    return () => void (live = false);
  }, []);
  return here;
}
