import { DAY } from '../../kernel/clock.js';
import { toNaira } from '../../kernel/money.js';
import type { AuthUser } from '../../kernel/actor.js';
import { usageByKey } from '../vtu/api.js';
import { listKeys } from './list-keys.js';
import { lagosMidnight } from './resellers.js';
import type { DevelopersDeps } from './deps.js';

export interface KeyUsageView {
  day: string;
  keyId: string;
  name: string;
  prefix: string;
  mode: 'test' | 'live';
  purchases: number;
  succeeded: number;
  /** Naira the successful purchases cost. */
  spend: number;
}

/** The purchases made with the customer's keys in this world over the last `days` Lagos days, by key and day. */
export async function ownUsage(deps: DevelopersDeps, userId: string, days: number) {
  const now = deps.clock.now();
  const list = await usageByKey(
    deps.db,
    lagosMidnight(new Date(now.getTime() - (days - 1) * DAY)),
    new Date(lagosMidnight(now).getTime() + DAY),
    {
      userId,
    },
  );
  return list.map((u) => ({ key: u.key, day: u.day, purchases: u.purchases, succeeded: u.succeeded, spend: toNaira(u.spend) }));
}

/**
 * getMyApiUsage: purchases and spend by key and Lagos day, newest day first; live keys' from here, test keys' from the
 * test world (its own purchases), each named by the key's name and prefix.
 */
export async function myUsage(deps: DevelopersDeps, user: Pick<AuthUser, 'id' | 'email'>, days: number): Promise<KeyUsageView[]> {
  const [keys, live, test] = await Promise.all([
    listKeys(deps, user),
    ownUsage(deps, user.id, days),
    deps.testWorld
      ? deps.testWorld.developers().then(async (tw) => {
          const shadowId = await tw.shadow.idOf(user.email).catch(() => null);
          return shadowId ? tw.ownUsage(shadowId, days) : [];
        })
      : Promise.resolve([]),
  ]);
  const named = new Map(keys.map((k) => [k.id, k]));
  return [...live, ...test]
    .flatMap((u) => {
      const k = named.get(u.key);
      if (!k) return [];
      const { key, ...rest } = u;
      return [{ ...rest, keyId: key, name: k.name, prefix: k.prefix, mode: k.mode }];
    })
    .sort((a, b) => b.day.localeCompare(a.day) || a.name.localeCompare(b.name) || a.keyId.localeCompare(b.keyId));
}
