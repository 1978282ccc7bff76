import { AppError } from '../../kernel/errors.js';
import { toKobo, toNaira } from '../../kernel/money.js';
import type { CatalogueEntry, ProviderId } from '../../providers/vtu/types.js';
import { kindNamed } from './kinds/index.js';
import { CATALOGUE_LISTS, type LevelAdminDeps } from './level-admin.js';
import { DEFAULT_LEVEL, planKey, ruleOf } from './levels.js';
import { applyMarkup, type Markup } from './markups.js';

/** A markup as an operator writes it (adminSetMarkup), and which plans to show (a network's, a cable provider's). */
export interface MarkupDraft {
  service: string;
  provider?: ProviderId;
  kind: 'flat' | 'percent';
  /** naira (flat) or percent. */
  value: number;
  network?: string;
  identifier?: string;
}

const bad = (path: string, message: string) => new AppError('VALIDATION_FAILED', message, { issues: [{ path, message }] });

/**
 * adminPreviewMarkup (issue 44): what a markup change would change before it is set: each plan's price at the
 * provider (the one named, else the first the service routes to), before and after, for the default level (and every
 * level without a price of its own); a plan whose default-level price is its own is left out. A service sold by amount
 * is shown at ₦1,000. Writes nothing.
 */
export async function previewMarkup(deps: LevelAdminDeps, m: MarkupDraft) {
  kindNamed(m.service);
  const ctx = deps.pricing.context(m.service);
  const provider = m.provider ?? (await ctx.route(m.network))[0];
  const spec = CATALOGUE_LISTS[m.service];
  if (spec?.arg && !m.identifier) throw bad('identifier', `name the ${m.service} provider (identifier) whose plans to show`);
  const entries: CatalogueEntry[] = spec
    ? (await ctx.upstream(() => ctx.catalogue(provider, spec.list, spec.arg ? m.identifier : undefined), 'the catalogue')).filter(
        (e) => e.price !== null && (!m.network || e.network === m.network),
      )
    : [{ code: '', name: '₦1,000', price: 100_000n }];
  const rows = (await deps.markups.list()).filter((x) => x.service === m.service);
  const own = rows.find((x) => x.provider === provider);
  const before: Pick<Markup, 'kind' | 'value'> | undefined = own ?? rows.find((x) => x.provider === null);
  const next = { kind: m.kind, value: m.kind === 'flat' ? toKobo(m.value) : BigInt(Math.round(m.value * 100)) };
  // A service-wide markup does not reach a provider with a row of its own.
  const after = m.provider || !own ? next : own;
  const rules = await deps.levels.rulesOf(m.service);
  const changes = [];
  for (const e of entries) {
    if (spec && ruleOf(rules, DEFAULT_LEVEL, planKey(e))) continue;
    const w = e.price!;
    const was = w + applyMarkup(before, w);
    const will = w + applyMarkup(after, w);
    if (was !== will)
      changes.push({
        plan: planKey(e) || null,
        name: e.name,
        network: e.network ?? null,
        wholesale: toNaira(w),
        before: toNaira(was),
        after: toNaira(will),
      });
  }
  return { service: m.service, provider, changes };
}
