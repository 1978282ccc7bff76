import { sql } from 'drizzle-orm';
import type { beneficiaries } from './schema.js';
import type { Narrowed, RowOf } from '../../db/rows.js';
import { one, rows, type Db, type Executor } from '../../db/client.js';
import type { Change } from '../../platform/change.js';
import { AppError, notFound } from '../../kernel/errors.js';
import type { Clock } from '../../kernel/clock.js';
import { uuid } from '../../kernel/ids.js';
import { networkOf } from '../../kernel/phone.js';
import { lockUser, verifiedPhoneOf } from '../identity/api.js';

/**
 * Saved beneficiaries (issue 29): per customer, the recipients they buy for or send to again, each with a label,
 * and "my number" (the customer's own verified phone) offered first. Saving a recipient that is already saved
 * (same kind, provider and number) renames it instead of adding a second row, so "save after a purchase" can be
 * sent every time. At most MAX_BENEFICIARIES per customer, counted under the user's row lock.
 */
export const MAX_BENEFICIARIES = 50;
export const BENEFICIARY_KINDS = ['phone', 'smartcard', 'meter', 'betting', 'wallet'] as const;
export type BeneficiaryKind = (typeof BENEFICIARY_KINDS)[number];
export const MY_NUMBER_LABEL = 'My number';

export interface BeneficiaryInput {
  kind: BeneficiaryKind;
  label: string;
  recipient: string;
  provider: string | null;
  meterType: 'prepaid' | 'postpaid' | null;
}

type Row = Narrowed<
  Pick<RowOf<typeof beneficiaries>, 'id' | 'kind' | 'label' | 'recipient' | 'provider' | 'meter_type' | 'created_at' | 'updated_at'>,
  { kind: BeneficiaryKind; meter_type: 'prepaid' | 'postpaid' | null }
>;

const COLS = sql.raw(`id::text AS id, kind, label, recipient, provider, meter_type, created_at, updated_at`);

export interface BeneficiaryView {
  id: string | null;
  kind: BeneficiaryKind;
  label: string;
  recipient: string;
  provider: string | null;
  meterType: 'prepaid' | 'postpaid' | null;
  ownNumber: boolean;
  createdAt: string | null;
  updatedAt: string | null;
}

const view = (r: Row, ownPhone: string | null): BeneficiaryView => ({
  id: r.id,
  kind: r.kind,
  label: r.label,
  recipient: r.recipient,
  provider: r.provider,
  meterType: r.meter_type,
  ownNumber: r.kind === 'phone' && r.recipient === ownPhone,
  createdAt: new Date(r.created_at).toISOString(),
  updatedAt: new Date(r.updated_at).toISOString(),
});

export type BeneficiaryService = ReturnType<typeof createBeneficiaryService>;

export function createBeneficiaryService({ db, clock }: { db: Db; clock: Clock }) {
  const verifiedPhone = (exec: Executor, userId: string) => verifiedPhoneOf(exec, userId);

  return {
    /**
     * Newest first, the customer's own verified phone first of all: the saved entry when they saved it, otherwise
     * an unsaved entry (id null, network from the prefix map) so the app can offer "my number" without a save.
     */
    async list(userId: string, kind?: BeneficiaryKind) {
      const [saved, phone] = await Promise.all([
        rows<Row>(
          db,
          sql`SELECT ${COLS} FROM beneficiaries WHERE user_id = ${userId} ${kind ? sql`AND kind = ${kind}` : sql``}
              ORDER BY seq DESC LIMIT ${MAX_BENEFICIARIES}`,
        ),
        !kind || kind === 'phone' ? verifiedPhone(db, userId) : Promise.resolve(null),
      ]);
      const items = saved.map((r) => view(r, phone));
      const mine = items.findIndex((b) => b.ownNumber);
      if (mine >= 0) items.unshift(...items.splice(mine, 1));
      else if (phone) {
        items.unshift({
          id: null,
          kind: 'phone',
          label: MY_NUMBER_LABEL,
          recipient: phone,
          provider: networkOf(phone),
          meterType: null,
          ownNumber: true,
          createdAt: null,
          updatedAt: null,
        });
      }
      return { items, max: MAX_BENEFICIARIES };
    },

    async save(userId: string, input: BeneficiaryInput) {
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
        const phone = input.kind === 'phone' ? await verifiedPhone(tx, userId) : null;
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
    },

    async rename(userId: string, id: string, label: string) {
      const r = await one<Row>(
        db,
        sql`UPDATE beneficiaries SET label = ${label}, updated_at = ${clock.now()} WHERE id = ${id} AND user_id = ${userId} RETURNING ${COLS}`,
      );
      if (!r) throw notFound('Beneficiary');
      return { beneficiary: view(r, r.kind === 'phone' ? await verifiedPhone(db, userId) : null) };
    },

    async remove(userId: string, id: string) {
      const r = await one(db, sql`DELETE FROM beneficiaries WHERE id = ${id} AND user_id = ${userId} RETURNING id`);
      if (!r) throw notFound('Beneficiary');
      return { deleted: true };
    },

    /** account.closed: saved numbers are personal data with no money record to keep. */
    /** account.closed: the user's saved numbers go with the closure's statement. */
    forgetOnClosure(change: Change, userId: string): void {
      change.write((each) => sql`DELETE FROM beneficiaries WHERE user_id = ${userId}::uuid AND EXISTS (SELECT 1 FROM ${each})`);
    },
  };
}
