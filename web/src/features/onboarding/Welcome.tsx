import { Alert, Anchor, Button, Group, Loader, Paper, Stack, Stepper, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import i18next from 'i18next';
import { codeSchema, fullNameSchema, phoneSchema, transactionPinSchema } from '../../api/schemas';
import { beneficiaryQueries } from '../../api/queries/beneficiaries';
import { kycQueries } from '../../api/queries/kyc';
import { saveDraft } from '../../app/draft';
import { formatNaira } from '../../app/format';
import { settingsQueries } from '../../api/queries/settings';
import { errorMessage } from '../../app/errors';
import { useStepUp } from '../../app/StepUp';
import { CodeInput } from '../../components/CodeInput';
import { schemaErrors, showServerIssues, useSchemaForm, type FieldHints } from '../../components/form';
import { LinkButton } from '../../components/LinkButton';
import { Liveness } from '../../components/Liveness';
import { PinPad } from '../../components/PinPad';
import { onboardingSteps, type OnboardingStep } from '../../components/onboarding-steps';
import { LoginPinForm } from '../../components/LoginPinForm';
import { usePlatformPasskey } from '../../components/usePlatformPasskey';
import { PasskeyOffer } from './PasskeyOffer';
import * as api from '../../api/calls';
import { Loading } from '../../components/Loaded';

const STEPS: OnboardingStep[] = ['name', 'phone', 'pin', 'selfie'];

/**
 * Onboarding in one flow (issue 29): name, phone with its SMS code, the transaction PIN typed twice, the liveness
 * selfie, then home ready to buy. Each step is read from the service, so a customer who leaves half-way comes back
 * to the first step still missing.
 */
export function Welcome() {
  const { t } = useTranslation();
  const profile = useQuery(settingsQueries.profile());
  const hasPin = useQuery(settingsQueries.hasPin());
  const kyc = useQuery({
    ...kycQueries.status(),
    refetchInterval: (q) => (q.state.data?.tiers.some((s) => s.tier === 1 && s.status === 'pending') ? 2000 : false),
  });
  // Issue 43: right after the PIN, a phone that can is offered its fingerprint or face (the PIN kept for that screen).
  const passkeyHere = usePlatformPasskey();
  const [offer, setOffer] = useState<string | null>(null);
  const refresh = useRefreshSteps();
  if (profile.isPending || hasPin.isPending || kyc.isPending) return <Loading />;
  if (profile.isError || hasPin.isError || kyc.isError) {
    return (
      <Alert color="red" role="alert">
        {errorMessage(profile.error ?? hasPin.error ?? kyc.error)}
      </Alert>
    );
  }
  const missing = onboardingSteps({ profile: profile.data.profile, hasPin: hasPin.data.hasPin, kyc: kyc.data });
  const step = missing[0];
  const active = step ? STEPS.indexOf(step) : STEPS.length;
  const tier1 = kyc.data.tiers.find((s) => s.tier === 1);
  return (
    <Stack maw={480}>
      <Title order={1}>{t('onboarding.title')}</Title>
      <Text>{t('onboarding.intro')}</Text>
      <Stepper active={active} orientation="vertical" size="sm" aria-label={t('onboarding.progress')}>
        {STEPS.map((s) => (
          <Stepper.Step key={s} label={t(`onboarding.steps.${s}`)} />
        ))}
      </Stepper>
      <Paper withBorder p="md" radius="md">
        {offer !== null && <PasskeyOffer pin={offer} onDone={() => (setOffer(null), void refresh())} />}
        {offer === null && step === 'name' && <NameStep />}
        {offer === null && step === 'phone' && <PhoneStep />}
        {offer === null && step === 'pin' && <PinStep onSaved={passkeyHere ? setOffer : undefined} />}
        {offer === null &&
          step === 'selfie' &&
          (tier1?.status === 'pending' ? (
            <Stack>
              <Loader size="sm" aria-hidden />
              <Text role="status">{t('onboarding.checkingSelfie')}</Text>
            </Stack>
          ) : (
            <SelfieStep rejected={tier1?.status === 'rejected' ? (tier1.reason ?? t('onboarding.selfieRetry')) : null} />
          ))}
        {offer === null && !step && <Ready />}
      </Paper>
      {step && (
        <Anchor href="/" size="sm">
          {t('onboarding.later')}
        </Anchor>
      )}
    </Stack>
  );
}

/**
 * Each step opens with the focus in its field (issue 43: not on <body> after the step before). A call to focus(): the
 * autofocus attribute is honoured once per page, not for a step drawn later.
 */
function useFocusOnOpen(shown: unknown = true) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => ref.current?.focus(), [shown]);
  return ref;
}

function useRefreshSteps() {
  const qc = useQueryClient();
  return () =>
    Promise.all([qc.invalidateQueries({ queryKey: settingsQueries.all() }), qc.invalidateQueries({ queryKey: kycQueries.all() })]);
}

// The name and phone steps check with updateProfile's and sendPhoneOtp's own rules (api/schemas.ts), in these words.
const nameHints: FieldHints = {
  fullName: (issue) => i18next.t(issue.code === 'too_big' ? 'onboarding.nameLong' : 'onboarding.nameShort'),
};
const phoneHints: FieldHints = { phone: 'onboarding.phoneInvalid' };
const pinSchema = transactionPinSchema.pick({ pin: true });

function NameStep() {
  const { t } = useTranslation();
  const refresh = useRefreshSteps();
  const form = useSchemaForm(fullNameSchema, { fullName: '' }, nameHints);
  const field = useFocusOnOpen();
  const save = useMutation({
    mutationFn: (v: { fullName: string }) => api.updateProfile({ fullName: v.fullName.trim() }),
    onSuccess: refresh,
    onError: (err) => showServerIssues(form, err, nameHints),
  });
  return (
    <form onSubmit={form.onSubmit((v) => save.mutate(v))} noValidate>
      <Stack>
        <Title order={2} size="h3">
          {t('onboarding.steps.name')}
        </Title>
        <TextInput
          ref={field}
          label={t('onboarding.fullName')}
          description={t('onboarding.fullNameHint')}
          autoComplete="name"
          {...form.getInputProps('fullName')}
        />
        {save.isError && (
          <Alert color="red" role="alert">
            {errorMessage(save.error)}
          </Alert>
        )}
        <Button type="submit" loading={save.isPending}>
          {t('app.continue')}
        </Button>
      </Stack>
    </form>
  );
}

function PhoneStep() {
  const { t } = useTranslation();
  const refresh = useRefreshSteps();
  const stepUp = useStepUp();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const phoneField = useFocusOnOpen(sentTo);
  const form = useSchemaForm(phoneSchema, { phone: '' }, phoneHints);
  const codeForm = useSchemaForm(codeSchema, { code: '' });
  const send = useMutation({
    mutationFn: (phone: string) => api.sendPhoneOtp({ phone }),
    onSuccess: (_r, phone) => setSentTo(phone),
    onError: (err) => showServerIssues(form, err, phoneHints),
  });
  const verify = useMutation({
    mutationFn: (c: string) => stepUp.withGrant((grantToken) => api.verifyPhoneOtp({ phone: sentTo!, code: c }, { grantToken })),
    onSuccess: refresh,
    onError: () => codeForm.setFieldValue('code', ''),
  });
  // The code pad completes at six digits: checked with verifyPhoneOtp's rule before it is sent.
  const complete = (c: string) => {
    const errors = schemaErrors(codeSchema, { code: c });
    if (errors.code) codeForm.setFieldError('code', errors.code);
    else verify.mutate(c);
  };
  if (sentTo) {
    return (
      <Stack>
        <Title order={2} size="h3">
          {t('onboarding.steps.phone')}
        </Title>
        <Text>{t('onboarding.smsSent', { phone: sentTo })}</Text>
        <CodeInput
          label={t('onboarding.smsCode')}
          value={codeForm.values.code}
          onChange={(c) => codeForm.setFieldValue('code', c)}
          onComplete={complete}
          error={codeForm.errors.code as string | undefined}
          disabled={verify.isPending}
        />
        {verify.isError && (
          <Alert color="red" role="alert">
            {errorMessage(verify.error)}
          </Alert>
        )}
        <Anchor component="button" type="button" onClick={() => setSentTo(null)}>
          {t('onboarding.otherPhone')}
        </Anchor>
        {stepUp.modal}
      </Stack>
    );
  }
  return (
    <form onSubmit={form.onSubmit((v) => send.mutate(v.phone.trim()))} noValidate>
      <Stack>
        <Title order={2} size="h3">
          {t('onboarding.steps.phone')}
        </Title>
        <TextInput
          label={t('onboarding.phone')}
          description={t('onboarding.phoneHint')}
          type="tel"
          inputMode="tel"
          autoComplete="tel-national"
          ref={phoneField}
          {...form.getInputProps('phone')}
        />
        {send.isError && (
          <Alert color="red" role="alert">
            {errorMessage(send.error)}
          </Alert>
        )}
        <Button type="submit" loading={send.isPending}>
          {t('onboarding.sendSms')}
        </Button>
      </Stack>
    </form>
  );
}

/** `onSaved`: what follows the PIN instead of the next step (the passkey offer), handed the PIN. */
function PinStep({ onSaved }: { onSaved?: (pin: string) => void }) {
  const { t } = useTranslation();
  const refresh = useRefreshSteps();
  const stepUp = useStepUp();
  const [first, setFirst] = useState<string | null>(null);
  const [mismatch, setMismatch] = useState(false);
  // setTransactionPinFn's own rule (4 digits); the PIN typed twice is this step's.
  const form = useSchemaForm(pinSchema, { pin: '' });
  const pin = form.values.pin;
  const setPin = (p: string) => form.setFieldValue('pin', p);
  const save = useMutation({
    mutationFn: (p: string) => stepUp.withGrant((grantToken) => api.setTransactionPinFn({ pin: p }, { grantToken })),
    onSuccess: (_r, p) => (onSaved ? onSaved(p) : void refresh()),
    onError: () => (setFirst(null), setPin('')),
  });
  function confirm(p: string) {
    const errors = schemaErrors(pinSchema, { pin: p });
    if (errors.pin) form.setFieldError('pin', errors.pin);
    else if (first === null) {
      setFirst(p);
      setPin('');
      setMismatch(false);
    } else if (p !== first) {
      setFirst(null);
      setPin('');
      setMismatch(true);
    } else save.mutate(p);
  }
  return (
    <Stack>
      <Title order={2} size="h3">
        {t('onboarding.steps.pin')}
      </Title>
      <Text id="pin-step-hint">{first === null ? t('onboarding.pinFirst') : t('onboarding.pinAgain')}</Text>
      <PinPad key={first === null ? 'first' : 'again'} value={pin} onChange={setPin} onConfirm={confirm} busy={save.isPending} focus />
      {mismatch && (
        <Alert color="red" role="alert">
          {t('onboarding.pinMismatch')}
        </Alert>
      )}
      {form.errors.pin && (
        <Alert color="red" role="alert">
          {form.errors.pin}
        </Alert>
      )}
      {save.isError && (
        <Alert color="red" role="alert">
          {errorMessage(save.error)}
        </Alert>
      )}
      {stepUp.modal}
    </Stack>
  );
}

function SelfieStep({ rejected }: { rejected: string | null }) {
  const { t } = useTranslation();
  const refresh = useRefreshSteps();
  return (
    <Stack>
      <Title order={2} size="h3">
        {t('onboarding.steps.selfie')}
      </Title>
      <Text>{t('onboarding.selfieWhy')}</Text>
      {rejected && (
        <Alert color="yellow" role="alert">
          {rejected}
        </Alert>
      )}
      <Liveness onSubmitted={() => void refresh()} />
    </Stack>
  );
}

function Ready() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // The first screen after onboarding is the purchase the customer came for; home is one tap away.
  useEffect(() => {
    document.title = t('onboarding.readyTitle');
  }, [t]);
  return (
    <Stack>
      <Title order={2} size="h3">
        {t('onboarding.readyTitle')}
      </Title>
      <Text>{t('onboarding.ready')}</Text>
      <OwnAirtime />
      <LinkButton to="/buy" search={{ service: 'airtime' }}>
        {t('onboarding.buyAirtime')}
      </LinkButton>
      <LinkButton to="/fund" variant="default">
        {t('nav.fund')}
      </LinkButton>
      <Button variant="subtle" onClick={() => void navigate({ to: '/' })}>
        {t('app.goHome')}
      </Button>
      <OfferLoginPin />
    </Stack>
  );
}

/** The amounts people pick most, for the customer's own verified number: one tap opens the purchase at its review. */
const OWN_AIRTIME = [100, 200, 500];

function OwnAirtime() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const own = useQuery(beneficiaryQueries.list('phone')).data?.items.find((b) => b.ownNumber)?.recipient;
  if (!own) return null;
  const buy = (amount: number) => {
    saveDraft({ service: 'airtime', fields: { phone: own, amount }, review: true });
    void navigate({ to: '/buy', search: { service: 'airtime' } });
  };
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500} id="own-airtime">
        {t('onboarding.buyAirtime')} · {t('buy.myNumber')}: {own}
      </Text>
      <Group gap="xs" role="group" aria-labelledby="own-airtime">
        {OWN_AIRTIME.map((a) => (
          <Button key={a} variant="light" onClick={() => buy(a)}>
            {formatNaira(a).replace(/\.00$/, '')}
          </Button>
        ))}
      </Group>
    </Stack>
  );
}

/** Sign-in by login PIN offered once onboarding is done (an account without one signs in by e-mail code only). */
function OfferLoginPin() {
  const { t } = useTranslation();
  const status = useQuery(settingsQueries.loginPin());
  const [saved, setSaved] = useState(false);
  if (!status.data || (status.data.enrolled && !saved)) return null;
  return (
    <Stack gap="xs" mt="md">
      <Title order={3} size="h4">
        {t('onboarding.loginPinOffer')}
      </Title>
      <Text size="sm">{t('onboarding.loginPinOfferBody')}</Text>
      <LoginPinForm onSaved={() => setSaved(true)} />
    </Stack>
  );
}
