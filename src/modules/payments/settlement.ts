import { sql, type SQL } from 'drizzle-orm';
import { one, type Db, type Executor } from '../../db/client.js';
import type { Posted } from '../../ledger/ledger.js';
import type { Clock } from '../../kernel/clock.js';
import type { Change, Work } from '../../platform/change.js';
import { faultPoint } from '../../lib/faults.js';
import { uuid } from '../../kernel/ids.js';
import type { Logger } from '../../lib/logger.js';
import { formatNaira, toNaira } from '../../kernel/money.js';
import type { WalletLimits } from '../wallet/api.js';
import type { SettleInput } from './model.js';

/**
 * Crediting a charge, exactly once per processor reference: the ledger posting (reference
 * `payin:<processor>:<reference>`) carries the settlement row, the intent's and event's outcome, the cap flag and
 * the notification on its own statement.
 */
/**
 * The balance cap of a tier given as an SQL expression (NULL: no cap), from the wallet limits' figures: a credit's cap
 * flag is decided in its own statement, with the posting.
 */
export function balanceCapSql(caps: ReturnType<WalletLimits['balanceCaps']>, tier: SQL): SQL {
  const when = [...caps.byTier].map(([t, cap]) => sql`WHEN ${t}::int THEN ${cap}::bigint`);
  return sql`(CASE ${tier} ${sql.join(when, sql` `)} ELSE ${caps.otherwise}::bigint END)`;
}

/** What crediting a charge uses. */
export interface SettlementDeps {
  db: Db;
  clock: Clock;
  work: Work;
  walletLimits: WalletLimits;
  log: Logger;
}

/** Credits a charge once per processor reference: settleCharge in a transaction, settleChargeAlone in its own statement. */
export function createSettlement(deps: SettlementDeps) {
  return {
    settleCharge: (exec: Executor, s: SettleInput, event?: { id: string; outcome: string }) => settleCharge(deps, exec, s, event),
    settleChargeAlone: (s: SettleInput, event: { id: string; outcome: string }) => settleCharge(deps, deps.db, s, event),
  };
}

const capOf = ({ walletLimits }: SettlementDeps, tier: SQL) => balanceCapSql(walletLimits.balanceCaps(), tier);

/** A credit's ledger reference: unique, so each processor reference is credited at most once. */
const ledgerRefOf = (s: SettleInput) => `payin:${s.processor}:${s.reference}`;

/**
 * The credit as one change: the money and, written exactly when it posts, the settlement row, the intent's success,
 * the event's outcome, a wallet flag when the balance after passes the owner's KYC tier cap at that moment
 * (docs/design.md §6: money that arrived is never dropped; passing the cap only flags the wallet for an operator),
 * the owner's notification and the 'wallet.credited' event.
 */
function chargeChange(deps: SettlementDeps, change: Change, s: SettleInput, event?: { id: string; outcome: string }): Change {
  const ledgerRef = ledgerRefOf(s);
  return change
    .post(
      {
        reference: ledgerRef,
        type: s.kind === 'dva' ? 'dva_credit' : 'topup',
        description: s.kind === 'dva' ? 'Transfer into your dedicated account' : 'Wallet top-up',
        entries: [
          { account: { user: s.userId, kind: 'wallet' }, amount: s.amount },
          { account: { system: 'collections' }, amount: -s.amount },
        ],
        metadata: { processor: s.processor, reference: s.reference, source: s.source, channel: s.channel },
      },
      { ifPosted: 'skip' },
    )
    .write((posted) => settlementRows(deps, posted, s, event))
    .notify({
      userId: s.userId,
      kind: 'topup_credited',
      title: 'Wallet funded',
      body: `${formatNaira(s.amount)} was added to your wallet.`,
      data: { reference: s.reference, amount: toNaira(s.amount), source: s.kind },
    })
    .emit('wallet.credited', creditedEvent(s));
}

/** The settlement row, the cap flag, the intent's success and the event's outcome, over the posted row. */
function settlementRows(deps: SettlementDeps, posted: SQL, s: SettleInput, event?: { id: string; outcome: string }): SQL {
  const now = deps.clock.now();
  const ledgerRef = ledgerRefOf(s);
  const wallet = `user:${s.userId}:wallet`;
  const writes = [
    sql`c AS (
          SELECT (each.balances ->> ${wallet}::text)::bigint AS balance_after, o.kyc_tier, ${capOf(deps, sql`o.kyc_tier`)} AS cap
          FROM ${posted}, (SELECT COALESCE((SELECT kyc_tier FROM users WHERE id = ${s.userId}::uuid), 0) AS kyc_tier) o)`,
    sql`s AS (
          INSERT INTO payment_settlements (id, processor, processor_reference, user_id, intent_id, kind, amount, channel, source, ledger_reference, over_cap, paid_at, created_at)
          SELECT ${uuid()}::uuid, ${s.processor}::text, ${s.reference}::text, ${s.userId}::uuid, ${s.intentId}::uuid, ${s.kind}::text, ${s.amount}::bigint, ${s.channel}::text,
                 ${s.source}::text, ${ledgerRef}::text, COALESCE(c.balance_after > c.cap, false), ${s.paidAt}::timestamptz, ${now}::timestamptz
          FROM c)`,
    sql`f AS (
          INSERT INTO wallet_flags (id, user_id, kind, reference, details, created_at)
          SELECT ${uuid()}::uuid, ${s.userId}::uuid, 'balance_cap_exceeded', ${ledgerRef}::text,
                 jsonb_build_object('balanceAfter', round(c.balance_after / 100.0, 2), 'cap', round(c.cap / 100.0, 2), 'tier', c.kyc_tier), ${now}::timestamptz
          FROM c WHERE c.balance_after > c.cap
          ON CONFLICT (kind, reference) DO NOTHING)`,
  ];
  if (s.intentId) {
    writes.push(sql`i AS (
          UPDATE topup_intents SET status = 'success', amount_paid = ${s.amount}::bigint, channel = ${s.channel}::text, paid_at = ${s.paidAt ?? now}::timestamptz,
                 settled_at = ${now}::timestamptz, failure_reason = NULL, updated_at = ${now}::timestamptz
          FROM ${posted} WHERE topup_intents.id = ${s.intentId}::uuid)`);
  }
  if (event) {
    writes.push(sql`e AS (
          UPDATE processor_events SET status = 'credited', outcome = ${event.outcome}::text, processed_at = ${now}::timestamptz
          FROM ${posted} WHERE processor_events.id = ${event.id}::uuid)`);
  }
  return sql`WITH ${sql.join(writes, sql`, `)} SELECT 1`;
}

const creditedEvent = (s: SettleInput) =>
  ({ userId: s.userId, amount: s.amount, source: s.kind === 'dva' ? 'dva' : 'topup', reference: ledgerRefOf(s) }) as const;

/**
 * Logs a credit whose settlement part flagged the wallet, for operators; the flag is looked up only when the balance after
 * could pass some tier's cap.
 */
async function logIfFlagged({ walletLimits, log }: SettlementDeps, exec: Executor, s: SettleInput, posted: Posted): Promise<void> {
  const lowest = walletLimits.lowestBalanceCap();
  if (lowest === null || posted.balances[`user:${s.userId}:wallet`] <= lowest) return;
  const reference = ledgerRefOf(s);
  if (await one(exec, sql`SELECT 1 AS x FROM wallet_flags WHERE kind = 'balance_cap_exceeded' AND reference = ${reference}`)) {
    log.warn({ userId: s.userId, reference }, 'credit passed the tier balance cap; wallet flagged for an operator');
  }
}

/**
 * Credits the wallet once per processor reference (a posted ledger reference credits nothing): in the caller's
 * transaction `exec`, or, given the database, as ONE autocommit statement with everything it writes (the webhook's
 * credit job: credits must drain faster than webhooks arrive). `event` (the webhook job) is marked credited with that
 * outcome when the money posts; when nothing is credited the caller marks it. True when this call credited.
 */
export async function settleCharge(
  deps: SettlementDeps,
  exec: Executor,
  s: SettleInput,
  event?: { id: string; outcome: string },
): Promise<boolean> {
  faultPoint('payments.credit.beforeCommit');
  const { posted } = await chargeChange(deps, deps.work.change(exec), s, event).commit();
  if (!posted) return false;
  await logIfFlagged(deps, exec, s, posted);
  return true;
}

export type Settlement = ReturnType<typeof createSettlement>;
