import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { one, type Db } from '../db/client.js';
import type { Clock } from '../kernel/clock.js';
import { normalizePhone } from '../kernel/phone.js';
import { bankByCode, isValidNuban, LIVENESS_REASONS, livenessAnswer, type IdentityProvider } from '../providers/identity.js';
import { AppError, parseInput } from '../kernel/errors.js';

/**
 * Liveness magic outcomes, set per customer e-mail at POST /sandbox/identity/liveness (before or after sign-up).
 * A customer with none set passes: a new customer in the sandbox is Tier 1 within seconds of the selfie.
 * `down` and `timeout` throw what the HTTP adapter throws when the provider answers 5xx or not at all.
 */
export const LIVENESS_MAGIC = ['pass', 'fail', 'review', 'down', 'timeout'] as const;
const DEFAULT_SCORE = { pass: 0.97, review: 0.62, fail: 0.08 } as const;

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
    async checkLiveness({ reference, images }) {
      // The provider knows our reference (the user id); the sandbox maps it to the e-mail its control was set for.
      const r = await one<{ outcome: (typeof LIVENESS_MAGIC)[number]; score: number | null; reason: string | null }>(
        db,
        sql`SELECT o.outcome, o.score, o.reason FROM sandbox_liveness_outcomes o JOIN users u ON u.email = o.email WHERE u.id = ${reference}`,
      );
      const outcome = r?.outcome ?? 'pass';
      if (outcome === 'down') throw new AppError('UPSTREAM_ERROR', 'The identity look-up service answered 503; try again shortly');
      if (outcome === 'timeout') throw new AppError('UPSTREAM_ERROR', 'The identity look-up service did not answer; try again shortly');
      return livenessAnswer({
        outcome,
        score: r?.score ?? DEFAULT_SCORE[outcome],
        ...(outcome === 'fail' ? { reason: r?.reason ?? 'not_live' } : {}),
        frames: images.length,
      });
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

const livenessBody = z
  .object({
    email: z.string({ error: 'email is required' }).trim().toLowerCase().email('email must be an e-mail address').max(254),
    outcome: z.enum(LIVENESS_MAGIC, { error: `outcome must be one of ${LIVENESS_MAGIC.join(', ')}` }),
    score: z.number().min(0, 'score must be 0 to 1').max(1, 'score must be 0 to 1').optional(),
    reason: z.enum(LIVENESS_REASONS, { error: `reason must be one of ${LIVENESS_REASONS.join(', ')}` }).optional(),
  })
  .strict();

/**
 * Control endpoints: POST /sandbox/identity/nin, POST /sandbox/banks/accounts and POST /sandbox/identity/liveness
 * (plain JSON, no token).
 */
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
  app.post('/sandbox/identity/liveness', async (req) => {
    const b = parseInput(livenessBody, req.body);
    await services.db.execute(sql`INSERT INTO sandbox_liveness_outcomes (email, outcome, score, reason, created_at)
      VALUES (${b.email}, ${b.outcome}, ${b.score ?? null}, ${b.reason ?? null}, ${services.clock.now()})
      ON CONFLICT (email) DO UPDATE SET outcome = EXCLUDED.outcome, score = EXCLUDED.score, reason = EXCLUDED.reason`);
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
