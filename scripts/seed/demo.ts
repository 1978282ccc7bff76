import { SANDBOX_OPERATOR_EMAIL } from '../../src/config.js';
import { nubanCheckDigit } from '../../src/providers/identity.js';

/**
 * Demo data for a sandbox, put in through the service's own HTTP API and the sandbox control endpoints, exactly
 * as a person and an operator would: sign-in codes read from the sandbox mailbox and SMS box, KYC files uploaded
 * and approved by the operator, wallets funded through the processor's checkout, purchases whose recipients
 * choose their outcome (the simulators' magic endings). Running it again changes nothing that is already there:
 * each step first asks the service whether it was done.
 */
export const DEMO_LOGIN_PIN = '246810';
export const DEMO_TRANSACTION_PIN = '1357';

export interface DemoPerson {
  key: string;
  email: string;
  fullName: string;
  username: string;
  phone: string;
  tier: 0 | 1 | 2 | 3;
  /** What the wallet is funded with on the first run (naira), through a top-up or the dedicated account. */
  funding: number;
  nin?: { nin: string; firstName: string; lastName: string; dateOfBirth: string };
  bank?: { bankCode: string; serial: string; accountName: string };
}

export const DEMO_PEOPLE: DemoPerson[] = [
  { key: 'tier0', email: 'bisi@demo.test', fullName: 'Bisi Adeyemi', username: 'bisi_demo', phone: '08031110010', tier: 0, funding: 2_000 },
  {
    key: 'tier1',
    email: 'tunde@demo.test',
    fullName: 'Tunde Bakare',
    username: 'tunde_demo',
    phone: '08031110011',
    tier: 1,
    funding: 25_000,
  },
  {
    key: 'tier2',
    email: 'ngozi@demo.test',
    fullName: 'Ngozi Okafor',
    username: 'ngozi_demo',
    phone: '08031110012',
    tier: 2,
    funding: 40_000,
    nin: { nin: '71234500012', firstName: 'Ngozi', lastName: 'Okafor', dateOfBirth: '1991-04-12' },
  },
  {
    key: 'tier3',
    email: 'chinedu@demo.test',
    fullName: 'Chinedu Eze',
    username: 'chinedu_demo',
    phone: '08031110013',
    tier: 3,
    funding: 60_000,
    nin: { nin: '71234500013', firstName: 'Chinedu', lastName: 'Eze', dateOfBirth: '1988-09-30' },
    bank: { bankCode: '058', serial: '012345678', accountName: 'EZE CHINEDU' },
  },
];

/** The purchases of the Tier 1+ customers: one per outcome the VTU simulators can give (README, VTU sandbox). */
export const DEMO_PURCHASES = [
  { recipient: '08031234501', amount: 500, outcome: 'delivered at once' },
  { recipient: '08031231111', amount: 300, outcome: 'failed at the provider, refunded at once' },
  { recipient: '08031232222', amount: 200, outcome: 'a requery reports it delivered' },
  { recipient: '08031233333', amount: 100, outcome: 'a requery reports it failed, then refunded' },
];

/** A tiny valid PNG: the liveness frames and ID documents of the demo people. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAGklEQVR4nGNkaGAgCTCRpnxUw6iGUQ1DSAMAQC4BEeR+zkgAAAAASUVORK5CYII=';

export interface SeedOptions {
  baseUrl: string;
  log?: (line: string) => void;
  /** How long to wait for asynchronous effects (a webhook's credit) before giving up. */
  waitMs?: number;
}

export interface SeedResult {
  operator: { email: string; loginPin: string };
  people: { key: string; email: string; username: string; tier: number; balance: number; purchases: Record<string, number> }[];
  /** What this run created (empty on a run that found everything in place). */
  created: string[];
}

class SeedError extends Error {}

type Json = Record<string, any>;

export async function seedDemo(opts: SeedOptions): Promise<SeedResult> {
  const base = opts.baseUrl.replace(/\/$/, '');
  const log = opts.log ?? (() => {});
  const waitMs = opts.waitMs ?? 20_000;
  const created: string[] = [];
  const did = (what: string) => {
    created.push(what);
    log(`  + ${what}`);
  };

  async function http(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body: Json }> {
    let res: Response;
    try {
      res = await fetch(`${base}${path}`, {
        method,
        headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (err) {
      throw new SeedError(`cannot reach ${base} (${(err as Error).message}): start the sandbox first with npm start`);
    }
    const text = await res.text();
    let parsed: Json;
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      parsed = { raw: text.slice(0, 200) };
    }
    return { status: res.status, body: parsed };
  }

  /** Calls an operation; answers its body, or throws with the service's error. */
  async function op(name: string, data: Json = {}, auth: { token?: string; grant?: string; method?: 'GET' | 'POST' } = {}): Promise<Json> {
    const headers: Record<string, string> = {};
    if (auth.token) headers.authorization = `Bearer ${auth.token}`;
    if (auth.grant) headers['x-grant-token'] = auth.grant;
    const r =
      auth.method === 'GET'
        ? await http('GET', `/_serverFn/${name}?${new URLSearchParams(data as Record<string, string>)}`, undefined, headers)
        : await http('POST', `/_serverFn/${name}`, { data }, headers);
    if (r.body.ok !== true)
      throw new SeedError(`${name}: ${r.body.error?.code ?? r.status} ${r.body.error?.message ?? JSON.stringify(r.body).slice(0, 200)}`);
    return r.body;
  }
  const get = (name: string, token: string, data: Json = {}) => op(name, data, { token, method: 'GET' });

  async function waitFor<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
    const until = Date.now() + waitMs;
    for (;;) {
      const v = await probe();
      if (v !== undefined) return v;
      if (Date.now() > until) throw new SeedError(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 150));
    }
  }

  type Box = 'mailbox' | 'sms';
  const boxItems = async (to: string, box: Box): Promise<string[]> =>
    ((await http('GET', `/sandbox/${box}?to=${encodeURIComponent(to)}`)).body.items ?? []).map(
      (m: { text: string; createdAt: string }) => `${m.createdAt} ${m.text}`,
    );

  /**
   * Sends something that delivers a 6-digit code to `to`, then reads the code from the messages that arrived
   * after the send (the sandbox's clock may not be the wall clock, so arrival is judged by what was there before).
   */
  async function codeAfter(to: string, box: Box, send: () => Promise<unknown>): Promise<string> {
    const before = await boxItems(to, box);
    await send();
    return waitFor(`a code for ${to}`, async () => {
      const now = await boxItems(to, box);
      const fresh = before.length ? now.slice(0, Math.max(0, now.indexOf(before[0]))) : now;
      for (const m of fresh) {
        const code = /\b(\d{6})\b/.exec(m.slice(m.indexOf(' ') + 1))?.[1];
        if (code) return code;
      }
      return undefined;
    });
  }

  /** A session: the login PIN when one is set (re-runs need no e-mail code), else an e-mailed code. */
  async function signIn(email: string): Promise<{ token: string; fresh: boolean }> {
    const byPin = await http('POST', '/_serverFn/startPinLoginPublicAuth', { data: { identifier: email, pin: DEMO_LOGIN_PIN } });
    if (byPin.body.ok) return { token: byPin.body.session.accessToken, fresh: false };
    const code = await codeAfter(email, 'mailbox', async () => {
      const sent = await http('POST', '/_serverFn/sendLoginOtpPublicAuth', { data: { email } });
      if (!sent.body.ok)
        throw new SeedError(
          `sendLoginOtp ${email}: ${sent.body.error?.message ?? sent.status} (wait for the code cooldown and run the seed again)`,
        );
    });
    const r = await op('verifyLoginOtpPublicAuth', { email, code });
    return { token: r.session.accessToken, fresh: true };
  }

  /** A step-up grant from an e-mailed code (PIN changes and transfers need one). */
  const grants = new Map<string, string>();
  async function grantFor(email: string, token: string): Promise<string> {
    const held = grants.get(email);
    if (held) return held;
    const code = await codeAfter(email, 'mailbox', () => op('sendStepupEmailCodeBearer2FA', {}, { token }));
    const grant = (await op('verifyStepupChallengeBearer2FA', { totpCode: code }, { token })).grantToken as string;
    grants.set(email, grant);
    return grant;
  }

  async function ensurePins(email: string, token: string) {
    const hasLoginPin = (await get('getLoginPinStatusBearerAuth', token)).enrolled;
    const hasTxPin = (await get('hasTransactionPinBearerSettings', token)).hasPin;
    if (hasLoginPin && hasTxPin) return;
    const grant = await grantFor(email, token);
    if (!hasLoginPin) {
      await op('setLoginPinBearerAuth', { pin: DEMO_LOGIN_PIN }, { token, grant });
      did(`${email}: login PIN`);
    }
    if (!hasTxPin) {
      await op('setTransactionPinFnBearerSettings', { pin: DEMO_TRANSACTION_PIN }, { token, grant });
      did(`${email}: transaction PIN`);
    }
  }

  const sandbox = await http('GET', '/sandbox/sms?to=08031110010');
  if (sandbox.status !== 200)
    throw new SeedError(`${base} is not a sandbox (GET /sandbox/sms answered ${sandbox.status}): the seed only runs against npm start`);

  // The operator: the sandbox's own operator address (config SANDBOX_OPERATOR_EMAIL).
  log(`operator ${SANDBOX_OPERATOR_EMAIL}`);
  const operator = await signIn(SANDBOX_OPERATOR_EMAIL);
  const me = (await get('getProfileBearerSettings', operator.token)).profile;
  if (me.role !== 'admin') throw new SeedError(`${SANDBOX_OPERATOR_EMAIL} is not an operator on this server (is it a sandbox?)`);
  await ensurePins(SANDBOX_OPERATOR_EMAIL, operator.token);

  async function approve(email: string, tier: number) {
    const item = await waitFor(`the tier ${tier} submission of ${email}`, async () => {
      const list = await get('adminListKycSubmissionsBearerAdmin', operator.token, { status: 'pending', tier: String(tier), limit: '100' });
      return list.items.find((s: { email: string }) => s.email === email);
    });
    await op('adminReviewKycBearerAdmin', { submissionId: item.id, decision: 'approve' }, { token: operator.token });
    did(`${email}: KYC tier ${tier} approved`);
  }

  const upload = async (token: string, name: string) =>
    (await op('uploadKycFileBearerKYC', { fileName: name, contentType: 'image/png', contentBase64: PNG }, { token })).path as string;

  async function ensureKyc(p: DemoPerson, token: string) {
    for (let tier = 1; tier <= p.tier; tier++) {
      const status = (await get('getKycStatusBearerKYC', token)).tiers.find((t: { tier: number }) => t.tier === tier)?.status;
      if (status === 'approved') continue;
      if (status !== 'pending') {
        if (tier === 1) {
          const frames = [await upload(token, 'frame1.png'), await upload(token, 'frame2.png'), await upload(token, 'frame3.png')];
          await op('submitTier3KycBearerKYC', { frames }, { token });
        } else if (tier === 2) {
          await http('POST', '/sandbox/identity/nin', { ...p.nin!, phone: p.phone });
          await op('submitNinKycBearerKYC', { nin: p.nin!.nin, slipPath: await upload(token, 'nin-slip.png') }, { token });
        } else {
          const accountNumber = p.bank!.serial + String(nubanCheckDigit(p.bank!.bankCode, p.bank!.serial));
          await http('POST', '/sandbox/banks/accounts', { bankCode: p.bank!.bankCode, accountNumber, accountName: p.bank!.accountName });
          const documentPath = await upload(token, 'passport.png');
          await op(
            'submitBankKycBearerKYC',
            { bankCode: p.bank!.bankCode, accountNumber, documentType: 'passport', documentPath },
            { token },
          );
        }
      }
      // Tier 1 passes the sandbox's automatic liveness check at once; the other tiers wait for the operator.
      const now = (await get('getKycStatusBearerKYC', token)).tiers.find((t: { tier: number }) => t.tier === tier)?.status;
      if (now !== 'approved') await approve(p.email, tier);
    }
  }

  async function ensurePhone(p: DemoPerson, token: string) {
    if ((await get('getProfileBearerSettings', token)).profile.phoneVerified) return;
    const code = await codeAfter(p.phone, 'sms', () => op('sendPhoneOtpPublicAuth', { phone: p.phone }));
    await op('verifyPhoneOtpPublicAuth', { phone: p.phone, code }, { token });
    did(`${p.email}: phone ${p.phone} verified`);
  }

  const balanceOf = async (token: string) => (await get('getWalletStateBearerWallet', token)).balance as number;

  async function ensureFunded(p: DemoPerson, token: string) {
    const history = await get('listPaymentHistoryBearerPayments', token, { limit: '1' });
    if (history.items.length > 0) return;
    const before = await balanceOf(token);
    if (p.tier >= 2) {
      // Money arriving by bank transfer into the customer's dedicated virtual account.
      const account = (await op('getOrCreateDedicatedAccountBearerWallet', {}, { token })).dedicatedAccount;
      const paid = await http('POST', '/sandbox/processor/dva-transfer', { accountNumber: account.accountNumber, amount: p.funding });
      if (paid.status !== 200) throw new SeedError(`dva-transfer: ${JSON.stringify(paid.body)}`);
      await waitFor(`the transfer into ${account.accountNumber}`, async () =>
        (await balanceOf(token)) >= before + p.funding ? true : undefined,
      );
      did(`${p.email}: ₦${p.funding.toLocaleString('en-NG')} by transfer into dedicated account ${account.accountNumber}`);
    } else {
      const { reference } = await op('createTopupIntentBearerWallet', { amount: p.funding }, { token });
      const paid = await http('POST', '/sandbox/processor/pay', { reference, outcome: 'success' });
      if (paid.status !== 200) throw new SeedError(`processor pay: ${JSON.stringify(paid.body)}`);
      await op('verifyProcessorTopupBearerPayments', { reference }, { token });
      did(`${p.email}: ₦${p.funding.toLocaleString('en-NG')} top-up ${reference}`);
    }
    // A checkout the customer walked away from, so the history shows more than successes.
    const { reference: ref } = await op('createTopupIntentBearerWallet', { amount: 1_500 }, { token });
    await http('POST', '/sandbox/processor/pay', { reference: ref, outcome: 'failed' });
    await op('verifyProcessorTopupBearerPayments', { reference: ref }, { token });
    did(`${p.email}: a failed ₦1,500 top-up ${ref}`);
  }

  async function ensurePurchases(p: DemoPerson, token: string) {
    const existing = await get('listMyVtuTransactionsBearerVTU', token, { limit: '1' });
    if (existing.items.length > 0) return;
    for (const buy of DEMO_PURCHASES) {
      const r = await op(
        'buyAirtimeBearerVTU',
        { network: 'mtn', phone: buy.recipient, amount: buy.amount, pin: DEMO_TRANSACTION_PIN },
        { token },
      );
      did(`${p.email}: airtime ₦${buy.amount} to ${buy.recipient} (${r.transaction?.status ?? r.status}: ${buy.outcome})`);
    }
    const plans = (await get('listDataPlansBearerVTU', token, { network: 'mtn' })).items;
    if (plans.length > 0) {
      const plan = plans[0];
      await op(
        'buyDataBearerVTU',
        { network: 'mtn', plan_id: plan.plan_id, phone: p.phone, amount: plan.price, pin: DEMO_TRANSACTION_PIN },
        { token },
      );
      did(`${p.email}: data ${plan.name} to ${p.phone}`);
    }
  }

  const tokens = new Map<string, string>();
  for (const p of DEMO_PEOPLE) {
    log(`${p.key} ${p.email}`);
    const { token } = await signIn(p.email);
    tokens.set(p.key, token);
    const profile = (await get('getProfileBearerSettings', token)).profile;
    const patch: Json = {};
    if (!profile.fullName) patch.fullName = p.fullName;
    if (!profile.username) patch.username = p.username;
    if (profile.phone !== p.phone && !profile.phoneVerified) patch.phone = p.phone;
    if (Object.keys(patch).length) {
      await op('updateProfileBearerSettings', patch, { token });
      did(`${p.email}: profile (${Object.keys(patch).join(', ')})`);
    }
    await ensurePins(p.email, token);
    if (p.tier >= 2) await ensurePhone(p, token);
    await ensureKyc(p, token);
    await ensureFunded(p, token);
    if (p.tier >= 1) await ensurePurchases(p, token);
  }

  // A wallet-to-wallet transfer between two Tier 2+ customers (needs a step-up grant).
  const from = DEMO_PEOPLE.find((p) => p.key === 'tier3')!;
  const to = DEMO_PEOPLE.find((p) => p.key === 'tier2')!;
  const fromToken = tokens.get(from.key)!;
  const sent = (await get('getWalletStateBearerWallet', fromToken)).log.some((row: { type: string }) => /transfer/.test(row.type));
  if (!sent) {
    const grant = await grantFor(from.email, fromToken);
    await op(
      'transferWalletFnBearerWallet',
      { username: to.username, amount: 2_500, note: 'demo transfer', pin: DEMO_TRANSACTION_PIN },
      { token: fromToken, grant },
    );
    did(`${from.email}: ₦2,500 transferred to @${to.username}`);
  }

  const people: SeedResult['people'] = [];
  for (const p of DEMO_PEOPLE) {
    const token = tokens.get(p.key)!;
    const purchases: Record<string, number> = {};
    for (const t of (await get('listMyVtuTransactionsBearerVTU', token, { limit: '50' })).items)
      purchases[t.status] = (purchases[t.status] ?? 0) + 1;
    const tier = (await get('getKycStatusBearerKYC', token)).tier;
    people.push({ key: p.key, email: p.email, username: p.username, tier, balance: await balanceOf(token), purchases });
  }
  return { operator: { email: SANDBOX_OPERATOR_EMAIL, loginPin: DEMO_LOGIN_PIN }, people, created };
}

export { SeedError };
