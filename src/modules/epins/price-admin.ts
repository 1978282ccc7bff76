import { sql } from 'drizzle-orm';
import { rows, type Tx } from '../../db/client.js';
import { AppError } from '../../kernel/errors.js';
import { toKobo, toNaira } from '../../kernel/money.js';
import type { EpinsDeps } from './deps.js';
import { EPIN_DENOMINATIONS, EPIN_NETWORKS } from './inputs.js';
import { cardPrice, type EpinPricing } from './pricing.js';

/**
 * The console's side of the e-PIN prices (issue 45): epins owns epin_level_prices, a level's discount off the face
 * value (basis points; a level without a row does not buy e-PINs). The console lists them beside the plans
 * (adminCatalogue, service `epin`), previews a change (adminPreviewPriceChange) and asks for one through four-eyes
 * (approvals' `price_setting`, change `epin`): approvals asks this module what it is about and runs it once approved.
 * A card never sells below what the seller charges for it (cardPrice), however large the discount.
 */
export type EpinPriceSetting = { change: 'epin'; level: string; discount: number };

/** What approvals asks of the epins module about an e-PIN price (its service's calls of the same names). */
export interface EpinPriceApprovals {
  adminPriceSettingTarget(s: EpinPriceSetting): Promise<{ subjectType: string; subjectId: string; userId: null }>;
  adminApplyPriceSetting(s: EpinPriceSetting, claim?: (tx: Tx) => Promise<void>): Promise<Record<string, string>>;
}

/** The largest discount the table takes (its CHECK): 50 % off the face value. */
export const EPIN_MAX_DISCOUNT = 5000;

type AdminDeps = Pick<EpinsDeps, 'db' | 'clock' | 'levels'> & { pricing: EpinPricing };

const bad = (path: string, message: string) => new AppError('VALIDATION_FAILED', message, { issues: [{ path, message }] });

/** Each level's discount (basis points), by level id. */
async function discounts(deps: Pick<EpinsDeps, 'db'>): Promise<Map<string, number>> {
  const list = await rows<{ level: string; discount: number }>(deps.db, sql`SELECT level, discount FROM epin_level_prices`);
  return new Map(list.map((r) => [r.level, Number(r.discount)]));
}

/** The cards on sale: each network's face values the seller prices, with its price (kobo). */
async function cards(deps: AdminDeps) {
  const prices = await deps.pricing.wholesale();
  const out: { plan: string; name: string; network: string; face: bigint; wholesale: bigint }[] = [];
  for (const network of EPIN_NETWORKS)
    for (const d of EPIN_DENOMINATIONS) {
      const w = prices.get(`${network}:${d}`);
      if (w !== undefined)
        out.push({
          plan: `${network}:${d}`,
          name: `${network.toUpperCase()} ₦${d.toLocaleString('en-NG')}`,
          network,
          face: toKobo(d),
          wholesale: w,
        });
    }
  return out;
}

/** adminCatalogue for e-PINs: each card with the seller's price and each level's price and margin (levels that buy them). */
export async function epinCatalogue(deps: AdminDeps) {
  const [levels, rules, list] = await Promise.all([deps.levels.list(), discounts(deps), cards(deps)]);
  return {
    service: 'epin',
    provider: 'epins',
    levels: levels.map((l) => ({ id: l.id, name: l.name, rank: l.rank })),
    items: list.map((c) => ({
      plan: c.plan,
      name: c.name,
      network: c.network,
      wholesale: toNaira(c.wholesale),
      enabled: true,
      prices: levels.flatMap((l) => {
        const d = rules.get(l.id);
        if (d === undefined) return [];
        const price = cardPrice(c.face, d, c.wholesale);
        return [
          {
            level: l.id,
            name: l.name,
            price: toNaira(price),
            margin: toNaira(price - c.wholesale),
            rule: { kind: 'discount' as const, value: d / 100 },
          },
        ];
      }),
    })),
  };
}

/** What an e-PIN price setting is about (approvals' target): checked now, so a request that can never run is refused. */
export async function epinSettingTarget(deps: Pick<EpinsDeps, 'levels'>, s: EpinPriceSetting) {
  await deps.levels.named(s.level);
  if (!Number.isInteger(s.discount) || s.discount < 0 || s.discount > EPIN_MAX_DISCOUNT)
    throw bad('value', 'an e-PIN discount must be between 0 and 50 (percent off the face value)');
  return { subjectType: 'epin_level_price', subjectId: s.level, userId: null };
}

/** adminPreviewPriceChange for e-PINs: each card whose price at the level would change (before null: not sold to it now). */
export async function epinPreview(deps: AdminDeps, s: EpinPriceSetting) {
  await epinSettingTarget(deps, s);
  const [rules, list] = await Promise.all([discounts(deps), cards(deps)]);
  const old = rules.get(s.level);
  const changes = [];
  for (const c of list) {
    const before = old === undefined ? null : cardPrice(c.face, old, c.wholesale);
    const after = cardPrice(c.face, s.discount, c.wholesale);
    if (before !== after)
      changes.push({
        plan: c.plan,
        name: c.name,
        wholesale: toNaira(c.wholesale),
        before: before === null ? null : toNaira(before),
        after: toNaira(after),
        margin: toNaira(after - c.wholesale),
      });
  }
  return { level: s.level, service: 'epin', plan: null, changes };
}

/** Runs an approved e-PIN price setting in the approving transaction (its claim first). The next purchase pays it. */
export async function applyEpinSetting(deps: Pick<EpinsDeps, 'db' | 'clock'>, s: EpinPriceSetting, claim?: (tx: Tx) => Promise<void>) {
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    await claim?.(tx);
    await tx.execute(sql`INSERT INTO epin_level_prices (level, discount, updated_at) VALUES (${s.level}, ${s.discount}, ${now})
                         ON CONFLICT (level) DO UPDATE SET discount = EXCLUDED.discount, updated_at = EXCLUDED.updated_at`);
  });
  return epinSettingPayload(s);
}

/** An e-PIN price setting as an approval request stores it (text values), and back. */
export const epinSettingPayload = (s: EpinPriceSetting): Record<string, string> => ({
  change: s.change,
  level: s.level,
  discount: String(s.discount),
});
export const epinSettingOf = (p: Record<string, string>): EpinPriceSetting => ({
  change: 'epin',
  level: p.level,
  discount: Number(p.discount),
});
