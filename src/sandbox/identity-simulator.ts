import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { one, type Db } from '../db/client.js';
import type { Clock } from '../kernel/clock.js';
import { normalizePhone } from '../kernel/phone.js';
import { bankByCode, isValidNuban, type IdentityProvider } from '../providers/identity.js';
import { parseInput } from '../kernel/errors.js';

/**
 * Sandbox NIN and bank name-enquiry simulators (docs/design.md §8). Their records live in the database, so every
 * instance answers the same. Unregistered NINs and accounts are "not found", as upstream would answer.
 */
export function createSimulatedIdentityProvider({ db }: { db: Db; clock: Clock }): IdentityProvider {
  return {
    async lookupNin(nin) {
      const r = await one<{ first_name: string; middle_name: string | null; last_name: string; phone: string; date_of_birth: string }>(
        db,
        sql`SELECT first_name, middle_name, last_name, phone, date_of_birth FROM sandbox_nin_records WHERE nin = ${nin}`,
      );
      if (!r) return { found: false, payload: { status: 'not_found' } };
      const record = {
        firstName: r.first_name,
        middleName: r.middle_name,
        lastName: r.last_name,
        phone: r.phone,
        dateOfBirth: r.date_of_birth,
      };
      return { found: true, record, payload: { status: 'found', nin, ...record } };
    },
    async resolveAccount(bankCode, accountNumber) {
      const r = await one<{ account_name: string }>(
        db,
        sql`SELECT account_name FROM sandbox_bank_accounts WHERE bank_code = ${bankCode} AND account_number = ${accountNumber}`,
      );
      if (!r) return { found: false, payload: { status: 'not_found' } };
      return {
        found: true,
        accountName: r.account_name,
        payload: { status: 'found', bankCode, accountNumber, accountName: r.account_name },
      };
    },
  };
}

const name = (field: string) =>
  z
    .string({ error: `${field} is required` })
    .trim()
    .min(1, `${field} is required`)
    .max(100, `${field} is too long`);

const ninBody = z
  .object({
    nin: z.string({ error: 'nin is required' }).regex(/^\d{11}$/, 'nin must be 11 digits'),
    firstName: name('firstName'),
    middleName: name('middleName').optional(),
    lastName: name('lastName'),
    phone: z.string({ error: 'phone is required' }).transform((v, ctx) => {
      const p = normalizePhone(v);
      if (!p) {
        ctx.addIssue({ code: 'custom', message: 'phone must be a Nigerian mobile number' });
        return z.NEVER;
      }
      return p;
    }),
    dateOfBirth: z.string({ error: 'dateOfBirth is required' }).regex(/^\d{4}-\d{2}-\d{2}$/, 'dateOfBirth must be YYYY-MM-DD'),
  })
  .strict();

const accountBody = z
  .object({
    bankCode: z.string({ error: 'bankCode is required' }).refine((c) => Boolean(bankByCode(c)), 'bankCode must be one of listBanks'),
    accountNumber: z.string({ error: 'accountNumber is required' }).regex(/^\d{10}$/, 'accountNumber must be 10 digits'),
    accountName: name('accountName'),
  })
  .strict()
  .refine((b) => isValidNuban(b.bankCode, b.accountNumber), {
    message: 'accountNumber fails the NUBAN check digit for this bank',
    path: ['accountNumber'],
  });

/** Control endpoints: POST /sandbox/identity/nin and POST /sandbox/banks/accounts (plain JSON, no token). */
export function registerIdentitySimulatorRoutes(app: FastifyInstance, services: { db: Db; clock: Clock }) {
  app.post('/sandbox/identity/nin', async (req) => {
    const b = parseInput(ninBody, req.body);
    const now = services.clock.now();
    await services.db
      .execute(sql`INSERT INTO sandbox_nin_records (nin, first_name, middle_name, last_name, phone, date_of_birth, created_at)
      VALUES (${b.nin}, ${b.firstName}, ${b.middleName ?? null}, ${b.lastName}, ${b.phone}, ${b.dateOfBirth}, ${now})
      ON CONFLICT (nin) DO UPDATE SET first_name = EXCLUDED.first_name, middle_name = EXCLUDED.middle_name, last_name = EXCLUDED.last_name,
        phone = EXCLUDED.phone, date_of_birth = EXCLUDED.date_of_birth`);
    return { ok: true };
  });
  app.post('/sandbox/banks/accounts', async (req) => {
    const b = parseInput(accountBody, req.body);
    const now = services.clock.now();
    await services.db.execute(sql`INSERT INTO sandbox_bank_accounts (bank_code, account_number, account_name, created_at)
      VALUES (${b.bankCode}, ${b.accountNumber}, ${b.accountName}, ${now})
      ON CONFLICT (bank_code, account_number) DO UPDATE SET account_name = EXCLUDED.account_name`);
    return { ok: true };
  });
}
