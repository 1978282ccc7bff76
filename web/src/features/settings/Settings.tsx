import {
  Button,
  Checkbox,
  Group,
  Image,
  NativeSelect,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
  useMantineColorScheme,
  type MantineColorScheme,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { closeAccountSchema, codeSchema, profileSchema, transactionPinSchema } from '../../api/schemas';
import { useAuth } from '../../app/auth';
import { LANGUAGES, setLanguage, type Language } from '../../app/i18n';
import { useStepUp } from '../../app/StepUp';
import { digitsProps, showServerIssues, useSchemaForm } from '../../components/form';
import { settingsQueries } from '../../api/queries/settings';
import { Result } from '../../components/Result';
import { Section } from '../../components/Section';
import { LoginPin } from '../../components/LoginPinForm';
import { Limits } from './Limits';
import { WhatsappSettings } from './Whatsapp';
import { RecoveryCodes } from './RecoveryCodes';
import { PasskeySettings } from './Passkeys';
import * as api from '../../api/calls';

/** Profile, the KYC tier's limits, transaction and login PINs, 2FA, WhatsApp, notification preferences, language, closing the account. */
export function Settings() {
  const { t } = useTranslation();
  return (
    <Stack maw={640}>
      <Title order={1}>{t('settings.title')}</Title>
      <Profile />
      <Limits />
      <TransactionPin />
      <LoginPin />
      <TwoFactor />
      <PasskeySettings />
      <WhatsappSettings />
      <Preferences />
      <CloseAccount />
    </Stack>
  );
}

function Profile() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const profile = useQuery(settingsQueries.profile());
  const p = profile.data?.profile;
  // updateProfile's own rules (api/schemas.ts); only the fields the person changed are sent.
  const form = useSchemaForm(profileSchema, { username: '', fullName: '' });
  const { initialize } = form;
  useEffect(() => {
    if (p) initialize({ username: p.username ?? '', fullName: p.fullName ?? '' });
  }, [p, initialize]);
  const [underFields, setUnderFields] = useState(false);
  // Replacing a username or full name is a credential change: the service asks for a step-up grant.
  const stepUp = useStepUp();
  const save = useMutation({
    mutationFn: (changes: { username?: string; fullName?: string }) =>
      stepUp.withGrant((grantToken) => api.updateProfile(changes, { grantToken })),
    onSuccess: () => {
      form.resetDirty();
      void qc.invalidateQueries({ queryKey: settingsQueries.profile().queryKey });
    },
    onError: (err) => setUnderFields(showServerIssues(form, err)),
  });
  const submit = form.onSubmit((values) => {
    const checked = profileSchema.safeParse(values);
    if (!checked.success) return;
    const { username, fullName } = checked.data;
    save.mutate({
      ...(form.isDirty('username') && username ? { username } : {}),
      ...(form.isDirty('fullName') && fullName ? { fullName } : {}),
    });
  });
  return (
    <Section id="profile" title={t('settings.profile')}>
      <Text size="sm">{p?.email}</Text>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput label={t('settings.username')} {...form.getInputProps('username')} autoCapitalize="none" />
          <TextInput label={t('settings.fullName')} {...form.getInputProps('fullName')} />
          <Result error={underFields ? null : save.error} ok={save.isSuccess && t('settings.saved')} />
          <Button type="submit" loading={save.isPending} disabled={!form.isDirty()}>
            {t('app.save')}
          </Button>
        </Stack>
      </form>
      {stepUp.modal}
    </Section>
  );
}

function TransactionPin() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const stepUp = useStepUp();
  const has = useQuery(settingsQueries.hasPin());
  // setTransactionPinFn's own rules (api/schemas.ts); digits only as they are typed.
  const form = useSchemaForm(transactionPinSchema, { pin: '', currentPin: '' });
  const [underFields, setUnderFields] = useState(false);
  const save = useMutation({
    mutationFn: (v: { pin: string; currentPin?: string }) => stepUp.withGrant((grantToken) => api.setTransactionPinFn(v, { grantToken })),
    onSuccess: () => {
      form.reset();
      void qc.invalidateQueries({ queryKey: settingsQueries.hasPin().queryKey });
    },
    onError: (err) => setUnderFields(showServerIssues(form, err)),
  });
  const isSet = has.data?.hasPin;
  const submit = form.onSubmit((values) => {
    const checked = transactionPinSchema.safeParse(values);
    if (!checked.success) return;
    // Changing a PIN needs the current one: the form says so before the service does.
    if (isSet && !checked.data.currentPin) return form.setFieldError('currentPin', t('form.required'));
    save.mutate({ pin: checked.data.pin, ...(isSet ? { currentPin: checked.data.currentPin } : {}) });
  });
  const digits = (field: 'pin' | 'currentPin') => digitsProps(form, field);
  return (
    <Section id="txpin" title={t('settings.txPin')}>
      <Text size="sm">{isSet ? t('settings.txPinSet') : t('settings.txPinNotSet')}</Text>
      <form onSubmit={submit} noValidate>
        <Stack>
          {isSet && (
            <PasswordInput
              visibilityToggleButtonProps={{ 'aria-label': t('app.togglePassword') }}
              label={t('settings.currentPin')}
              inputMode="numeric"
              maxLength={4}
              {...digits('currentPin')}
            />
          )}
          <PasswordInput
            visibilityToggleButtonProps={{ 'aria-label': t('app.togglePassword') }}
            label={t('settings.newPin')}
            inputMode="numeric"
            maxLength={4}
            {...digits('pin')}
          />
          <Result error={underFields ? null : save.error} ok={save.isSuccess && t('settings.pinSaved')} />
          <Button type="submit" loading={save.isPending}>
            {isSet ? t('settings.changePin') : t('settings.setPin')}
          </Button>
        </Stack>
      </form>
      {stepUp.modal}
    </Section>
  );
}

function TwoFactor() {
  const { t } = useTranslation();
  const stepUp = useStepUp();
  const qc = useQueryClient();
  const state = useQuery(settingsQueries.twoFactor());
  // confirmTotpEnrollment's own rule: the authenticator's 6-digit code.
  const form = useSchemaForm(codeSchema, { code: '' }, { code: 'fields.code' });
  const [underFields, setUnderFields] = useState(false);
  const begin = useMutation({
    mutationFn: () => stepUp.withGrant((grantToken) => api.beginTotpEnrollment({}, { grantToken })),
  });
  const confirm = useMutation({
    mutationFn: (code: string) => stepUp.withGrant((grantToken) => api.confirmTotpEnrollment({ code }, { grantToken })),
    onSuccess: () => (begin.reset(), form.reset(), void qc.invalidateQueries({ queryKey: settingsQueries.twoFactor().queryKey })),
    onError: (err) => setUnderFields(showServerIssues(form, err, { code: 'fields.code' })),
  });
  const disable = useMutation({
    mutationFn: () => stepUp.withGrant((grantToken) => api.disableTotp({}, { grantToken })),
    onSuccess: () => void qc.invalidateQueries({ queryKey: settingsQueries.twoFactor().queryKey }),
  });
  const on = state.data?.confirmed;
  return (
    <Section id="twofa" title={t('settings.twoFactor')}>
      <Text size="sm">{on ? t('settings.twoFactorOn') : t('settings.twoFactorOff')}</Text>
      {begin.data && (
        <form onSubmit={form.onSubmit((v) => confirm.mutate(v.code))} noValidate>
          <Stack>
            <Image src={begin.data.qrDataUrl} alt={t('settings.twoFactorQr')} w={200} h={200} />
            <Text size="sm" style={{ wordBreak: 'break-all' }}>
              {t('settings.twoFactorSecret')}: <code>{begin.data.secret}</code>
            </Text>
            <TextInput label={t('stepup.code')} inputMode="numeric" maxLength={6} {...digitsProps(form, 'code')} required />
            <Button type="submit" loading={confirm.isPending}>
              {t('stepup.confirm')}
            </Button>
          </Stack>
        </form>
      )}
      <Result error={begin.error ?? (underFields ? null : confirm.error) ?? disable.error} />
      {on && !begin.data && <RecoveryCodes fresh={confirm.data?.recoveryCodes} left={state.data?.recoveryCodesLeft} />}
      {!begin.data &&
        (on ? (
          <Button variant="subtle" color="red" onClick={() => disable.mutate()} loading={disable.isPending}>
            {t('settings.disable')}
          </Button>
        ) : (
          <Button onClick={() => begin.mutate()} loading={begin.isPending}>
            {t('settings.twoFactorEnable')}
          </Button>
        ))}
      {stepUp.modal}
    </Section>
  );
}

function Preferences() {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const prefs = useQuery(settingsQueries.preferences());
  const update = useMutation({
    mutationFn: (p: { notifications?: { email?: boolean; push?: boolean; sms?: boolean }; language?: 'en' | 'yo' | 'ha' | 'pcm' }) =>
      api.updatePreferences(p),
    onSuccess: (r) => qc.setQueryData(settingsQueries.preferences().queryKey, r),
  });
  const n = prefs.data?.preferences.notifications;
  return (
    <Section id="prefs" title={t('settings.notificationPrefs')}>
      <Group>
        {(['email', 'push', 'sms'] as const).map((k) => (
          <Checkbox
            key={k}
            label={t(`settings.${k}`)}
            checked={n?.[k] ?? false}
            disabled={!n}
            onChange={(e) => update.mutate({ notifications: { [k]: e.currentTarget.checked } })}
          />
        ))}
      </Group>
      <NativeSelect
        label={t('settings.language')}
        value={i18n.language}
        onChange={(e) => {
          const code = e.currentTarget.value as Language;
          void setLanguage(code);
          update.mutate({ language: code });
        }}
        data={LANGUAGES.map((l) => ({ value: l.code, label: l.name }))}
      />
      <ThemeChoice />
      <Result error={update.error} />
    </Section>
  );
}

/** Light, dark or the phone's own setting (prefers-color-scheme), kept on this device by Mantine (issue 43). */
function ThemeChoice() {
  const { t } = useTranslation();
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  return (
    <NativeSelect
      label={t('settings.theme')}
      value={colorScheme}
      onChange={(e) => setColorScheme(e.currentTarget.value as MantineColorScheme)}
      data={[
        { value: 'auto', label: t('settings.themeSystem') },
        { value: 'light', label: t('settings.themeLight') },
        { value: 'dark', label: t('settings.themeDark') },
      ]}
    />
  );
}

function CloseAccount() {
  const { t } = useTranslation();
  const auth = useAuth();
  const stepUp = useStepUp();
  // closeAccount's own rule: the word DELETE, typed.
  const form = useSchemaForm(closeAccountSchema, { confirm: '' }, { confirm: 'fields.closeConfirm' });
  const close = useMutation({
    mutationFn: () => stepUp.withGrant((grantToken) => api.closeAccount({ confirm: 'DELETE' as const }, { grantToken })),
    onSuccess: () => void auth.signOut(),
  });
  return (
    <Section id="close" title={t('settings.closeAccount')}>
      <Text size="sm">{t('settings.closeHelp')}</Text>
      <form onSubmit={form.onSubmit(() => close.mutate())} noValidate>
        <Stack>
          <TextInput label={t('settings.closeConfirm')} {...form.getInputProps('confirm')} autoCapitalize="characters" required />
          <Result error={close.error} />
          <Button type="submit" color="red" loading={close.isPending}>
            {t('settings.closeAccount')}
          </Button>
        </Stack>
      </form>
      {stepUp.modal}
    </Section>
  );
}
