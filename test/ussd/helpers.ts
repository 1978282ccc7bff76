import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { rows } from '../../src/db/client.js';
import { USSD_CALLBACK_PATH, USSD_SCREEN_MAX } from '../../src/modules/ussd/api.js';
import { user } from '../helpers/factories.js';
import { call, type Harness, type TestUser } from '../helpers/harness.js';

export const PIN = '1357';

/** A feature-phone customer: a verified phone (verified `verifiedDaysAgo` days ago), a PIN, Tier 1 and money. */
export async function caller(h: Harness, phone: string, opts: { naira?: number; verifiedDaysAgo?: number } = {}): Promise<TestUser> {
  const u = await user(h, { phone, pin: PIN, tier: 1, naira: opts.naira ?? 20_000 });
  const days = opts.verifiedDaysAgo ?? 90;
  await h.app.services.db.execute(
    sql`UPDATE users SET phone_verified_at = ${new Date(h.clock.now().getTime() - days * 86_400_000)} WHERE id = ${u.id}`,
  );
  return u;
}

/** One gateway request as Africa's Talking sends it: a form post with the answers so far `*`-joined. */
export async function post(h: Harness, form: { sessionId: string; phoneNumber: string; text: string }, remoteAddress?: string) {
  const body = new URLSearchParams({ ...form, serviceCode: '*384*46#', networkCode: '62130' }).toString();
  return h.app.inject({
    method: 'POST',
    url: USSD_CALLBACK_PATH,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: body,
    ...(remoteAddress ? { remoteAddress } : {}),
  });
}

/**
 * A dial: each `answer` posts the whole text so far, like the gateway; every screen is checked to fit the limit and
 * to start CON or END. `screens` holds what the phone showed.
 */
export function dial(h: Harness, phone: string) {
  const sessionId = `ATUid_${randomUUID().replace(/-/g, '')}`;
  const answers: string[] = [];
  const screens: string[] = [];
  const send = async () => {
    const res = await post(h, { sessionId, phoneNumber: `+234${phone.slice(1)}`, text: answers.join('*') });
    if (res.statusCode !== 200) throw new Error(`ussd ${res.statusCode}: ${res.body}`);
    const screen = res.body;
    if (!/^(CON|END) /.test(screen)) throw new Error(`not a USSD answer: ${screen}`);
    if (screen.length - 4 > USSD_SCREEN_MAX) throw new Error(`screen of ${screen.length - 4} characters: ${screen}`);
    screens.push(screen);
    return screen;
  };
  return {
    sessionId,
    screens,
    start: send,
    answer: async (a: string) => {
      answers.push(a);
      return send();
    },
    /** The gateway sends the last request again (its retry). */
    retry: send,
  };
}

/** The number a screen lists an item under ("3 MTN 1GB ..." -> "3"). */
export function optionOf(screen: string, contains: string): string {
  const line = screen.split('\n').find((l) => /^\d /.test(l) && l.includes(contains));
  if (!line) throw new Error(`no option with ${contains} in ${screen}`);
  return line.split(' ')[0]!;
}

export async function ussdPurchases(h: Harness, userId: string) {
  return rows<{ id: string; service: string; status: string; channel: string; amount: string; recipient: string }>(
    h.app.services.db,
    sql`SELECT id::text AS id, service, status, channel, amount::text AS amount, recipient FROM vtu_transactions WHERE user_id = ${userId}
        ORDER BY created_at`,
  );
}

export async function saveMeter(h: Harness, u: TestUser, meter: string) {
  const res = await call(
    h,
    'POST',
    '/_serverFn/saveBeneficiaryBearerBeneficiaries',
    { kind: 'meter', label: 'Home', recipient: meter, provider: 'ikeja', meterType: 'prepaid' },
    { token: u.token },
  );
  if (res.statusCode !== 200) throw new Error(`saveBeneficiary: ${res.body}`);
}
