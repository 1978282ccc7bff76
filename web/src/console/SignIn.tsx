import { Alert, Anchor, Button, Center, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { sendLoginCode, verifyLoginCode } from '../api/sign-in';
import { useAuth } from '../app/auth';
import { errorMessage } from '../app/errors';
import { CodeInput } from '../components/CodeInput';

/** Operators sign in as customers do: their e-mail, then the 6-digit code the service sends there. */
export function ConsoleSignIn({ superseded }: { superseded: boolean }) {
  const auth = useAuth();
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function send(e?: FormEvent) {
    e?.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await sendLoginCode(email);
      setSentTo(email);
      setCode('');
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  async function verify(value: string) {
    if (!sentTo || value.length !== 6) return;
    setBusy(true);
    setError(null);
    try {
      const { session } = await verifyLoginCode(sentTo, value);
      await auth.signedIn(session, 'email_otp');
    } catch (err) {
      setError(errorMessage(err));
      setBusy(false);
    }
  }

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
                  <TextInput
                    label="E-mail"
                    type="email"
                    autoComplete="email"
                    required
                    value={email}
                    onChange={(e) => setEmail(e.currentTarget.value.trim())}
                  />
                  {error && (
                    <Alert color="red" role="alert">
                      {error}
                    </Alert>
                  )}
                  <Button type="submit" loading={busy} disabled={!email.includes('@')}>
                    Send code
                  </Button>
                </Stack>
              </form>
            ) : (
              <form
                onSubmit={(e) => {
                  e.preventDefault();
                  void verify(code);
                }}
              >
                <Stack>
                  <Text role="status">We sent a code to {sentTo}.</Text>
                  <CodeInput label="Code" value={code} onChange={setCode} onComplete={(v) => void verify(v)} disabled={busy} />
                  {error && (
                    <Alert color="red" role="alert">
                      {error}
                    </Alert>
                  )}
                  <Button type="submit" loading={busy} disabled={code.length !== 6}>
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
