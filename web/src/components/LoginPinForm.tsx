import { Button, Group, PasswordInput, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { settingsQueries } from '../api/queries/settings';
import { loginPinSchema } from '../api/schemas';
import { useStepUp } from '../app/StepUp';
import { digitsProps, showServerIssues, useSchemaForm } from './form';
import { Result } from './Result';
import { Section } from './Section';
import * as api from '../api/calls';

/**
 * The login PIN's form: six digits, setLoginPin's own rule (api/schemas.ts), said in the label and checked before
 * sending. A first login PIN right after the e-mailed sign-in code needs no step-up (the service's first-credential
 * rule); a change asks for one. Used by Settings and by onboarding's last step.
 */
export function LoginPinForm({ onSaved }: { onSaved?: () => void }) {
  const { t } = useTranslation();
  const stepUp = useStepUp();
  const qc = useQueryClient();
  const form = useSchemaForm(loginPinSchema, { pin: '' }, { pin: 'fields.loginPin' });
  const [underFields, setUnderFields] = useState(false);
  const save = useMutation({
    mutationFn: (pin: string) => stepUp.withGrant((grantToken) => api.setLoginPin({ pin }, { grantToken })),
    onSuccess: () => {
      form.reset();
      void qc.invalidateQueries({ queryKey: settingsQueries.loginPin().queryKey });
      onSaved?.();
    },
    onError: (err) => setUnderFields(showServerIssues(form, err, { pin: 'fields.loginPin' })),
  });
  return (
    <form onSubmit={form.onSubmit((v) => save.mutate(v.pin))} noValidate>
      <Stack>
        <PasswordInput
          visibilityToggleButtonProps={{ 'aria-label': t('app.togglePassword') }}
          label={t('settings.newLoginPin')}
          description={t('settings.loginPinHelp')}
          inputMode="numeric"
          autoComplete="new-password"
          maxLength={6}
          {...digitsProps(form, 'pin')}
          required
        />
        <Result error={underFields ? null : save.error} ok={save.isSuccess && t('settings.loginPinSaved')} />
        <Button type="submit" loading={save.isPending}>
          {t('settings.saveLoginPin')}
        </Button>
      </Stack>
      {stepUp.modal}
    </form>
  );
}

/** Settings' login PIN: whether one is set, the form, and turning it off. */
export function LoginPin() {
  const { t } = useTranslation();
  const stepUp = useStepUp();
  const qc = useQueryClient();
  const status = useQuery(settingsQueries.loginPin());
  const off = useMutation({
    mutationFn: () => stepUp.withGrant((grantToken) => api.disableLoginPin({}, { grantToken })),
    onSuccess: () => void qc.invalidateQueries({ queryKey: settingsQueries.loginPin().queryKey }),
  });
  const enrolled = status.data?.enrolled;
  return (
    <Section id="loginpin" title={t('auth.loginPin')}>
      {status.data && <Text size="sm">{enrolled ? t('settings.loginPinSet') : t('settings.loginPinNotSet')}</Text>}
      <LoginPinForm />
      <Result error={off.error} />
      {enrolled && (
        <Group>
          <Button variant="subtle" color="red" onClick={() => off.mutate()} loading={off.isPending}>
            {t('settings.disable')}
          </Button>
        </Group>
      )}
      {stepUp.modal}
    </Section>
  );
}
