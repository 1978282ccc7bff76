import { getDefaultZIndex } from '@mantine/core';
import { cloneElement } from 'react';
import { isCode } from '../app/errors';
import { forgetGrant, rememberGrant, validGrant } from '../app/grant';
import { useStepUp } from '../app/StepUp';
import * as api from '../api/calls';

/** A passkey assertion traded for a step-up grant (WebAuthn through @simplewebauthn/browser, loaded on demand). */
async function passkeyGrant(): Promise<string> {
  const { startAuthentication } = await import('@simplewebauthn/browser');
  const { options } = await api.adminPasskeyStepupOptions({});
  const assertion = await startAuthentication({ optionsJSON: options as never });
  const { grantToken, expiresAt } = await api.verifyStepupChallenge({
    method: 'passkey',
    assertion: assertion as never,
  });
  rememberGrant(grantToken, expiresAt);
  return grantToken;
}

/**
 * Step-up for operators: the app's dialog (an e-mailed or authenticator code), or the operator's passkey when they
 * have one. A passkey is asked first; cancelled, the codes the session accepts are offered, when there are any.
 */
export function useOperatorStepUp() {
  const codes = useStepUp();
  async function withGrant<T>(fn: (grantToken?: string) => Promise<T>): Promise<T> {
    try {
      return await fn(validGrant());
    } catch (err) {
      if (!isCode(err, 'STEP_UP_REQUIRED')) throw err;
      forgetGrant();
      const methods = await api.getMyTwoFactor({}).then(
        (s) => s.stepUpMethods as readonly string[],
        () => [] as readonly string[],
      );
      if (methods.includes('passkey')) {
        const others = methods.some((m) => m !== 'passkey');
        try {
          return await fn(await passkeyGrant());
        } catch (e) {
          // The browser's refusal (cancelled, no such passkey here): the codes, when this session accepts any.
          if (!others || !(e instanceof Error) || (e.name !== 'NotAllowedError' && e.name !== 'AbortError')) throw e;
        }
      }
      return codes.withGrant(fn, { fresh: true });
    }
  }
  // A screen asks step-up from inside its own dialog (a reason first, then the code): the code's dialog stands above it.
  return { withGrant, modal: cloneElement(codes.modal, { zIndex: getDefaultZIndex('modal') + 1 }) };
}

/** The hook's step-up, handed to a part of a screen that renders no dialog of its own. */
export type OperatorStepUp = ReturnType<typeof useOperatorStepUp>;
