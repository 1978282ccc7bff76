import { AppError } from '../../../../kernel/errors.js';
import { prefixedId, uuid } from '../../../../kernel/ids.js';
import { formatNaira, toKobo } from '../../../../kernel/money.js';
import type { Network } from '../../../../kernel/phone.js';
import { assertRecipientNetwork, requestIdFor } from '../../model.js';
import type { AirtimeCashUseDeps } from './deps.js';
import { assertAmount, assertCaps, rateBp } from './limits.js';
import * as repo from './repository.js';
import { adapterOf } from './requery.js';
import { creditOf } from './settlement.js';
import { airtimeCashView } from './view.js';

/** The networks' share-and-sell transfer codes; PIN is the sender's own SIM transfer PIN, typed by the customer. */
export const SHARE_AND_SELL: Record<Network, (to: string, amount: number) => string> = {
  mtn: (to, amount) => `*600*${to}*${amount}*PIN#`,
  airtel: (to, amount) => `*432*${to}*${amount}*PIN#`,
  glo: (to, amount) => `*131*${to}*${amount}*PIN#`,
  '9mobile': (to, amount) => `*223*PIN*${amount}*${to}#`,
};

/** Refuses a request whose credit would not fit under the wallet's KYC balance cap. */
async function assertWalletRoom({ db, walletLimits }: AirtimeCashUseDeps, user: { id: string; kycTier: number }, credit: bigint) {
  const room = await walletLimits.balanceHeadroom(db, user.id, user.kycTier);
  if (room !== null && credit > room)
    throw new AppError(
      'LIMIT_EXCEEDED',
      `Your wallet can take ${formatNaira(room)} more at KYC tier ${user.kycTier}; this would credit ${formatNaira(credit)}. Ask for less, or raise your tier`,
    );
}

/** The request (spec of issue 32 item 2). The caller's PIN and Idempotency-Key were checked by the registry. */
export async function request(
  deps: AirtimeCashUseDeps,
  user: { id: string; kycTier: number },
  input: { network: Network; phone: string; amount: number; ported?: boolean },
) {
  const { config, db, clock, log, routing } = deps;
  const cfg = config.airtimeCash;
  const every = config.vtu.reconcileEveryMs;
  if (user.kycTier < 1) throw new AppError('KYC_TIER_REQUIRED', 'KYC Tier 1 is required for airtime-to-cash');
  assertRecipientNetwork(input.network, input.phone, input.ported);
  const amount = toKobo(input.amount);
  assertAmount(cfg, amount);
  if (!(await repo.isVerifiedSender(db, user.id, input.phone)))
    throw new AppError(
      'NOT_ELIGIBLE',
      `${input.phone} is not verified for airtime-to-cash: send from your verified phone, or verify this number with the SMS code first`,
    );
  await assertCaps({ cfg, clock }, db, user.id, input.phone, amount);
  // The wallet's KYC balance cap: a request whose credit would not fit is refused before anything is sent (a
  // credit that arrives is never dropped, so this is where the cap is kept).
  await assertWalletRoom(deps, user, creditOf(amount, rateBp(cfg, input.network)));
  const now = clock.now();
  const id = uuid();
  const requestId = requestIdFor(now);
  const bp = rateBp(cfg, input.network);
  const provider = routing[0];
  if (!provider) throw new AppError('SERVICE_UNAVAILABLE', 'No provider is configured for airtime-to-cash');
  const out = await adapterOf(deps, provider).request({ requestId, network: input.network, sender: input.phone, amount });
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
    const reason = out.status === 'failed' ? out.message : 'The provider did not answer; nothing was taken. Try again in a few minutes.';
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
    await assertCaps({ cfg, clock }, tx, user.id, input.phone, amount);
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
}
