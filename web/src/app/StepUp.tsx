import { Alert, Button, Modal, Stack, Text } from '@mantine/core';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { codeSchema } from '../api/schemas';
import { CodeInput } from '../components/CodeInput';
import { useSchemaForm, type FieldHints } from '../components/form';
import { forgetGrant, rememberGrant, validGrant } from './grant';
import { errorMessage, isCode } from './errors';
import * as api from '../api/calls';

/**
 * Step-up: an operation that answers STEP_UP_REQUIRED is run again with a grant. The hook asks the
 * service to e-mail a code, lets the person type it (or an authenticator code), trades it for a grant and retries.
 */

const HINTS: FieldHints = { code: 'fields.code' };

export function useStepUp() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const form = useSchemaForm(codeSchema, { code: '' }, HINTS);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const pending = useRef<{ resolve: (grant: string) => void; reject: (e: unknown) => void } | null>(null);

  const [notice, setNotice] = useState<string | null>(null);
  /** The service accepts only the authenticator's code in this session: no e-mail is sent or offered. */
  const [appOnly, setAppOnly] = useState(false);
  /** Which second factors this operator has (issue 30): a passkey, an authenticator, or both. */
  const [passkey, setPasskey] = useState(false);
  const [authenticator, setAuthenticator] = useState(true);

  async function sendCode() {
    setNotice(null);
    try {
      await api.sendStepupEmailCode({});
      setNotice(t('stepup.body'));
    } catch (err) {
      // Too soon for another e-mail: the person can wait and resend, or use an authenticator code.
      setNotice(isCode(err, 'OTP_COOLDOWN') ? t('stepup.cooldown') : errorMessage(err));
    }
  }

  const askGrant = async (): Promise<string> => {
    form.reset();
    setError(null);
    setOpen(true);
    // Offer only what the service accepts here: with an authenticator on, a session opened by an e-mailed code
    // confirms with the app's code alone, so an e-mailed code would be refused (issue 29).
    const methods = await api.getMyTwoFactor({}).then(
      (s) => s.stepUpMethods,
      () => null,
    );
    const byEmail = !methods || methods.includes('email');
    const withPasskey = Boolean(methods?.includes('passkey'));
    setAppOnly(!byEmail);
    setPasskey(withPasskey);
    setAuthenticator(!methods || methods.includes('authenticator') || byEmail);
    if (byEmail) await sendCode();
    else setNotice(t(withPasskey ? 'stepup.passkeyOnly' : 'stepup.appOnly'));
    return new Promise((resolve, reject) => (pending.current = { resolve, reject }));
  };

  /** An operator's passkey (issue 30): the browser library is loaded only when used, never in the first screen. */
  async function confirmWithPasskey() {
    setBusy(true);
    setError(null);
    try {
      const { startAuthentication } = await import('@simplewebauthn/browser');
      const { options } = await api.adminPasskeyStepupOptions({});
      const assertion = await startAuthentication({ optionsJSON: options as Parameters<typeof startAuthentication>[0]['optionsJSON'] });
      const { grantToken, expiresAt } = await api.verifyStepupChallenge({
        method: 'passkey',
        assertion: assertion as never,
      });
      rememberGrant(grantToken, expiresAt);
      setOpen(false);
      pending.current?.resolve(grantToken);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  async function confirm(code: string) {
    setBusy(true);
    setError(null);
    try {
      const { grantToken, expiresAt } = await api.verifyStepupChallenge({ totpCode: code });
      rememberGrant(grantToken, expiresAt);
      setOpen(false);
      pending.current?.resolve(grantToken);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }
  /** The code's rules first (the form's words under the field), then the service. */
  const submit = (e?: FormEvent<HTMLFormElement>) => form.onSubmit(({ code }) => void confirm(code))(e);

  /**
   * Runs `fn` (with the last grant while it is valid, unless `fresh`); when the service asks for a grant, gets one
   * and runs `fn` again with it. Money leaving to someone else asks afresh each time (`fresh`).
   */
  async function withGrant<T>(fn: (grantToken?: string) => Promise<T>, opts: { fresh?: boolean } = {}): Promise<T> {
    try {
      return await fn(opts.fresh ? undefined : validGrant());
    } catch (err) {
      if (!isCode(err, 'STEP_UP_REQUIRED')) throw err;
      forgetGrant();
      return fn(await askGrant());
    }
  }

  const modal = (
    <Modal
      opened={open}
      onClose={() => {
        setOpen(false);
        pending.current?.reject(new Error('cancelled'));
      }}
      title={t('stepup.title')}
      closeButtonProps={{ 'aria-label': t('app.close') }}
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text role="status">{notice ?? t('app.loading')}</Text>
          {passkey && (
            <Button onClick={() => void confirmWithPasskey()} loading={busy}>
              {t('stepup.passkey')}
            </Button>
          )}
          {authenticator && (
            <CodeInput
              label={t('stepup.code')}
              value={form.values.code}
              onChange={(v) => form.setFieldValue('code', v)}
              onComplete={(v) => (form.setFieldValue('code', v), submit())}
              error={form.errors.code as string | undefined}
              disabled={busy}
            />
          )}
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          {authenticator && (
            <Button type="submit" loading={busy}>
              {t('stepup.confirm')}
            </Button>
          )}
          {!appOnly && (
            <Button variant="subtle" onClick={() => void sendCode()}>
              {t('stepup.resend')}
            </Button>
          )}
        </Stack>
      </form>
    </Modal>
  );
  return { withGrant, modal };
}
