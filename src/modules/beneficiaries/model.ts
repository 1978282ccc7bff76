import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import type { Narrowed, RowOf } from '../../db/rows.js';
import type { Clock } from '../../kernel/clock.js';
import type { beneficiaries } from './schema.js';

/** What the beneficiaries' use cases use. */
export interface BeneficiaryDeps {
  db: Db;
  clock: Clock;
}

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

/** A beneficiaries row as COLS reads it. */
export type Row = Narrowed<
  Pick<RowOf<typeof beneficiaries>, 'id' | 'kind' | 'label' | 'recipient' | 'provider' | 'meter_type' | 'created_at' | 'updated_at'>,
  { kind: BeneficiaryKind; meter_type: 'prepaid' | 'postpaid' | null }
>;

/** The columns a beneficiary is read with (Row). */
export const COLS = sql.raw(`id::text AS id, kind, label, recipient, provider, meter_type, created_at, updated_at`);

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

/** A beneficiary as the API shows it; `ownPhone` marks the customer's own number. */
export const view = (r: Row, ownPhone: string | null): BeneficiaryView => ({
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
