import { Alert, Anchor, Button, Center, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { codeSchema, emailSchema } from '../api/schemas';
import { sendLoginCode, verifyLoginCode } from '../api/sign-in';
import { useAuth } from '../app/auth';
import { errorMessage } from '../app/errors';
import { CodeInput } from '../components/CodeInput';
import { showServerIssues, useSchemaForm, type FieldHints } from '../components/form';

const HINTS: FieldHints = { email: 'fields.email', code: 'fields.code' };

/** Operators sign in as customers do: their e-mail, then the 6-digit code the service sends there. */
export function ConsoleSignIn({ superseded }: { superseded: boolean }) {
  const { t } = useTranslation();
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
            <Title order={1}>{t('console.common.title')}</Title>
            {superseded && <Alert color="yellow">{t('console.signIn.superseded')}</Alert>}
            {auth.notice && (
              <Alert color="yellow" role="status">
                {auth.notice}
              </Alert>
            )}
            {!sentTo ? (
              <form onSubmit={send} noValidate>
                <Stack>
                  <Text>{t('console.signIn.intro')}</Text>
                  <TextInput
                    label={t('console.signIn.email')}
                    type="email"
                    autoComplete="email"
                    required
                    {...emailForm.getInputProps('email')}
                  />
                  {error && (
                    <Alert color="red" role="alert">
                      {error}
                    </Alert>
                  )}
                  <Button type="submit" loading={busy}>
                    {t('console.signIn.send')}
                  </Button>
                </Stack>
              </form>
            ) : (
              <form onSubmit={verify} noValidate>
                <Stack>
                  <Text role="status">{t('console.signIn.sent', { email: sentTo })}</Text>
                  <CodeInput
                    label={t('console.signIn.code')}
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
                    {t('console.signIn.signIn')}
                  </Button>
                  <Anchor component="button" type="button" onClick={() => setSentTo(null)}>
                    {t('console.signIn.another')}
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
