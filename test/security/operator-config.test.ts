import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { PRODUCTION } from '../helpers/production-env.js';

// Issue 30: OPERATOR_2FA is required outside the sandbox unless set, optional in it; the passkey relying party comes
// from PUBLIC_URL unless WEBAUTHN_* say otherwise, and an RP ID that does not cover the origin is refused at start.
describe('operator settings', () => {
  it('OPERATOR_2FA: required in production and outside the sandbox, optional in the sandbox, as set otherwise', () => {
    expect(loadConfig(PRODUCTION).operators).toEqual({ twoFactor: 'required', idleMinutes: 15 });
    expect(loadConfig({ NODE_ENV: 'development' }).operators.twoFactor).toBe('required');
    expect(loadConfig({ NODE_ENV: 'development', SANDBOX: 'true' }).operators.twoFactor).toBe('optional');
    expect(loadConfig({ NODE_ENV: 'test' }).operators.twoFactor).toBe('optional');
    expect(loadConfig({ ...PRODUCTION, OPERATOR_2FA: 'optional', OPERATOR_IDLE_MINUTES: '30' }).operators).toEqual({
      twoFactor: 'optional',
      idleMinutes: 30,
    });
    expect(() => loadConfig({ NODE_ENV: 'test', OPERATOR_2FA: 'sometimes' })).toThrow(/OPERATOR_2FA must be required or optional/);
    expect(() => loadConfig({ NODE_ENV: 'test', OPERATOR_IDLE_MINUTES: '0' })).toThrow(/OPERATOR_IDLE_MINUTES must be 1-1440/);
  });

  it('WebAuthn relying party from PUBLIC_URL, or WEBAUTHN_RP_ID / WEBAUTHN_ORIGIN; an RP ID not covering the origin is refused', () => {
    expect(loadConfig(PRODUCTION).webauthn).toMatchObject({ rpId: 'api.example.com', origin: 'https://api.example.com' });
    const own = loadConfig({ ...PRODUCTION, WEBAUTHN_ORIGIN: 'https://console.example.com', WEBAUTHN_RP_ID: 'example.com' });
    expect(own.webauthn).toMatchObject({ rpId: 'example.com', origin: 'https://console.example.com' });
    expect(() => loadConfig({ ...PRODUCTION, WEBAUTHN_RP_ID: 'other.example' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...PRODUCTION, WEBAUTHN_RP_ID: 'ample.com' })).toThrow(/parent domain/);
    expect(() => loadConfig({ ...PRODUCTION, WEBAUTHN_RP_ID: 'https://example.com' })).toThrow(/host name/);
  });
});
