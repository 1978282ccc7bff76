import { Alert, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { kycQueries } from '../api/queries/kyc';
import { settingsQueries } from '../api/queries/settings';
import { LinkButton } from './LinkButton';
import { onboardingSteps } from './onboarding-steps';

const SENT_KEY = 'vtu.onboarding.sent';
const NEW_ACCOUNT_MS = 60 * 60 * 1000;

/**
 * Home's reminder of what a purchase still needs (issue 29: said before any PIN). A brand-new account (less than an
 * hour old) is taken to the onboarding flow once per browser session; later visits show the reminder.
 */
export function SetupPrompt() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const profile = useQuery(settingsQueries.profile());
  const hasPin = useQuery(settingsQueries.hasPin());
  const kyc = useQuery(kycQueries.status());
  const ready = profile.data && hasPin.data && kyc.data;
  // Only while a purchase is still out of reach (no PIN or no Tier 1); name and phone alone do not block buying.
  const blocked = ready && (!hasPin.data.hasPin || kyc.data.tier < 1);
  const steps = blocked ? onboardingSteps({ profile: profile.data.profile, hasPin: hasPin.data.hasPin, kyc: kyc.data }) : [];
  const createdAt = profile.data?.profile.createdAt;
  useEffect(() => {
    if (!createdAt || steps.length === 0 || sessionStorage.getItem(SENT_KEY)) return;
    if (Date.now() - Date.parse(createdAt) > NEW_ACCOUNT_MS) return;
    sessionStorage.setItem(SENT_KEY, '1');
    void navigate({ to: '/welcome' });
  }, [createdAt, steps.length, navigate]);
  if (steps.length === 0) return null;
  return (
    <Alert color="blue" title={t('onboarding.promptTitle')}>
      <Text size="sm" mb="xs">
        {t('onboarding.prompt', { count: steps.length })}
      </Text>
      <LinkButton to="/welcome" size="compact-md">
        {t('onboarding.finish')}
      </LinkButton>
    </Alert>
  );
}
