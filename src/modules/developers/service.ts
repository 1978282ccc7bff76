import type { AuthUser } from '../../kernel/actor.js';
import { authenticate } from './authenticate-key.js';
import { createKey } from './create-key.js';
import { adjustSpend, reserveSpend } from './key-spend.js';
import type { DevelopersDeps, NewKey } from './deps.js';
import { listKeys, revokeKey } from './list-keys.js';
import { rollKey } from './roll-key.js';
import { shadowAccounts } from './shadow-accounts.js';
import { testWallet } from './test-mode.js';

export function createDevelopersService(deps: DevelopersDeps) {
  type Holder = Pick<AuthUser, 'id' | 'email'>;
  return {
    brand: deps.brand,
    createKey: (user: AuthUser, k: NewKey) => createKey(deps, user, k),
    listKeys: (user: Holder) => listKeys(deps, user),
    revokeKey: (user: Holder, id: string) => revokeKey(deps, user, id),
    rollKey: (user: Holder, id: string, overlapHours: number) => rollKey(deps, user, id, overlapHours),
    authenticate: (secret: string, ip: string) => authenticate(deps, secret, ip),
    reserveSpend: (keyId: string, kobo: bigint) => reserveSpend(deps, keyId, kobo),
    /** Test mode's shadow accounts and wallets (used in the test world, by the live world's developer page). */
    shadow: shadowAccounts(deps),
    testWallet: (user: Pick<AuthUser, 'email' | 'kycTier'>, naira?: number) => testWallet(deps, user, naira),
    adjustSpend: (keyId: string, deltaKobo: bigint) => adjustSpend(deps, keyId, deltaKobo),
  };
}

export type { ApiKeyView, DevelopersDeps, NewKey, TestWorld } from './deps.js';

export type DevelopersService = ReturnType<typeof createDevelopersService>;
