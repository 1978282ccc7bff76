import { sql } from 'drizzle-orm';
import { rows } from '../../db/client.js';
import { networkOf } from '../../kernel/phone.js';
import { verifiedPhoneOf } from '../identity/api.js';
import { COLS, MAX_BENEFICIARIES, MY_NUMBER_LABEL, view, type BeneficiaryDeps, type BeneficiaryKind, type Row } from './model.js';

/**
 * Newest first, the customer's own verified phone first of all: the saved entry when they saved it, otherwise
 * an unsaved entry (id null, network from the prefix map) so the app can offer "my number" without a save.
 */
export async function list({ db }: BeneficiaryDeps, userId: string, kind?: BeneficiaryKind) {
  const [saved, phone] = await Promise.all([
    rows<Row>(
      db,
      sql`SELECT ${COLS} FROM beneficiaries WHERE user_id = ${userId} ${kind ? sql`AND kind = ${kind}` : sql``}
          ORDER BY seq DESC LIMIT ${MAX_BENEFICIARIES}`,
    ),
    !kind || kind === 'phone' ? verifiedPhoneOf(db, userId) : Promise.resolve(null),
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
}
