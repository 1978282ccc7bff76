import { Alert, Anchor, Button, Loader, Stack, Text } from '@mantine/core';
import { lazy, Suspense, useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { reportLoginFailure as sendLoginFailure } from '../../api/public';
import { sendLoginCode, verifyLoginCode } from '../../api/sign-in';
import { useAuth } from '../../app/auth';
import { errorMessage } from '../../app/errors';
import { Later } from '../../app/later';
import { LanguagePicker } from '../../components/LanguagePicker';
import { TextField } from '../../components/TextField';
import './sign-in.css';
import * as api from '../../api/calls';

// The code boxes load while the person types the e-mail (from the e-mail field's focus, like the rules below): they
// are not needed by the home screen's bundle, nor before the first interaction.
const loadCodeInput = () => import('../../components/CodeInput');
const CodeInput = lazy(() => loadCodeInput().then((m) => ({ default: m.CodeInput })));
// Issue 43: the second step, only for a customer with two-factor on signing in on a new device.
const SecondFactorStep = lazy(() => import('./SecondFactor').then((m) => ({ default: m.SecondFactorStep })));
// Issue 43: "Sign in with fingerprint or face", loaded beside the first screen rather than in its JavaScript.
const PasskeySignIn = lazy(() => import('./PasskeySignIn').then((m) => ({ default: m.PasskeySignIn })));
type Pending = Parameters<ReturnType<typeof useAuth>['signedIn']>[0] & { secondFactorRequired?: true };

/** The second step while a sign-in waits for it (a lazily loaded screen). */
function SecondStep({ session, method, onCancel }: { session: Pending; method: 'email_otp' | 'login_pin'; onCancel(): void }) {
  const { t } = useTranslation();
  return (
    <Suspense fallback={<Loader size="sm" aria-label={t('app.loading')} />}>
      <SecondFactorStep session={session} method={method} onCancel={onCancel} />
    </Suspense>
  );
}
// The forms' rules (the operations' zod schemas and the form helper) load after the screen has drawn, the same way.
const loadRules = () => import('./sign-in-rules');
/**
 * Fetched when a person enters a field, not when the screen draws: evaluating zod and the schemas
 * during the first load was blocking time on a slow phone (Lighthouse), and a check awaits them anyway.
 */
const preloadRules = () => void loadRules();
const preloadCodeStep = () => {
  preloadRules();
  void loadCodeInput();
};
type Errors = Record<string, string | undefined>;

/**
 * Tells the service a sign-in failed (spec 4.11: counted for throttling and alerts). Only a refused credential is
 * reported, not a network failure; the answer is the same for any identifier and is not awaited.
 */
function reportLoginFailure(identifier: string, method: 'email_otp' | 'login_pin', err: unknown) {
  if (!(err instanceof ApiError) || err.status >= 500) return;
  sendLoginFailure({ identifier, method, reason: err.code });
}

/**
 * Sign-in: e-mail, then the 6-digit code (paste fills every box and submits); or identifier and login PIN. The frame
 * and the e-mail step are plain elements styled like Mantine's (sign-in.css), and the link to the other way of
 * signing in draws one task later (later.tsx): this is the first screen most visitors load.
 */
export function SignIn() {
  const { t } = useTranslation();
  const [mode, setMode] = useState<'code' | 'pin'>('code');
  return (
    <main>
      <div className="signin-page">
        <div className="signin-card">
          <div className="signin-stack">
            <h1 className="signin-title">{t('auth.title')}</h1>
            <LanguagePicker />
            {mode === 'code' ? <CodeSignIn /> : <PinSignIn />}
            <Later>
              <TextButton onClick={() => setMode(mode === 'code' ? 'pin' : 'code')}>
                {mode === 'code' ? t('auth.withPin') : t('auth.withCode')}
              </TextButton>
            </Later>
            <Suspense fallback={null}>
              <PasskeySignIn />
            </Suspense>
          </div>
        </div>
      </div>
    </main>
  );
}

/** A button that reads as a link (Mantine's Anchor as a button, in plain elements). */
function TextButton({ onClick, children }: { onClick(): void; children: ReactNode }) {
  return (
    <button type="button" className="signin-link mantine-focus-auto" onClick={onClick}>
      {children}
    </button>
  );
}

const SLOT = '\u2063';

/**
 * A sentence with an e-mail address in it: the address moves to the next line whole instead of breaking at its
 * hyphens or dots (it breaks only when it is wider than the line).
 */
function AddressInSentence({ sentence, address }: { sentence: string; address: string }) {
  const [before, after = ''] = sentence.split(SLOT);
  return (
    <>
      {before}
      <span className="signin-address">{address}</span>
      {after}
    </>
  );
}

function CodeSignIn() {
  const { t } = useTranslation();
  const auth = useAuth();
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const [cooldown, setCooldown] = useState(0);
  const [pending, setPending] = useState<Pending | null>(null);

  useEffect(() => {
    if (cooldown <= 0) return;
    const id = setTimeout(() => setCooldown(cooldown - 1), 1000);
    return () => clearTimeout(id);
  }, [cooldown]);

  /** Leaving the e-mail field says at once what is wrong with it (once something was typed). */
  async function checkEmail() {
    if (email !== '') setFieldErrors((await loadRules()).emailErrors({ email }));
  }

  async function send(e?: FormEvent) {
    e?.preventDefault();
    const rules = await loadRules();
    const found = rules.emailErrors({ email });
    setFieldErrors(found);
    if (found.email) return;
    setBusy(true);
    setError(null);
    try {
      await sendLoginCode(email);
      setSentTo(email);
      setCode('');
      const { secondsRemaining } = await api.getOtpCooldown({ email });
      setCooldown(secondsRemaining);
    } catch (err) {
      const under = rules.serverErrors(err, ['email']);
      setFieldErrors(under);
      if (!under.email) setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  async function verify(value: string) {
    if (!sentTo) return;
    const rules = await loadRules();
    const found = rules.codeErrors({ code: value });
    setFieldErrors(found);
    if (found.code) return;
    setBusy(true);
    setError(null);
    try {
      const { session } = await verifyLoginCode(sentTo, value);
      if (session.secondFactorRequired) return setPending(session);
      await auth.signedIn(session, 'email_otp');
    } catch (err) {
      reportLoginFailure(sentTo, 'email_otp', err);
      const under = rules.serverErrors(err, ['code']);
      setFieldErrors(under);
      if (!under.code) setError(errorMessage(err));
      setBusy(false);
    }
  }

  if (pending)
    return <SecondStep session={pending} method="email_otp" onCancel={() => (setPending(null), setSentTo(null), setBusy(false))} />;
  if (!sentTo)
    return (
      <form onSubmit={send} noValidate>
        <div className="signin-stack">
          <p className="signin-text">{t('auth.intro')}</p>
          <TextField
            label={t('auth.email')}
            type="email"
            autoComplete="email"
            required
            value={email}
            onChange={(e) => (setEmail(e.currentTarget.value.trim()), setFieldErrors({}))}
            onFocus={preloadCodeStep}
            onBlur={() => void checkEmail()}
            error={fieldErrors.email}
          />
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          <button type="submit" className="signin-submit mantine-focus-auto" disabled={busy} data-loading={busy || undefined}>
            <span>{t('auth.sendCode')}</span>
          </button>
        </div>
      </form>
    );
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void verify(code);
      }}
    >
      <Stack>
        <Text role="status">
          <AddressInSentence sentence={t('auth.codeSent', { email: SLOT })} address={sentTo} />
        </Text>
        <Suspense fallback={<Loader size="sm" aria-label={t('app.loading')} />}>
          <CodeInput
            label={t('auth.code')}
            value={code}
            onChange={(v) => (setCode(v), setFieldErrors({}))}
            onComplete={(v) => void verify(v)}
            disabled={busy}
            error={fieldErrors.code}
          />
        </Suspense>
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <Button type="submit" loading={busy}>
          {t('auth.verify')}
        </Button>
        {cooldown > 0 ? (
          <Text size="sm" c="dimmed">
            {t('auth.resendIn', { seconds: cooldown })}
          </Text>
        ) : (
          <Anchor component="button" type="button" onClick={() => void send()}>
            {t('auth.resend')}
          </Anchor>
        )}
        <Anchor component="button" type="button" onClick={() => setSentTo(null)}>
          {t('auth.otherEmail')}
        </Anchor>
      </Stack>
    </form>
  );
}

function PinSignIn() {
  const { t } = useTranslation();
  const auth = useAuth();
  const [identifier, setIdentifier] = useState('');
  const [pin, setPin] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const [pending, setPending] = useState<Pending | null>(null);
  /** Leaving a field says at once what is wrong with it (once something was typed). */
  async function check(field: 'identifier' | 'pin') {
    if ((field === 'pin' ? pin : identifier) === '') return;
    const found = (await loadRules()).pinLoginErrors({ identifier, pin });
    setFieldErrors((f) => ({ ...f, [field]: found[field] }));
  }
  async function submit(e: FormEvent) {
    e.preventDefault();
    const rules = await loadRules();
    const found = rules.pinLoginErrors({ identifier, pin });
    setFieldErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    setError(null);
    try {
      const { session } = await api.startPinLogin({ identifier, pin });
      if (session.secondFactorRequired) return setPending(session);
      await auth.signedIn(session, 'login_pin');
    } catch (err) {
      reportLoginFailure(identifier, 'login_pin', err);
      const under = rules.serverErrors(err, ['identifier', 'pin']);
      setFieldErrors(under);
      if (Object.keys(under).length === 0) setError(rules.loginPinMessage(err) ?? errorMessage(err));
      setBusy(false);
    }
  }
  if (pending) return <SecondStep session={pending} method="login_pin" onCancel={() => (setPending(null), setPin(''), setBusy(false))} />;
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <TextField
          label={t('auth.identifier')}
          autoComplete="username"
          required
          value={identifier}
          onChange={(e) => (setIdentifier(e.currentTarget.value.trim()), setFieldErrors((f) => ({ ...f, identifier: undefined })))}
          onFocus={preloadRules}
          onBlur={() => void check('identifier')}
          error={fieldErrors.identifier}
        />
        <TextField
          type="password"
          label={t('auth.loginPin')}
          autoComplete="current-password"
          inputMode="numeric"
          required
          value={pin}
          onChange={(e) => (setPin(e.currentTarget.value), setFieldErrors((f) => ({ ...f, pin: undefined })))}
          onFocus={preloadRules}
          onBlur={() => void check('pin')}
          error={fieldErrors.pin}
        />
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <Button type="submit" loading={busy}>
          {t('auth.verify')}
        </Button>
      </Stack>
    </form>
  );
}
