import { Alert, Anchor, Button, Center, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { codeSchema, emailSchema } from '../api/schemas';
import { sendLoginCode, verifyLoginCode } from '../api/sign-in';
import { useAuth } from '../app/auth';
import { errorMessage } from '../app/errors';
import { CodeInput } from '../components/CodeInput';
import { showServerIssues, useSchemaForm, type FieldHints } from '../components/form';

const HINTS: FieldHints = { email: 'fields.email', code: 'fields.code' };

/** Operators sign in as customers do: their e-mail, then the 6-digit code the service sends there. */
export function ConsoleSignIn({ superseded }: { superseded: boolean }) {
  const auth = useAuth();
  const emailForm = useSchemaForm(emailSchema, { email: '' }, HINTS);
  const codeForm = useSchemaForm(codeSchema, { code: '' }, HINTS);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const send = emailForm.onSubmit(async ({ email }) => {
    setBusy(true);
    setError(null);
    try {
      await sendLoginCode(email.trim());
      setSentTo(email.trim());
      codeForm.reset();
    } catch (err) {
      if (!showServerIssues(emailForm, err, HINTS)) setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  });

  const verify = codeForm.onSubmit(async ({ code }) => {
    if (!sentTo) return;
    setBusy(true);
    setError(null);
    try {
      const { session } = await verifyLoginCode(sentTo, code);
      await auth.signedIn(session, 'email_otp');
    } catch (err) {
      if (!showServerIssues(codeForm, err, HINTS)) setError(errorMessage(err));
      setBusy(false);
    }
  });

  return (
    <main>
      <Center mih="100vh" p="md">
        <Paper withBorder p="lg" radius="md" w="100%" maw={420}>
          <Stack>
            <Title order={1}>Operator console</Title>
            {superseded && <Alert color="yellow">This session was taken over on another device. Sign in again.</Alert>}
            {auth.notice && (
              <Alert color="yellow" role="status">
                {auth.notice}
              </Alert>
            )}
            {!sentTo ? (
              <form onSubmit={send} noValidate>
                <Stack>
                  <Text>Sign in with your operator e-mail. We send a 6-digit code to it.</Text>
                  <TextInput label="E-mail" type="email" autoComplete="email" required {...emailForm.getInputProps('email')} />
                  {error && (
                    <Alert color="red" role="alert">
                      {error}
                    </Alert>
                  )}
                  <Button type="submit" loading={busy}>
                    Send code
                  </Button>
                </Stack>
              </form>
            ) : (
              <form onSubmit={verify} noValidate>
                <Stack>
                  <Text role="status">We sent a code to {sentTo}.</Text>
                  <CodeInput
                    label="Code"
                    value={codeForm.values.code}
                    onChange={(v) => codeForm.setFieldValue('code', v)}
                    onComplete={(v) => (codeForm.setFieldValue('code', v), verify())}
                    error={codeForm.errors.code as string | undefined}
                    disabled={busy}
                  />
                  {error && (
                    <Alert color="red" role="alert">
                      {error}
                    </Alert>
                  )}
                  <Button type="submit" loading={busy}>
                    Sign in
                  </Button>
                  <Anchor component="button" type="button" onClick={() => setSentTo(null)}>
                    Use another e-mail
                  </Anchor>
                </Stack>
              </form>
            )}
          </Stack>
        </Paper>
      </Center>
    </main>
  );
}
