import type { Db } from '../../db/client.js';
import { AppError } from '../../kernel/errors.js';
import { prefixedId, uuid } from '../../kernel/ids.js';
import { faultPoint } from '../../lib/faults.js';
import { PROVIDER_IDS, type Outcome, type ProviderId } from '../../providers/vtu/types.js';
import type { VtuPurchaseDeps } from './deps.js';
import { kindNamed } from './kinds/index.js';
import type { Purchaser } from './kinds/kind.js';
import { capital, purchaseEntries, requestIdFor } from './model.js';
import { nextProvider, purchaseAt, requestFor } from './provider-requests.js';
import * as repo from './repository.js';
import type { VtuRow } from './repository.js';
import { toTransaction } from './view.js';

/** A purchase row by id that is known to exist. */
export const mustGet = async (db: Db, id: string) => (await repo.getTransaction(db, id))!;

/** First attempt (and fallbacks) of a freshly debited purchase: the settled row, or null while it is pending. */
async function attempt(deps: VtuPurchaseDeps, initial: VtuRow): Promise<VtuRow | null> {
  const { log, ensureFloat } = deps;
  const { reroute, settleFailed, settleSuccess, keepPending } = deps.settlement;
  let row = initial;
  for (let hop = 0; hop < PROVIDER_IDS.length; hop++) {
    const provider = row.provider as ProviderId;
    const req = await requestFor(deps, row);
    let out: Outcome;
    if (!req) out = { status: 'failed', message: 'This product is not available at the provider' };
    else {
      await ensureFloat(provider, req.wholesale).catch((err) => log.warn({ provider, err: (err as Error).message }, 'float check failed'));
      out = await purchaseAt(deps, row, provider, req);
      if (out.status === 'low_float') {
        await ensureFloat(provider, req.wholesale, true).catch((err) =>
          log.warn({ provider, err: (err as Error).message }, 'float top-up failed'),
        );
        out = await purchaseAt(deps, row, provider, req);
      }
    }
    log.info({ transactionId: row.id, reference: row.reference, provider, outcome: out.status }, 'vtu provider answered');
    faultPoint('vtu.purchase.afterProvider');
    if (out.status === 'failed' || out.status === 'low_float') {
      // docs/design.md §7: fall back only on a definite failure.
      const next = await nextProvider(deps, row);
      if (next) {
        const moved = await reroute(row, next);
        if (moved) {
          row = moved;
          continue;
        }
      }
      return settleFailed(
        row,
        out.status === 'low_float' ? 'The provider is temporarily unable to sell this product' : out.message,
        out.status,
      );
    }
    if (out.status === 'delivered') return settleSuccess(row, out);
    await keepPending(row, out.status, 0);
    return null;
  }
  return null;
}

/**
 * The purchase path, shared by the HTTP operations and by scheduled purchases. The caller has checked the
 * PIN (HTTP gate, or at schedule time); Tier 1 is re-checked here. `channel`: where it is made (app by default;
 * the USSD menu and the WhatsApp assistant name theirs).
 */
export async function purchase(deps: VtuPurchaseDeps, user: Purchaser, kind: string, input: object, channel: repo.PurchaseChannel = 'app') {
  const { db, clock, log, work, walletLimits, pricing, settlement } = deps;
  if (user.kycTier < 1) throw new AppError('KYC_TIER_REQUIRED', 'KYC Tier 1 is required for purchases');
  const k = kindNamed(kind);
  // Issue 45: priced at the buyer's level, which the row records with the price (amount) it is sold at.
  const ctx = await pricing.contextFor(k.name, user.id);
  const p = await k.prepare(ctx, input, user);
  const now = clock.now();
  const id = uuid();
  const reference = prefixedId('vtu', now.getTime());
  const row: repo.NewVtuRow = {
    id,
    reference,
    requestId: requestIdFor(now),
    userId: user.id,
    service: k.name,
    amount: p.retail,
    wholesale: p.wholesale,
    markup: p.markup,
    recipient: p.recipient,
    network: p.network,
    planId: p.planId,
    product: p.product,
    meterType: p.meterType,
    quantity: p.quantity,
    phone: p.phone,
    profileId: p.profileId,
    inputs: p.inputs,
    provider: p.provider,
    ported: p.ported,
    channel,
    priceLevel: ctx.level,
    ...(user.apiKey ? { apiKey: user.apiKey.id } : {}),
    now,
    // If this process dies before the provider answers, reconciliation picks the row up from here.
    nextCheckAt: new Date(now.getTime() + settlement.firstCheckDelay()),
  };
  // ONE autocommit statement: the posting locks the wallet, checks the daily limit and the balance on the locked
  // row, debits it and writes the purchase row with it; refused, it writes nothing.
  const change = work.change().post({
    reference,
    type: 'vtu_purchase',
    description: `${capital(k.label)} for ${p.recipient}`,
    entries: purchaseEntries(user.id, p.retail, p.provider, p.wholesale, p.markup),
    metadata: { transactionId: id },
    limits: [walletLimits.outflowLimit(user.id, user.kycTier)],
  });
  await repo.recordPurchase(change, row).commit();
  faultPoint('vtu.purchase.afterDebit');
  let settled: repo.VtuRow | null = null;
  try {
    settled = await attempt(deps, repo.newRowOf(row));
  } catch (err) {
    // The money is safe: the row stays processing and reconciliation settles it.
    log.error({ err, transactionId: id }, 'vtu purchase attempt failed after the debit');
  }
  return toTransaction(settled ?? (await mustGet(db, id)));
}
