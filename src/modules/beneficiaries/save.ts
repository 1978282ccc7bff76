import { sql } from 'drizzle-orm';
import { one } from '../../db/client.js';
import { AppError, notFound } from '../../kernel/errors.js';
import { uuid } from '../../kernel/ids.js';
import { lockUser, verifiedPhoneOf } from '../identity/api.js';
import { COLS, MAX_BENEFICIARIES, view, type BeneficiaryDeps, type BeneficiaryInput, type Row } from './model.js';

/** save: a new beneficiary (at most MAX_BENEFICIARIES), or the saved one of the same recipient renamed. */
export async function save({ db, clock }: BeneficiaryDeps, userId: string, input: BeneficiaryInput) {
  const now = clock.now();
  return db.transaction(async (tx) => {
    // The cap is counted under the user's row lock so parallel saves cannot pass it.
    await lockUser(tx, userId);
    const updated = await one<Row>(
      tx,
      sql`UPDATE beneficiaries SET label = ${input.label}, meter_type = ${input.meterType}, updated_at = ${now}
          WHERE user_id = ${userId} AND kind = ${input.kind} AND provider IS NOT DISTINCT FROM ${input.provider}
            AND recipient = ${input.recipient}
          RETURNING ${COLS}`,
    );
    const phone = input.kind === 'phone' ? await verifiedPhoneOf(tx, userId) : null;
    if (updated) return { beneficiary: view(updated, phone), created: false };
    const count = await one<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM beneficiaries WHERE user_id = ${userId}`);
    if ((count?.n ?? 0) >= MAX_BENEFICIARIES)
      throw new AppError('CONFLICT', `You can save at most ${MAX_BENEFICIARIES} beneficiaries; delete one first`);
    const created = await one<Row>(
      tx,
      sql`INSERT INTO beneficiaries (id, user_id, kind, label, recipient, provider, meter_type, created_at, updated_at)
          VALUES (${uuid()}, ${userId}, ${input.kind}, ${input.label}, ${input.recipient}, ${input.provider}, ${input.meterType}, ${now}, ${now})
          RETURNING ${COLS}`,
    );
    return { beneficiary: view(created!, phone), created: true };
  });
}

/** rename: a saved beneficiary's new label. */
export async function rename({ db, clock }: BeneficiaryDeps, userId: string, id: string, label: string) {
  const r = await one<Row>(
    db,
    sql`UPDATE beneficiaries SET label = ${label}, updated_at = ${clock.now()} WHERE id = ${id} AND user_id = ${userId} RETURNING ${COLS}`,
  );
  if (!r) throw notFound('Beneficiary');
  return { beneficiary: view(r, r.kind === 'phone' ? await verifiedPhoneOf(db, userId) : null) };
}

/** remove: a saved beneficiary deleted. */
export async function remove({ db }: BeneficiaryDeps, userId: string, id: string) {
  const r = await one(db, sql`DELETE FROM beneficiaries WHERE id = ${id} AND user_id = ${userId} RETURNING id`);
  if (!r) throw notFound('Beneficiary');
  return { deleted: true };
}
