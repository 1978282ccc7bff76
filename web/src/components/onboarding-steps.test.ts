import { describe, expect, it } from 'vitest';
import { onboardingSteps } from './onboarding-steps';

describe('onboardingSteps', () => {
  const fresh = { profile: { fullName: null, phoneVerified: false }, hasPin: false, kyc: { tier: 0 } };
  it('asks a new customer for everything, in order', () => {
    expect(onboardingSteps(fresh)).toEqual(['name', 'phone', 'pin', 'selfie']);
  });
  it('skips what is done and ends when the customer can buy', () => {
    expect(onboardingSteps({ ...fresh, profile: { fullName: 'Ada Obi', phoneVerified: true } })).toEqual(['pin', 'selfie']);
    expect(onboardingSteps({ profile: { fullName: 'Ada Obi', phoneVerified: true }, hasPin: true, kyc: { tier: 1 } })).toEqual([]);
  });
});
