import type { Config } from '../../../../config.js';
import type { Db, Executor } from '../../../../db/client.js';
import type { ReadReplica } from '../../../../db/replica.js';
import { MINUTE, type Clock } from '../../../../kernel/clock.js';
import { AppError, notFound } from '../../../../kernel/errors.js';
import { prefixedId, uuid } from '../../../../kernel/ids.js';
import { formatNaira, toKobo, toNaira } from '../../../../kernel/money.js';
import { NETWORKS, type Network } from '../../../../kernel/phone.js';
import type { Work } from '../../../../platform/change.js';
import type { Logger } from '../../../../lib/logger.js';
import type { SmsSender } from '../../../../providers/messaging.js';
import type { OtpService } from '../../../identity/api.js';
import type { WalletLimits } from '../../../wallet/api.js';
import { assertRecipientNetwork, NETWORK_NAMES, requestIdFor } from '../../model.js';
import type { AirtimeCashProvider, ReceiptStatus } from './adapter.js';
import type { AirtimeCashProviderId } from './routing.js';
import { createAirtimeCashSettlement, creditOf } from './settlement.js';
import * as repo from './repository.js';
import type { AirtimeCashRow, AirtimeCashStatus } from './repository.js';

/**
 * Airtime-to-cash (issue 32 item 2), an inbound flow, sent to the first provider of its routing (VTU_ROUTING's
 * airtime_cash, default C: routing.ts); its requeries and webhooks go to the provider the row records. A request checks the sending number (the caller's
 * verified phone or one proved by SMS code), the bounds and the daily caps per customer and per sending number, and
 * asks the provider for a receiving number; the customer is told where and how to send (the network's share-and-sell
 * USSD string) under a reference. The wallet is credited at the request's rate ONLY when the provider confirms what it
 * received (its signed webhook or a requery), never on the customer's word: the part received when less arrived,
 * once per request whatever how often the confirmation comes (ledger reference airtime_cash:<request id>). A request
 * the provider says nothing reached expires with nothing credited; one the provider cannot be asked about stays
 * awaiting (never expired blindly) and is listed for operators.
 */
/** The networks' share-and-sell transfer codes; PIN is the sender's own SIM transfer PIN, typed by the customer. */
export const SHARE_AND_SELL: Record<Network, (to: string, amount: number) => string> = {
  mtn: (to, amount) => `*600*${to}*${amount}*PIN#`,
  airtel: (to, amount) => `*432*${to}*${amount}*PIN#`,
  glo: (to, amount) => `*131*${to}*${amount}*PIN#`,
  '9mobile': (to, amount) => `*223*PIN*${amount}*${to}#`,
};

export interface AirtimeCashDeps {
  config: Config;
  db: Db;
  replica: ReadReplica;
  clock: Clock;
  log: Logger;
  work: Work;
  otp: OtpService;
  sms: SmsSender;
  /** The adapter of each provider that has one. */
  providers: Record<AirtimeCashProviderId, AirtimeCashProvider>;
  /** Where requests go, in order (only the first is asked: docs/decisions.md). */
  routing: AirtimeCashProviderId[];
  walletLimits: WalletLimits;
}

const rateOf = (bp: number) => bp / 100;
const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

/** What the customer (and an operator) sees of a request; the provider's request id stays inside. */
export function airtimeCashView(r: AirtimeCashRow) {
  const amount = BigInt(r.amount);
  const received = r.amount_received === null ? null : BigInt(r.amount_received);
  return {
    id: r.id,
    reference: r.reference,
    status: r.status,
    network: r.network,
    phone: r.sender,
    amount: toNaira(amount),
    rate: rateOf(r.rate_bp),
    expectedCredit: toNaira((amount * BigInt(r.rate_bp)) / 10_000n),
    receivingNumber: r.receiving_number,
    ussd: r.ussd,
    expiresAt: iso(r.expires_at)!,
    amountReceived: received === null ? null : toNaira(received),
    credited: r.credited === null ? null : toNaira(r.credited),
    partial: received !== null && received < amount,
    ...(r.failure_reason ? { failureReason: r.failure_reason } : {}),
    createdAt: iso(r.created_at)!,
    updatedAt: iso(r.updated_at)!,
  };
}

export function createAirtimeCashService(deps: AirtimeCashDeps) {
  const { config, db, clock, log, otp, sms, providers, routing, walletLimits } = deps;
  const cfg = config.airtimeCash;
  const every = config.vtu.reconcileEveryMs;
  const rateBp = (n: Network) => Math.round(cfg.ratePercent[n] * 100);

  function assertAmount(amount: bigint) {
    if (amount % 100n !== 0n) throw new AppError('AMOUNT_OUT_OF_RANGE', 'Airtime is sent in whole naira; leave out the kobo');
    if (amount < cfg.min || amount > cfg.max)
      throw new AppError('AMOUNT_OUT_OF_RANGE', `Airtime-to-cash takes ${formatNaira(cfg.min)} to ${formatNaira(cfg.max)} at a time`);
  }

  /** Refuses a request that would pass today's cap of the customer or of the sending number (docs/decisions.md). */
  async function assertCaps(exec: Executor, userId: string, sender: string, amount: bigint) {
    const used = await repo.usedToday(exec, userId, sender, clock.now());
    if (used.customer + amount > cfg.customerDailyCap)
      throw new AppError(
        'LIMIT_EXCEEDED',
        `Airtime-to-cash is limited to ${formatNaira(cfg.customerDailyCap)} a day per customer; ${formatNaira(cfg.customerDailyCap - used.customer < 0n ? 0n : cfg.customerDailyCap - used.customer)} is left today`,
      );
    if (used.number + amount > cfg.numberDailyCap)
      throw new AppError(
        'LIMIT_EXCEEDED',
        `Airtime-to-cash is limited to ${formatNaira(cfg.numberDailyCap)} a day from one sending number; ${formatNaira(cfg.numberDailyCap - used.number < 0n ? 0n : cfg.numberDailyCap - used.number)} is left today for ${sender}`,
      );
  }

  const { apply, close } = createAirtimeCashSettlement({ config, db, clock, log, work: deps.work });

  /** The adapter of the provider a request was sent to (rows are written only for providers with one). */
  function adapterOf(provider: string): AirtimeCashProvider {
    const adapter = (providers as Partial<Record<string, AirtimeCashProvider>>)[provider];
    if (!adapter) throw new Error(`no airtime-to-cash adapter for provider ${provider}`);
    return adapter;
  }

  async function requeryRow(row: AirtimeCashRow): Promise<string> {
    return apply(row, await adapterOf(row.provider).requery(row.request_id));
  }

  const mustGet = async (id: string) => (await repo.getRequest(db, id))!;

  return {
    /** The networks bought, with today's rate and one request's bounds. */
    networks() {
      return NETWORKS.map((n) => ({
        id: n,
        name: NETWORK_NAMES[n],
        rate: cfg.ratePercent[n],
        minAmount: toNaira(cfg.min),
        maxAmount: toNaira(cfg.max),
      }));
    },

    async quote(userId: string, input: { network: Network; amount: number }) {
      const amount = toKobo(input.amount);
      assertAmount(amount);
      const bp = rateOf(rateBp(input.network));
      const used = await repo.usedToday(db, userId, '', clock.now());
      const left = cfg.customerDailyCap - used.customer;
      return {
        network: input.network,
        amount: input.amount,
        rate: bp,
        credit: toNaira(creditOf(amount, rateBp(input.network))),
        remainingToday: toNaira(left < 0n ? 0n : left),
      };
    },

    async sendNumberCode(userId: string, phone: string, ip?: string) {
      if (await repo.isVerifiedSender(db, userId, phone)) return { sent: false, alreadyVerified: true, expiresInSeconds: 0 };
      const code = await otp.issue('sending_number', `${userId}:${phone}`, ip);
      try {
        await sms.send({
          to: phone,
          text: `Your airtime-to-cash code is ${code}. It lets you sell airtime from ${phone} and expires in 10 minutes. Do not share it.`,
        });
      } catch (err) {
        log.warn({ err: (err as Error).message }, 'sending-number SMS could not be sent');
        throw new AppError('UPSTREAM_ERROR', 'The SMS could not be sent just now; try again in a minute');
      }
      return { sent: true, alreadyVerified: false, expiresInSeconds: 600 };
    },

    async verifyNumber(userId: string, phone: string, code: string, ip?: string) {
      await otp.verify('sending_number', `${userId}:${phone}`, code, { ip });
      await repo.addNumber(db, userId, phone, clock.now());
      return { phone, verified: true };
    },

    async numbers(userId: string) {
      return { items: await repo.listNumbers(db, userId) };
    },

    /** The request (spec of issue 32 item 2). The caller's PIN and Idempotency-Key were checked by the registry. */
    async request(user: { id: string; kycTier: number }, input: { network: Network; phone: string; amount: number; ported?: boolean }) {
      if (user.kycTier < 1) throw new AppError('KYC_TIER_REQUIRED', 'KYC Tier 1 is required for airtime-to-cash');
      assertRecipientNetwork(input.network, input.phone, input.ported);
      const amount = toKobo(input.amount);
      assertAmount(amount);
      if (!(await repo.isVerifiedSender(db, user.id, input.phone)))
        throw new AppError(
          'NOT_ELIGIBLE',
          `${input.phone} is not verified for airtime-to-cash: send from your verified phone, or verify this number with the SMS code first`,
        );
      await assertCaps(db, user.id, input.phone, amount);
      // The wallet's KYC balance cap: a request whose credit would not fit is refused before anything is sent (a
      // credit that arrives is never dropped, so this is where the cap is kept).
      const room = await walletLimits.balanceHeadroom(db, user.id, user.kycTier);
      const credit = creditOf(amount, rateBp(input.network));
      if (room !== null && credit > room)
        throw new AppError(
          'LIMIT_EXCEEDED',
          `Your wallet can take ${formatNaira(room)} more at KYC tier ${user.kycTier}; this would credit ${formatNaira(credit)}. Ask for less, or raise your tier`,
        );
      const now = clock.now();
      const id = uuid();
      const requestId = requestIdFor(now);
      const bp = rateBp(input.network);
      const provider = routing[0];
      if (!provider) throw new AppError('SERVICE_UNAVAILABLE', 'No provider is configured for airtime-to-cash');
      const out = await adapterOf(provider).request({ requestId, network: input.network, sender: input.phone, amount });
      log.info({ requestId: id, outcome: out.status }, 'airtime-to-cash provider answered');
      const base = {
        id,
        reference: prefixedId('a2c', now.getTime()),
        requestId,
        userId: user.id,
        provider,
        network: input.network,
        sender: input.phone,
        amount,
        rateBp: bp,
        now,
        expiresAt: new Date(now.getTime() + cfg.expiresMs),
      };
      if (out.status !== 'accepted') {
        // Nothing to send to, so nothing can arrive: the request is closed at once (the customer may ask again).
        const reason =
          out.status === 'failed' ? out.message : 'The provider did not answer; nothing was taken. Try again in a few minutes.';
        const row = await repo.insertRequest(db, {
          ...base,
          receivingNumber: '',
          ussd: '',
          providerReference: null,
          status: 'failed',
          failureReason: reason,
          nextCheckAt: null,
        });
        return airtimeCashView(row);
      }
      const row = await db.transaction(async (tx) => {
        // Checked again under the customer's and the number's locks: two requests at once cannot pass a cap together.
        await repo.lockCaps(tx, user.id, input.phone);
        await assertCaps(tx, user.id, input.phone, amount);
        return repo.insertRequest(tx, {
          ...base,
          receivingNumber: out.receivingNumber,
          ussd: SHARE_AND_SELL[input.network](out.receivingNumber, Number(amount / 100n)),
          providerReference: out.providerReference ?? null,
          status: 'awaiting',
          failureReason: null,
          nextCheckAt: new Date(now.getTime() + every),
        });
      });
      return airtimeCashView(row);
    },

    async listMine(userId: string, f: { status?: AirtimeCashStatus; limit: number; offset: number }) {
      const list = await repo.listRequests(deps.replica.forUser(userId), { ...f, userId });
      return { items: list.slice(0, f.limit).map(airtimeCashView), limit: f.limit, offset: f.offset, hasMore: list.length > f.limit };
    },

    async getMine(userId: string, id: string) {
      const row = await repo.getOwnRequest(deps.replica.forUser(userId), userId, id);
      if (!row) throw notFound('Airtime-to-cash request');
      return airtimeCashView(row);
    },

    /** "I have sent it": the provider is asked now; only its answer credits. */
    async checkMine(userId: string, id: string) {
      const row = await repo.getOwnRequest(db, userId, id);
      if (!row) throw notFound('Airtime-to-cash request');
      if (row.status === 'awaiting') await requeryRow(row);
      return airtimeCashView(await mustGet(id));
    },

    /**
     * A provider's webhook, raw bytes and signature header: UNAUTHENTICATED unless signed with that provider's secret.
     * A request id we never issued, or one sent to another provider, is logged and ignored.
     */
    async receiveWebhook(from: AirtimeCashProviderId, raw: Buffer, signature: string | undefined) {
      const v = adapterOf(from).verifyWebhook(raw, signature);
      if (v === 'unsigned') throw new AppError('UNAUTHENTICATED', 'Missing or invalid x-provider-signature');
      if (v === 'malformed') throw new AppError('BAD_REQUEST', 'Body must be a JSON object with request_id and status');
      return this.confirm(from, v.requestId, v.receipt);
    },

    /** What a provider says of one of the requests sent to it, as its webhook brings it. */
    async confirm(from: AirtimeCashProviderId, requestId: string, receipt: ReceiptStatus): Promise<{ known: boolean }> {
      const row = await repo.getByRequestId(db, requestId);
      if (!row || row.provider !== from) {
        log.warn({ providerRequestId: requestId, provider: from }, 'airtime-to-cash webhook for a request not sent to this provider');
        return { known: false };
      }
      // A webhook that does not credit or close (awaiting, unreadable) changes nothing: requeries carry on.
      if (receipt.status === 'received' || receipt.status === 'expired' || receipt.status === 'failed') await apply(row, receipt);
      return { known: true };
    },

    /** Requeries every due awaiting request once; returns how many were checked. */
    async reconcileDue(max = 500): Promise<number> {
      let done = 0;
      while (done < max) {
        const now = clock.now();
        const batch = await repo.claimDue(db, now, new Date(now.getTime() + Math.max(MINUTE, 3 * config.vtu.timeoutMs)), 16);
        if (!batch.length) break;
        await Promise.all(
          batch.map(async (row) => {
            try {
              await requeryRow(row);
            } catch (err) {
              log.error({ err, requestId: row.id }, 'airtime-to-cash requery failed');
            }
          }),
        );
        done += batch.length;
      }
      return done;
    },

    // ----- operators -----
    async adminList(f: { status?: AirtimeCashStatus; stuck?: boolean; limit: number; offset: number }) {
      const list = await repo.listRequests(db, {
        status: f.status,
        stuckBefore: f.stuck ? clock.now() : undefined,
        limit: f.limit,
        offset: f.offset,
      });
      return {
        items: list.slice(0, f.limit).map((r) => ({
          ...airtimeCashView(r),
          userId: r.user_id,
          requestId: r.request_id,
          requeryCount: r.requery_count,
          lastProviderStatus: r.last_provider_status,
          lastCheckedAt: iso(r.last_checked_at),
        })),
        limit: f.limit,
        offset: f.offset,
        hasMore: list.length > f.limit,
      };
    },

    async adminRequery(id: string) {
      const row = await repo.getRequest(db, id);
      if (!row) throw notFound('Airtime-to-cash request');
      const providerStatus = row.status === 'awaiting' ? await requeryRow(row) : (row.last_provider_status ?? row.status);
      return { request: airtimeCashView(await mustGet(id)), providerStatus };
    },

    /**
     * An operator closes an awaiting request with nothing credited (the provider confirmed out of band that nothing
     * arrived). Crediting always needs the provider's own confirmation (webhook or requery), never an operator's word.
     */
    async adminResolve(id: string, note: string) {
      const row = await repo.getRequest(db, id);
      if (!row) throw notFound('Airtime-to-cash request');
      if (row.status !== 'awaiting') throw new AppError('CONFLICT', `This request is already ${row.status}`);
      await close(row, 'expired', `closed by an operator: ${note}`, row.last_provider_status ?? 'operator');
      const after = await mustGet(id);
      if (after.status === 'awaiting') throw new AppError('CONFLICT', 'The request changed meanwhile; look again');
      return { request: airtimeCashView(after) };
    },
  };
}

export type AirtimeCashService = ReturnType<typeof createAirtimeCashService>;
