import { sql } from 'drizzle-orm';
import { one, rows, type Db, type Tx } from '../../db/client.js';
import type { Clock } from '../../kernel/clock.js';
import { notFound } from '../../kernel/errors.js';
import { formatNaira, toKobo, toNaira } from '../../kernel/money.js';
import type { Work } from '../../platform/change.js';
import { iso } from './accounts.js';
import type { GrowthSettings, GrowthSettingsStore } from './settings.js';

const rewardedCount = async (exec: Db | Tx, referrerId: string) =>
  (await one<{ n: number }>(exec, sql`SELECT COUNT(*)::int AS n FROM referrals WHERE referrer_id = ${referrerId} AND status = 'rewarded'`))
    ?.n ?? 0;

/** The milestones the referrer's rewarded invitees reached, each bonus (locked) and notice once. */
export async function awardMilestones(deps: { clock: Clock; work: Work }, tx: Tx, referrerId: string, s: GrowthSettings): Promise<void> {
  const count = await rewardedCount(tx, referrerId);
  for (const m of [...s.milestones].sort((a, b) => a.threshold - b.threshold)) {
    if (m.threshold > count) break;
    const bonus = toKobo(m.bonus);
    const ins = await one(
      tx,
      sql`INSERT INTO referral_milestones (user_id, threshold, bonus_kobo, reached_at) VALUES (${referrerId}, ${m.threshold}, ${bonus}, ${deps.clock.now()})
          ON CONFLICT DO NOTHING RETURNING threshold`,
    );
    if (!ins) continue;
    await deps.work
      .change(tx)
      .post({
        reference: `rfm_${referrerId}_${m.threshold}`,
        type: 'referral_milestone',
        description: `Referral milestone: ${m.threshold} invitees`,
        entries: [
          { account: { user: referrerId, kind: 'referral_locked' }, amount: bonus },
          { account: { system: 'bonus_expense' }, amount: -bonus },
        ],
      })
      .notify({
        userId: referrerId,
        kind: 'general',
        title: 'Referral milestone reached',
        body: `${m.threshold} friends joined and bought through your code: ${formatNaira(bonus)} added to your referral bonus.`,
        data: { threshold: m.threshold, event: 'referral_milestone', amount: toNaira(bonus) },
      })
      .commit();
  }
}

/** getPendingMilestones: milestones reached and not yet acknowledged, and the next one. */
export async function getPendingMilestones(deps: { db: Db; settings: GrowthSettingsStore }, userId: string) {
  const s = await deps.settings.get();
  const list = await rows<{ threshold: number; bonus_kobo: string; reached_at: Date }>(
    deps.db,
    sql`SELECT threshold, bonus_kobo::text AS bonus_kobo, reached_at FROM referral_milestones
        WHERE user_id = ${userId} AND acknowledged_at IS NULL ORDER BY threshold`,
  );
  const count = await rewardedCount(deps.db, userId);
  const next = [...s.milestones].sort((a, b) => a.threshold - b.threshold).find((m) => m.threshold > count);
  return {
    items: list.map((m) => ({ threshold: m.threshold, bonus: toNaira(m.bonus_kobo), reachedAt: iso(m.reached_at)! })),
    rewardedInvitees: count,
    next: next ? { threshold: next.threshold, bonus: next.bonus, remaining: next.threshold - count } : null,
  };
}

/** ackMilestone: the app showed the milestone; acknowledging twice is harmless. */
export async function ackMilestone(deps: { db: Db; clock: Clock }, userId: string, threshold: number) {
  const { db } = deps;
  const upd = await one<{ acknowledged_at: Date }>(
    db,
    sql`UPDATE referral_milestones SET acknowledged_at = ${deps.clock.now()} WHERE user_id = ${userId} AND threshold = ${threshold} AND acknowledged_at IS NULL
        RETURNING acknowledged_at`,
  );
  if (upd) return { threshold, acknowledgedAt: iso(upd.acknowledged_at)! };
  // Acknowledging twice is harmless (a retried tap); a milestone not reached is not found.
  const done = await one<{ acknowledged_at: Date }>(
    db,
    sql`SELECT acknowledged_at FROM referral_milestones WHERE user_id = ${userId} AND threshold = ${threshold}`,
  );
  if (!done) throw notFound('Milestone');
  return { threshold, acknowledgedAt: iso(done.acknowledged_at)! };
}
