import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { setAccessToken } from '../../api/client';
import { useAuth } from '../../app/auth';
import { errorMessage } from '../../app/errors';
import * as api from '../../api/calls';
import { secondFactorSchema } from '../../api/schemas';
import { showServerIssues, useSchemaForm, type FieldHints } from '../../components/form';

const HINTS: FieldHints = { code: 'fields.secondFactorCode' };

type Session = Parameters<ReturnType<typeof useAuth>['signedIn']>[0];

/**
 * Issue 43: the sign-in's second step. A customer with two-factor on, signing in on a device the account does not
 * know, gets a session that does nothing until this step: the authenticator app's 6-digit code, or one of the
 * recovery codes instead (a link switches the field). Going back ends the pending sign-in.
 */
export function SecondFactorStep({ session, method, onCancel }: { session: Session; method: 'email_otp' | 'login_pin'; onCancel(): void }) {
  const { t } = useTranslation();
  const auth = useAuth();
  const [recovery, setRecovery] = useState(false);
  const form = useSchemaForm(secondFactorSchema, { code: '' }, HINTS);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), [recovery]);

  async function complete(code: string) {
    // One completeSignIn at a time: Enter in the field while one is answered sends nothing more.
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      setAccessToken(session.accessToken);
      await api.completeSignIn({ code });
      await auth.signedIn(session, method);
    } catch (err) {
      if (!showServerIssues(form, err, HINTS)) setError(errorMessage(err));
      setBusy(false);
    }
  }

  async function cancel() {
    setAccessToken(session.accessToken);
    await api.signOut({}).catch(() => undefined);
    setAccessToken(null);
    onCancel();
  }

  return (
    <form onSubmit={form.onSubmit(({ code }) => void complete(code))} noValidate>
      <Stack>
        <h2 className="signin-title">{t('auth.secondFactorTitle')}</h2>
        <Text role="status">{recovery ? t('auth.secondFactorRecoveryIntro') : t('auth.secondFactorIntro')}</Text>
        <TextInput
          ref={input}
          label={recovery ? t('auth.recoveryCode') : t('auth.authenticatorCode')}
          inputMode={recovery ? 'text' : 'numeric'}
          autoComplete="one-time-code"
          autoCapitalize={recovery ? 'characters' : undefined}
          maxLength={recovery ? 11 : 6}
          required
          {...form.getInputProps('code')}
          onChange={(e) => form.setFieldValue('code', e.currentTarget.value.trim())}
        />
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <Button type="submit" loading={busy}>
          {t('auth.verify')}
        </Button>
        <Anchor component="button" type="button" onClick={() => (setRecovery(!recovery), form.reset())}>
          {recovery ? t('auth.useAuthenticator') : t('auth.useRecoveryCode')}
        </Anchor>
        <Anchor component="button" type="button" onClick={() => void cancel()}>
          {t('auth.secondFactorCancel')}
        </Anchor>
      </Stack>
    </form>
  );
}
