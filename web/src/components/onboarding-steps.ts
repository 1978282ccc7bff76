/** What onboarding still asks of a customer, in the order the flow asks it (issue 29: ready to buy in one flow). */
export type OnboardingStep = 'name' | 'phone' | 'pin' | 'selfie';

interface Facts {
  profile: { fullName: string | null; phoneVerified: boolean };
  hasPin: boolean;
  kyc: { tier: number };
}

export function onboardingSteps({ profile, hasPin, kyc }: Facts): OnboardingStep[] {
  const steps: OnboardingStep[] = [];
  if (!profile.fullName) steps.push('name');
  if (!profile.phoneVerified) steps.push('phone');
  if (!hasPin) steps.push('pin');
  if (kyc.tier < 1) steps.push('selfie');
  return steps;
}
