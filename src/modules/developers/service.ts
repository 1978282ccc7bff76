import type { AuthUser } from '../../kernel/actor.js';
import { authenticate } from './authenticate-key.js';
import { createKey } from './create-key.js';
import { adjustSpend, reserveSpend } from './key-spend.js';
import type { DevelopersDeps, NewKey } from './deps.js';
import { listKeys, revokeKey } from './list-keys.js';
import { rollKey } from './roll-key.js';
import { shadowAccounts } from './shadow-accounts.js';
import { consoleKeysByEmail, keyHolderEmails, listResellers, setKeySuspended, suspendTestKey, webhookHealthByEmail } from './resellers.js';
import { testWallet, type ShadowHolder } from './test-mode.js';
import { myUsage, ownUsage } from './usage.js';

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
    testWallet: (user: ShadowHolder, naira?: number) => testWallet(deps, user, naira),
    adjustSpend: (keyId: string, deltaKobo: bigint) => adjustSpend(deps, keyId, deltaKobo),
    /** Issue 45: purchases by key and day, the developer page's (live and test keys) and this world's own. */
    myUsage: (user: Holder, days: number) => myUsage(deps, user, days),
    ownUsage: (userId: string, days: number) => ownUsage(deps, userId, days),
    /** The console's resellers: customers above the default level or holding a key, with keys, usage and webhook health. */
    listResellers: (page: { limit: number; offset: number }) => listResellers(deps, page),
    /** The test world's side of the resellers' webhook health: its shadow accounts' endpoints, by e-mail. */
    webhookHealth: (emails: string[]) => webhookHealthByEmail(deps, emails),
    /** The test world's side of the resellers' keys: who holds one, their keys and usage, and an operator's suspension. */
    keyHolders: () => keyHolderEmails(deps),
    consoleKeys: (emails: string[]) => consoleKeysByEmail(deps, emails),
    suspendKey: (actorId: string, keyId: string, suspended: boolean) => suspendTestKey(deps, actorId, keyId, suspended),
    setKeySuspended: (actorId: string, keyId: string, suspended: boolean) => setKeySuspended(deps, actorId, keyId, suspended),
  };
}

export type { ApiKeyView, DevelopersDeps, NewKey, TestWorld } from './deps.js';

export type DevelopersService = ReturnType<typeof createDevelopersService>;
