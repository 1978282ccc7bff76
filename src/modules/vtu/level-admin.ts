import { sql } from 'drizzle-orm';
import { rows, type Db, type Tx } from '../../db/client.js';
import type { Clock } from '../../kernel/clock.js';
import { AppError } from '../../kernel/errors.js';
import { toKobo, toNaira } from '../../kernel/money.js';
import type { CatalogueEntry } from '../../providers/vtu/types.js';
import { kindNamed } from './kinds/index.js';
import { DEFAULT_LEVEL, planKey, ruleOf, ruleRetail, type LevelRule, type Levels } from './levels.js';
import { applyMarkup, type Markups } from './markups.js';
import type { Pricing } from './pricing.js';

/**
 * The console's catalogue and price settings (issue 45): plans with wholesale, each level's price and margin; a
 * plan switched on or off at once (audited); a price, a level or a customer's level changed only through four-eyes
 * (approvals' `price_setting`: `settingTarget` checks it when asked, `applySetting` runs it once approved).
 */
export interface LevelAdminDeps {
  db: Db;
  clock: Clock;
  pricing: Pricing;
  markups: Markups;
  levels: Levels;
}

/** The kinds sold as plans, and the catalogue list (and its argument) their plans come from. */
export const CATALOGUE_LISTS: Record<string, { list: string; arg?: 'identifier' }> = {
  data: { list: 'data_plans' },
  cable: { list: 'cable_plans', arg: 'identifier' },
  exam: { list: 'exam_products' },
};

/** A price setting waiting for (or approved by) a second operator. Values: kobo (flat, fixed) or basis points (percent). */
export type PriceSetting =
  | { change: 'price'; level: string; service: string; plan: string; rule: LevelRule['kind']; value: bigint }
  | { change: 'level'; level: string; name: string; rank: number; upgradeFee: bigint | null; apiKeys: boolean | null }
  | { change: 'grant'; level: string; userId: string };

const bad = (path: string, message: string) => new AppError('VALIDATION_FAILED', message, { issues: [{ path, message }] });

/** The plans of a service at its first provider (a network's, a cable provider's), priced at every level. */
async function plansOf(deps: LevelAdminDeps, service: string, opts: { network?: string; identifier?: string }) {
  const spec = CATALOGUE_LISTS[service];
  if (!spec) throw bad('service', `${service} is sold by amount, not as plans: its prices are the service's markup per level`);
  if (spec.arg && !opts.identifier) throw bad('identifier', `name the ${service} provider (identifier) whose plans to list`);
  const ctx = deps.pricing.context(service);
  const provider = (await ctx.route(opts.network))[0];
  const entries = await ctx.upstream(() => ctx.catalogue(provider, spec.list, spec.arg ? opts.identifier : undefined), 'the catalogue');
  const list = entries.filter((e) => e.price !== null && (!opts.network || e.network === opts.network));
  return { provider, list, markup: await deps.markups.ruleFor(service, provider) };
}

type Rule = Awaited<ReturnType<Markups['ruleFor']>>;

/** Each level's price and margin of one plan under `rules` (the service's markup where a level has no rule). */
async function pricesOf(levels: Levels, rules: LevelRule[], markup: Rule, e: CatalogueEntry) {
  const w = e.price!;
  return (await levels.list()).map((l) => {
    const r = ruleOf(rules, l.id, planKey(e));
    const retail = r ? ruleRetail(r, w) : w + applyMarkup(markup, w);
    const own = r && r.level === l.id && r.plan === planKey(e) ? { kind: r.kind, value: ruleValue(r) } : null;
    return { level: l.id, name: l.name, price: toNaira(retail), margin: toNaira(retail - w), rule: own };
  });
}

/** A rule's value as operators write it: naira (flat, fixed) or percent. */
export const ruleValue = (r: Pick<LevelRule, 'kind' | 'value'>) => (r.kind === 'percent' ? Number(r.value) / 100 : toNaira(r.value));
/** A rule's value as stored: kobo (flat, fixed) or basis points (percent). */
export const storedValue = (kind: LevelRule['kind'], value: number) =>
  kind === 'percent' ? BigInt(Math.round(value * 100)) : toKobo(value);

/** adminCatalogue: the plans with wholesale, whether on sale, and each level's price and margin. */
export async function catalogue(deps: LevelAdminDeps, service: string, opts: { network?: string; identifier?: string }) {
  const { provider, list, markup } = await plansOf(deps, service, opts);
  const [rules, off] = await Promise.all([deps.levels.rulesOf(service), deps.levels.offPlans(service)]);
  const items = [];
  for (const e of list)
    items.push({
      plan: planKey(e),
      name: e.name,
      network: e.network ?? null,
      wholesale: toNaira(e.price!),
      enabled: !off.has(planKey(e)),
      prices: await pricesOf(deps.levels, rules, markup, e),
    });
  return { service, provider, levels: (await deps.levels.list()).map((l) => ({ id: l.id, name: l.name, rank: l.rank })), items };
}

/** adminPreviewPriceChange: each plan whose price at the level would change, before and after (a service sold by amount: ₦1,000). */
export async function preview(deps: LevelAdminDeps, s: Extract<PriceSetting, { change: 'price' }>, identifier?: string) {
  await checkPrice(deps, s);
  const rules = (await deps.levels.rulesOf(s.service)).filter((r) => !(r.level === s.level && r.plan === s.plan));
  const next = [...rules, { level: s.level, service: s.service, plan: s.plan, kind: s.rule, value: s.value }];
  const entries: CatalogueEntry[] = CATALOGUE_LISTS[s.service]
    ? (await plansOf(deps, s.service, { identifier })).list
    : [{ code: '', name: '₦1,000', price: 100_000n }];
  const markup = await deps.markups.ruleFor(s.service, (await deps.pricing.context(s.service).route())[0]);
  const old = await deps.levels.rulesOf(s.service);
  const changes = [];
  for (const e of entries) {
    if (s.plan && planKey(e) !== s.plan) continue;
    const at = (rs: LevelRule[]) => {
      const r = ruleOf(rs, s.level, planKey(e) || undefined);
      return r ? ruleRetail(r, e.price!) : e.price! + applyMarkup(markup, e.price!);
    };
    const before = at(old);
    const after = at(next);
    if (before !== after)
      changes.push({
        plan: planKey(e) || null,
        name: e.name,
        wholesale: toNaira(e.price!),
        before: toNaira(before),
        after: toNaira(after),
        margin: toNaira(after - e.price!),
      });
  }
  return { level: s.level, service: s.service, plan: s.plan || null, changes };
}

async function checkPrice(deps: LevelAdminDeps, s: Extract<PriceSetting, { change: 'price' }>) {
  kindNamed(s.service);
  await deps.levels.named(s.level);
  if (s.rule === 'fixed' && !s.plan) throw bad('plan', 'a fixed price is for one plan: name the plan');
  if (s.level === DEFAULT_LEVEL && !s.plan)
    throw bad('plan', "the default level's price of a whole service is its markup (adminSetMarkup); name a plan");
  if (s.rule === 'percent' && s.value > 10_000n) throw bad('value', 'a percent markup must be at most 100');
}

/** What a price setting is about (approvals' target): checked now, so a request that can never run is refused. */
export async function settingTarget(deps: LevelAdminDeps, s: PriceSetting) {
  if (s.change === 'price') {
    await checkPrice(deps, s);
    return { subjectType: 'vtu_level_price', subjectId: `${s.level}:${s.service}:${s.plan || '*'}`, userId: null };
  }
  if (s.change === 'grant') {
    await deps.levels.named(s.level);
    return { subjectType: 'user', subjectId: s.userId, userId: s.userId };
  }
  // A rank another level holds is a move: that level and those between make room when it runs (makeRoom).
  if (s.rank === 0 && s.level !== DEFAULT_LEVEL) throw bad('rank', 'rank 0 is the default level');
  if (s.rank !== 0 && s.level === DEFAULT_LEVEL) throw bad('rank', 'the default level keeps rank 0');
  const known = (await deps.levels.list()).some((l) => l.id === s.level);
  if (!known && !/^[a-z][a-z0-9_]{1,30}$/.test(s.level)) throw bad('level', 'a new level id is 2-31 lowercase letters, digits or _');
  return { subjectType: 'vtu_price_level', subjectId: s.level, userId: null };
}

/** Runs an approved price setting in the approving transaction (its claim first), then clears the cached prices. */
export async function applySetting(deps: LevelAdminDeps, actorId: string, s: PriceSetting, claim?: (tx: Tx) => Promise<void>) {
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    await claim?.(tx);
    if (s.change === 'level') await makeRoom(tx, s);
    if (s.change === 'price')
      await tx.execute(sql`INSERT INTO vtu_level_prices (level, service, plan, kind, value, updated_by, updated_at)
                           VALUES (${s.level}, ${s.service}, ${s.plan}, ${s.rule}, ${s.value}, ${actorId}, ${now})
                           ON CONFLICT (level, service, plan) DO UPDATE SET kind = EXCLUDED.kind, value = EXCLUDED.value,
                             updated_by = EXCLUDED.updated_by, updated_at = EXCLUDED.updated_at`);
    else if (s.change === 'level')
      // apiKeys null (not asked): a level keeps whether it allows live API keys; a new one does not.
      await tx.execute(sql`INSERT INTO vtu_price_levels (id, name, rank, upgrade_fee, api_keys, updated_by, updated_at)
                           VALUES (${s.level}, ${s.name}, ${s.rank}, ${s.upgradeFee}, coalesce(${s.apiKeys}::boolean, false), ${actorId}, ${now})
                           ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, rank = EXCLUDED.rank, upgrade_fee = EXCLUDED.upgrade_fee,
                             api_keys = coalesce(${s.apiKeys}::boolean, vtu_price_levels.api_keys),
                             updated_by = EXCLUDED.updated_by, updated_at = EXCLUDED.updated_at`);
    else
      await tx.execute(sql`INSERT INTO vtu_customer_levels (user_id, level, source, reference, updated_at)
                           VALUES (${s.userId}, ${s.level}, 'grant', ${actorId}, ${now})
                           ON CONFLICT (user_id) DO UPDATE SET level = EXCLUDED.level, source = 'grant', reference = EXCLUDED.reference,
                             updated_at = EXCLUDED.updated_at`);
  });
  deps.levels.clear();
  return settingPayload(s);
}

/**
 * Makes room for a level at its rank (ranks are unique): when another level holds it, the level moves there in one
 * approval and the levels between shift by one, in the approving transaction, the rows locked first. Moving up (or a
 * new level) pushes the levels from the rank up to the old one down the list (+1); moving down pulls those after the
 * old rank up to the new one (-1). A free rank moves nothing else. The rows to move go through negative ranks first,
 * so the unique index never sees two at one rank.
 */
async function makeRoom(tx: Tx, s: Extract<PriceSetting, { change: 'level' }>) {
  const list = await rows<{ id: string; rank: number }>(tx, sql`SELECT id, rank FROM vtu_price_levels ORDER BY rank FOR UPDATE`);
  if (!list.some((l) => l.id !== s.level && Number(l.rank) === s.rank)) return;
  const was = list.find((l) => l.id === s.level);
  const [lo, hi, by] =
    !was || s.rank < Number(was.rank) ? [s.rank, was ? Number(was.rank) - 1 : 2 ** 30, 1] : [Number(was.rank) + 1, s.rank, -1];
  await tx.execute(sql`UPDATE vtu_price_levels SET rank = -rank - 1 WHERE id = ${s.level} OR rank BETWEEN ${lo} AND ${hi}`);
  // The level itself takes its rank in the upsert that follows; the others land one step over.
  await tx.execute(sql`UPDATE vtu_price_levels SET rank = -rank - 1 + ${by}::int WHERE rank < 0 AND id <> ${s.level}`);
}

/** A setting as an approval request stores it (text values), and back. */
export function settingPayload(s: PriceSetting): Record<string, string> {
  if (s.change === 'price')
    return { change: s.change, level: s.level, service: s.service, plan: s.plan, rule: s.rule, value: String(s.value) };
  if (s.change === 'level')
    return {
      change: s.change,
      level: s.level,
      name: s.name,
      rank: String(s.rank),
      upgradeFee: s.upgradeFee === null ? '' : String(s.upgradeFee),
      apiKeys: s.apiKeys === null ? '' : String(s.apiKeys),
    };
  return { change: s.change, level: s.level, userId: s.userId };
}
export function settingOf(p: Record<string, string>): PriceSetting {
  if (p.change === 'price')
    return { change: 'price', level: p.level, service: p.service, plan: p.plan, rule: p.rule as LevelRule['kind'], value: BigInt(p.value) };
  if (p.change === 'level')
    return {
      change: 'level',
      level: p.level,
      name: p.name,
      rank: Number(p.rank),
      upgradeFee: p.upgradeFee ? BigInt(p.upgradeFee) : null,
      // Requests made before api_keys (migration 1251) keep the level's setting.
      apiKeys: p.apiKeys === 'true' ? true : p.apiKeys === 'false' ? false : null,
    };
  return { change: 'grant', level: p.level, userId: p.userId };
}

/** adminSetPlanEnabled: a plan switched off is not listed, quoted or sold; on again, it is. At once, audited by the operation. */
export async function setPlanEnabled(deps: LevelAdminDeps, actorId: string, i: { service: string; plan: string; enabled: boolean }) {
  if (!CATALOGUE_LISTS[i.service]) throw bad('service', `${i.service} is sold by amount, not as plans`);
  const was = !(await deps.levels.isOff(i.service, i.plan));
  if (i.enabled) await deps.db.execute(sql`DELETE FROM vtu_disabled_plans WHERE service = ${i.service} AND plan = ${i.plan}`);
  else
    await deps.db.execute(sql`INSERT INTO vtu_disabled_plans (service, plan, disabled_by, disabled_at)
                              VALUES (${i.service}, ${i.plan}, ${actorId}, ${deps.clock.now()}) ON CONFLICT DO NOTHING`);
  deps.levels.clear();
  return { service: i.service, plan: i.plan, enabled: i.enabled, was };
}
