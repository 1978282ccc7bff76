import type { Work } from '../../platform/change.js';
import type { Db } from '../../db/client.js';
import type { ApiScope, AuthUser } from '../../kernel/actor.js';
import type { Clock } from '../../kernel/clock.js';
import type { Ledger } from '../../ledger/types.js';
import type { IdentityService } from '../identity/api.js';
import { authenticate } from './authenticate-key.js';
import { createKey } from './create-key.js';
import { adjustSpend, reserveSpend } from './key-spend.js';
import type { KeyMode } from './keys.js';
import { listKeys, revokeKey } from './list-keys.js';
import { rollKey } from './roll-key.js';
import { shadowAccounts, testWallet, type ForwardedAnswer, type ForwardedRequest } from './test-mode.js';

/**
 * API keys (issue 45): a customer's keys, each with scopes, allowed addresses and a daily spend limit; the secret is
 * shown once and stored as its hash. A request with a key runs the same operations as a session (http/operation-key.ts).
 */
export interface ApiKeyView {
  id: string;
  name: string;
  mode: KeyMode;
  prefix: string;
  scopes: ApiScope[];
  allowedIps: string[] | null;
  dailyLimit: number | null;
  spentToday: number;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
  rolledFrom: string | null;
}

export interface NewKey {
  name: string;
  mode: KeyMode;
  scopes: ApiScope[];
  allowedIps?: string[];
  dailyLimit?: number;
}

/**
 * The test world as the live one sees it (test-mode.ts; built by the composition root on first use). Inside the test
 * world itself there is none.
 */
export interface TestWorld {
  /** Answers a request made with a test key, in the test world. */
  forward(request: ForwardedRequest): Promise<ForwardedAnswer>;
  /** The test world's own developers service: its keys, shadow accounts and test wallets. */
  developers(): Promise<DevelopersService>;
  close(): Promise<void>;
}

export interface DevelopersDeps {
  db: Db;
  clock: Clock;
  brand: string;
  ledger: Ledger;
  work: Work;
  identity: IdentityService;
  /** Null inside the test world: its keys are test keys, and it has no test world of its own. */
  testWorld: TestWorld | null;
}

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

export type DevelopersService = ReturnType<typeof createDevelopersService>;
