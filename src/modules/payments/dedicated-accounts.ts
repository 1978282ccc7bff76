import { sql } from 'drizzle-orm';
import { one, type Db, type Executor, type Tx } from '../../db/client.js';
import { AppError, notFound } from '../../kernel/errors.js';
import type { Clock } from '../../kernel/clock.js';
import type { ChargeEvent, ProcessorRegistry } from '../../providers/processor.js';
import { profileOf } from '../identity/api.js';
import { iso, type SettleInput } from './model.js';

/** What the dedicated accounts use. */
export interface DedicatedAccountsDeps {
  db: Db;
  clock: Clock;
  processors: ProcessorRegistry;
  settleCharge: (tx: Tx, s: SettleInput) => Promise<boolean>;
}

/** Dedicated virtual accounts (Tier 2+): created at the processor once per user; transfers into them credit the owner. */
export function createDedicatedAccounts(deps: DedicatedAccountsDeps) {
  return {
    dedicatedAccountOf,
    dvaView,
    ensureDedicatedAccount: (userId: string) => ensureDedicatedAccount(deps, userId),
    creditDedicatedAccount: (
      processorId: string,
      c: ChargeEvent,
      source: SettleInput['source'],
      alsoInTx?: (tx: Tx, credited: boolean) => Promise<void>,
    ) => creditDedicatedAccount(deps, processorId, c, source, alsoInTx),
  };
}

export type DedicatedAccounts = ReturnType<typeof createDedicatedAccounts>;

/** The user's dedicated account row, if any. */
export async function dedicatedAccountOf(exec: Executor, userId: string) {
  return one<{ processor: string; account_number: string; account_name: string; bank_name: string; created_at: Date }>(
    exec,
    sql`SELECT processor, account_number, account_name, bank_name, created_at FROM dedicated_accounts WHERE user_id = ${userId}`,
  );
}

/** A dedicated account as the API shows it. */
export const dvaView = (r: { account_number: string; account_name: string; bank_name: string; processor: string; created_at: Date }) => ({
  accountNumber: r.account_number,
  accountName: r.account_name,
  bankName: r.bank_name,
  processor: r.processor,
  createdAt: iso(r.created_at)!,
});

/** The user's dedicated account, created at the default processor when there is none yet. */
export async function ensureDedicatedAccount({ db, clock, processors }: DedicatedAccountsDeps, userId: string) {
  const existing = await dedicatedAccountOf(db, userId);
  if (existing) return dvaView(existing);
  const u = await profileOf(db, userId);
  if (!u || u.status !== 'active') throw notFound('User');
  const names = (u.fullName ?? u.username ?? u.email.split('@')[0]).trim().split(/\s+/);
  const adapter = processors.default;
  // The processor answers the same customer's account again on a repeat call, so a retry or a race is safe:
  // the primary key on user_id keeps one row. No conflict target: two racing calls insert the same account
  // number too, and PostgreSQL raises a unique violation on a non-arbiter index instead of doing nothing.
  const acc = await adapter.createDedicatedAccount({
    email: u.email,
    firstName: names[0],
    lastName: names.slice(1).join(' ') || names[0],
    phone: u.phone,
  });
  await db.execute(sql`INSERT INTO dedicated_accounts (user_id, processor, customer_code, account_number, account_name, bank_name, provider_id, created_at)
      VALUES (${userId}, ${adapter.id}, ${acc.customerCode}, ${acc.accountNumber}, ${acc.accountName}, ${acc.bankName}, ${acc.providerId}, ${clock.now()})
      ON CONFLICT DO NOTHING`);
  const row = await dedicatedAccountOf(db, userId);
  // Only a processor handing one account number to two customers leaves no row for this user.
  if (!row)
    throw new AppError('UPSTREAM_ERROR', `The payment processor answered account ${acc.accountNumber}, which belongs to another customer`);
  return dvaView(row);
}

/** A transfer into a dedicated account (channel dedicated_nuban) credits the account's owner, once. */
export async function creditDedicatedAccount(
  { db, settleCharge }: DedicatedAccountsDeps,
  processorId: string,
  c: ChargeEvent,
  source: SettleInput['source'],
  alsoInTx?: (tx: Tx, credited: boolean) => Promise<void>,
): Promise<'credited' | 'duplicate' | 'unmatched'> {
  if (!c.reference || c.amount === null || c.amount <= 0n) return 'unmatched';
  const dva = await one<{ user_id: string }>(
    db,
    sql`SELECT user_id FROM dedicated_accounts WHERE processor = ${processorId}
          AND (account_number = ${c.receiverAccountNumber ?? ''} OR customer_code = ${c.customerCode ?? ''})
        ORDER BY (account_number = ${c.receiverAccountNumber ?? ''}) DESC LIMIT 1`,
  );
  if (!dva) return 'unmatched';
  const reference = c.reference;
  const amount = c.amount;
  return db.transaction(async (tx) => {
    const credited = await settleCharge(tx, {
      processor: processorId,
      reference,
      userId: dva.user_id,
      intentId: null,
      kind: 'dva',
      amount,
      channel: c.channel,
      paidAt: c.paidAt,
      source,
    });
    if (alsoInTx) await alsoInTx(tx, credited);
    return credited ? 'credited' : 'duplicate';
  });
}
