import { sql } from 'drizzle-orm';
import { one, rows, type Db, type Executor } from '../../db/client.js';
import type { Clock } from '../../kernel/clock.js';
import { AppError } from '../../kernel/errors.js';
import type { CatalogueEntry } from '../../providers/vtu/types.js';
import { createCustomerLevels } from './customer-levels.js';
import { applyMarkup, MARKUP_CACHE_MS } from './markups.js';

/**
 * Price levels (issue 45): every customer buys at a level (no row in vtu_customer_levels: the rank-0 level, Customer).
 * A level's price of a plan or of a service is a rule: a markup over wholesale (flat kobo, percent in basis points
 * rounded up) or, for a plan, a fixed price (never below wholesale: we never sell at a loss). A level with no rule for
 * what is bought pays what the default level pays (its plan rule, else the service's markup, vtu_markups).
 */
export const DEFAULT_LEVEL = 'customer';

export interface PriceLevel {
  id: string;
  name: string;
  rank: number;
  /** kobo; null: reached only by an operator's grant. */
  upgradeFee: bigint | null;
  /** Whether its customers may create live API keys (test keys need none). */
  apiKeys: boolean;
}

export interface LevelRule {
  level: string;
  service: string;
  /** A plan's provider-independent key; '' for the whole service. */
  plan: string;
  kind: 'flat' | 'percent' | 'fixed';
  /** kobo (flat, fixed) or basis points (percent). */
  value: bigint;
}

/** The plan key a level price and a plan's switch are kept under: the provider-independent key, else the code. */
export const planKey = (e: Pick<CatalogueEntry, 'key' | 'code'>) => e.key ?? e.code;

/** Retail under a level rule: a fixed price (not below wholesale) or wholesale plus the markup. */
export function ruleRetail(rule: Pick<LevelRule, 'kind' | 'value'>, wholesale: bigint): bigint {
  if (rule.kind === 'fixed') return rule.value > wholesale ? rule.value : wholesale;
  return wholesale + applyMarkup({ kind: rule.kind, value: rule.value }, wholesale);
}

/** The rule that prices `plan` of a service at `level`, from the service's rules (undefined: the service's markup). */
export function ruleOf(rules: LevelRule[], level: string, plan: string | undefined): LevelRule | undefined {
  const find = (l: string, p: string) => rules.find((r) => r.level === l && r.plan === p);
  return (
    (plan ? find(level, plan) : undefined) ??
    (level !== DEFAULT_LEVEL ? find(level, '') : undefined) ??
    (plan && level !== DEFAULT_LEVEL ? find(DEFAULT_LEVEL, plan) : undefined)
  );
}

type RuleRow = { level: string; service: string; plan: string; kind: LevelRule['kind']; value: string };
const toRule = (r: RuleRow): LevelRule => ({ ...r, value: BigInt(r.value) });
type LevelRow = { id: string; name: string; rank: number; upgrade_fee: string | null; api_keys: boolean };
const toLevel = (r: LevelRow): PriceLevel => ({
  id: r.id,
  name: r.name,
  rank: Number(r.rank),
  upgradeFee: r.upgrade_fee === null ? null : BigInt(r.upgrade_fee),
  apiKeys: r.api_keys,
});

export async function readLevels(exec: Executor): Promise<PriceLevel[]> {
  return (
    await rows<LevelRow>(exec, sql`SELECT id, name, rank, upgrade_fee::text AS upgrade_fee, api_keys FROM vtu_price_levels ORDER BY rank`)
  ).map(toLevel);
}

/** A customer's level id (the default level without a row). */
export async function levelIdOf(exec: Executor, userId: string): Promise<string> {
  const r = await one<{ level: string }>(exec, sql`SELECT level FROM vtu_customer_levels WHERE user_id = ${userId}`);
  return r?.level ?? DEFAULT_LEVEL;
}

/**
 * Whether a customer's level allows live API keys (issue 45, developers' createKey), with the level's name and the
 * names of the levels that do, lowest first: one statement.
 */
export async function apiKeyLevel(exec: Executor, userId: string): Promise<{ level: string; allowed: boolean; allowing: string[] }> {
  const r = await one<{ level: string; allowed: boolean; allowing: string[] }>(
    exec,
    sql`SELECT l.name AS level, l.api_keys AS allowed, ARRAY(SELECT a.name FROM vtu_price_levels a WHERE a.api_keys ORDER BY a.rank) AS allowing
        FROM vtu_price_levels l
        WHERE l.id = coalesce((SELECT c.level FROM vtu_customer_levels c WHERE c.user_id = ${userId}), ${DEFAULT_LEVEL})`,
  );
  return r ?? { level: DEFAULT_LEVEL, allowed: false, allowing: [] };
}

/**
 * The levels, their rules and the switched-off plans as purchases read them: kept MARKUP_CACHE_MS per instance like
 * the markups (a change made here clears it at once). Each customer's level is kept until their row changes
 * (customer-levels.ts).
 */
export function createLevels({ db, clock }: { db: Db; clock: Clock }) {
  const customers = createCustomerLevels((userId) => levelIdOf(db, userId));
  let levels: { at: number; list: PriceLevel[] } | undefined;
  const rules = new Map<string, { at: number; list: LevelRule[]; off: Set<string> }>();
  const fresh = (at: number) => {
    const now = clock.now().getTime();
    return now - at < MARKUP_CACHE_MS && now >= at;
  };
  async function list(): Promise<PriceLevel[]> {
    if (!levels || !fresh(levels.at)) levels = { at: clock.now().getTime(), list: await readLevels(db) };
    return levels.list;
  }
  async function ofService(service: string) {
    const hit = rules.get(service);
    if (hit && fresh(hit.at)) return hit;
    const at = clock.now().getTime();
    const [r, off] = await Promise.all([
      rows<RuleRow>(db, sql`SELECT level, service, plan, kind, value::text AS value FROM vtu_level_prices WHERE service = ${service}`),
      rows<{ plan: string }>(db, sql`SELECT plan FROM vtu_disabled_plans WHERE service = ${service}`),
    ]);
    const entry = { at, list: r.map(toRule), off: new Set(off.map((x) => x.plan)) };
    rules.set(service, entry);
    return entry;
  }
  return {
    list,
    /** The level by id; NOT_FOUND-like VALIDATION_FAILED when there is none. */
    async named(id: string): Promise<PriceLevel> {
      const l = (await list()).find((x) => x.id === id);
      if (!l)
        throw new AppError('VALIDATION_FAILED', `level ${id} is not a price level`, {
          issues: [{ path: 'level', message: 'unknown level' }],
        });
      return l;
    },
    /** A customer's level id, as purchases price it. */
    levelOf: (userId: string) => customers.of(userId),
    /** A customer's level id read now (after a write that may have raced another). */
    levelNow: (userId: string) => levelIdOf(db, userId),
    /** The customers' copies' invalidation: the feed to attach, and one customer (or '' for all) to drop. */
    attachCustomers: (live: () => boolean) => customers.attach(live),
    forgetCustomer: (userId: string) => customers.forget(userId),
    /** The rule pricing `plan` (or the service) at `level`; undefined: the service's markup at the provider. */
    async ruleFor(service: string, level: string, plan?: string) {
      return ruleOf((await ofService(service)).list, level, plan);
    },
    rulesOf: async (service: string) => (await ofService(service)).list,
    /** Whether an operator switched the plan off. */
    isOff: async (service: string, plan: string) => (await ofService(service)).off.has(plan),
    offPlans: async (service: string) => (await ofService(service)).off,
    clear() {
      levels = undefined;
      rules.clear();
      customers.forget('');
    },
  };
}

export type Levels = ReturnType<typeof createLevels>;
