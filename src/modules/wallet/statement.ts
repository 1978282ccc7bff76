import type { ReadReplica } from '../../db/replica.js';
import { HOUR, type Clock } from '../../kernel/clock.js';
import { HISTORY_MAX_DAYS, lagosRange } from '../../kernel/days.js';
import { AppError } from '../../kernel/errors.js';
import type { ServiceNameOf } from '../../kernel/notices.js';
import { profileOf } from '../identity/api.js';
import { activityKindOf, activityParams } from './activity.js';
import type { LineRow, WalletService } from './service.js';
import { statementCsv } from './statement-csv.js';
import { STATEMENT_TEXTS, statementLanguage, type Statement, type StatementTexts } from './statement-texts.js';

/** A statement past this many lines is refused: a shorter period is asked for. */
export const STATEMENT_MAX_LINES = 5000;
export const STATEMENT_FORMATS = ['csv', 'pdf'] as const;
export type StatementFormat = (typeof STATEMENT_FORMATS)[number];

export interface StatementDeps {
  wallet: WalletService;
  replica: ReadReplica;
  clock: Clock;
  serviceNames: ServiceNameOf;
}

/** A Lagos day (YYYY-MM-DD) as DD/MM/YYYY. */
const dayText = (day: string) => day.split('-').reverse().join('/');
/** An instant in Lagos time (UTC+1, no daylight saving): DD/MM/YYYY HH:mm. */
const lagosTime = (ms: number) => {
  const iso = new Date(ms + HOUR).toISOString();
  return `${dayText(iso.slice(0, 10))} ${iso.slice(11, 16)}`;
};

/** A line's words in the statement's language, from its kind and facts; the service's English text when a fact is missing. */
function detailsOf(l: LineRow, texts: StatementTexts, language: ReturnType<typeof statementLanguage>, names: ServiceNameOf): string {
  const kind = activityKindOf(l.type);
  if (kind === 'other') return l.description;
  const params: Record<string, string | number> = { ...activityParams(l.facts) };
  if (typeof params.service === 'string') params.service = names(params.service, language) ?? params.service;
  let missing = false;
  const words = texts.kinds[kind].replace(/\{(\w+)\}/g, (_m, k: string) => {
    const v = params[k];
    if (v === undefined || v === '') missing = true;
    return String(v ?? '');
  });
  if (missing) return l.description;
  // A debit's words are the customer's own note.
  return kind === 'wallet_debit' ? `${words}: ${l.description}` : words;
}

/**
 * getStatement (issue 43): the wallet's statement for a range of Lagos days (at most 366) as CSV or PDF, in the
 * customer's saved language. Opening balance: the ledger's balance at the period's start; closing = opening + the
 * lines, the ledger's balance at its end (one snapshot, service.ts statementLines).
 */
export async function statementFile(
  deps: StatementDeps,
  userId: string,
  input: { format: StatementFormat; from: string; to: string },
  savedLanguage: string | undefined,
): Promise<{ fileName: string; contentType: string; body: Uint8Array }> {
  const now = deps.clock.now();
  const range = lagosRange({ from: input.from, to: input.to }, now, HISTORY_MAX_DAYS);
  const language = statementLanguage(savedLanguage);
  const texts = STATEMENT_TEXTS[language];
  const [money, profile] = await Promise.all([
    deps.wallet.statementLines(userId, range.start, range.end, STATEMENT_MAX_LINES),
    profileOf(deps.replica.forUser(userId), userId),
  ]);
  if (money.lines.length > STATEMENT_MAX_LINES)
    throw new AppError('VALIDATION_FAILED', `A statement holds at most ${STATEMENT_MAX_LINES} lines: choose a shorter period`, {
      issues: [{ path: 'to', message: `more than ${STATEMENT_MAX_LINES} lines from ${range.from}` }],
    });
  let balance = money.opening;
  let moneyIn = 0n;
  let moneyOut = 0n;
  const lines = money.lines.map((l) => {
    const amount = BigInt(l.amount);
    balance += amount;
    if (amount > 0n) moneyIn += amount;
    else moneyOut -= amount;
    return {
      date: lagosTime(Number(l.created_ms)),
      details: detailsOf(l, texts, language, deps.serviceNames),
      reference: l.reference,
      amount,
      balance,
    };
  });
  const statement: Statement = {
    language,
    texts,
    accountName: profile?.fullName || (profile?.username ? `@${profile.username}` : (profile?.email ?? '')),
    from: dayText(range.from),
    to: dayText(range.to),
    generatedAt: lagosTime(now.getTime()),
    opening: money.opening,
    closing: balance,
    moneyIn,
    moneyOut,
    lines,
  };
  const fileName = `statement-${range.from}-to-${range.to}.${input.format}`;
  if (input.format === 'csv') return { fileName, contentType: 'text/csv; charset=utf-8', body: statementCsv(statement) };
  // The PDF library and its fonts are loaded on the first PDF, not at start (memory a process never making one keeps).
  const { statementPdf } = await import('./statement-pdf.js');
  return { fileName, contentType: 'application/pdf', body: await statementPdf(statement) };
}

/** The wallet's statements (the container's `walletStatements`). */
export const createWalletStatements = (deps: StatementDeps) => ({
  file: (userId: string, input: { format: StatementFormat; from: string; to: string }, language: string | undefined) =>
    statementFile(deps, userId, input, language),
});
export type WalletStatements = ReturnType<typeof createWalletStatements>;
