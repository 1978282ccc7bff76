import { sql } from 'drizzle-orm';
import { rows, type Db, type Executor } from '../../db/client.js';
import { DAY, type Clock } from '../../kernel/clock.js';
import { prefixedId } from '../../kernel/ids.js';
import type { EventBus } from '../../platform/change.js';
import { randomToken, sha256 } from '../../lib/crypto.js';
import { addressKey } from '../../lib/address-key.js';

/**
 * Known devices (issue #28; OWASP's "device cookies" against lock-out): a browser or app that has signed in to an
 * account gets a random device token for that account, kept in an HttpOnly cookie (http/session-cookie.ts). Its
 * guesses at that account's login code, login PIN and authenticator codes spend a budget of its own, which guesses
 * from anywhere else cannot spend; unrecognised sources share one budget per account. The server stores only the
 * token's SHA-256 (a database reader cannot present a device), so a device can be looked up, expired and revoked.
 * A token stays valid DEVICE_TTL_MS after the device's last sign-in.
 *
 * A token is the device only from the client it signed in from (issue 41): the same address key (an IPv4 address or
 * an IPv6 /64) or the same User-Agent (version numbers aside, so a browser update keeps it). A phone on the move keeps
 * its browser, and a browser updated at home keeps its address; a stolen cookie replayed from another address by
 * another client is an unrecognised source and never spends the owner's device budget. A device's successful sign-in
 * binds it to where it is now; a sign-in that presented a token from elsewhere gets a new token instead.
 */
export const DEVICE_TTL_MS = 180 * DAY;
/** Accounts one browser is remembered for (a shared phone); the most recently used first. */
export const DEVICE_TOKENS_PER_COOKIE = 5;
const TOKEN = /^[A-Za-z0-9_-]{20,64}$/;

/**
 * Ends every known device of an account, inside the caller's transaction: after "this wasn't me" (the intruder's
 * browser signed in too and must not keep a budget of its own) and on account closure. A device that is still signed
 * in becomes known again at its next sign-in. A plain sign-out, an expiry or a two-factor reset keeps them.
 */
export async function forgetKnownDevices(exec: Executor, userId: string): Promise<void> {
  await exec.execute(sql`DELETE FROM known_devices WHERE user_id = ${userId}`);
}

/** A closed account's devices go with the rest of its sign-in data, in the closure's transaction. */
export function registerKnownDevicesEnd({ events }: { events: EventBus }): void {
  events.on('account.closed', ({ userId }, change) =>
    change.write((each) => sql`DELETE FROM known_devices WHERE user_id = ${userId}::uuid AND EXISTS (SELECT 1 FROM ${each})`),
  );
}

/** What a request shows of a device: its cookie's tokens and the client it comes from. */
export interface DeviceClient {
  deviceTokens?: readonly string[];
  ip?: string;
  userAgent?: string;
}

export interface DeviceService {
  /** The known device of this account among the presented tokens (its id), or null; bound to this client. */
  recognise(userId: string, from: DeviceClient): Promise<string | null>;
  /** After a successful sign-in: the tokens the device's cookie holds from now on, this account's first. */
  remember(userId: string, from: DeviceClient): Promise<string[]>;
}

/** Version numbers (`Chrome/126.0.6478.122`, `OS 17_4_1`) change with every update of the same browser. */
const VERSION = /\d+(?:[._]\d+)+/g;

/** The client a device is bound to: its address key and the hash of its User-Agent without version numbers. */
function bindingOf(from: DeviceClient): { address: string | null; client: string } {
  return { address: from.ip ? addressKey(from.ip) : null, client: sha256((from.userAgent ?? '').replace(VERSION, '')) };
}

export function createDeviceService({ db, clock }: { db: Db; clock: Clock }): DeviceService {
  const wellFormed = (tokens: readonly string[]) => tokens.filter((t) => TOKEN.test(t)).slice(0, DEVICE_TOKENS_PER_COOKIE);

  async function find(userId: string, from: DeviceClient): Promise<{ id: string; token: string } | null> {
    const byHash = new Map(wellFormed(from.deviceTokens ?? []).map((t) => [sha256(t), t]));
    if (!byHash.size) return null;
    const { address, client } = bindingOf(from);
    // Another address AND another client: not this device. A row with no client yet is bound at its next sign-in.
    const found = await rows<{ id: string; token_hash: string }>(
      db,
      sql`SELECT id, token_hash FROM known_devices
          WHERE user_id = ${userId} AND expires_at > ${clock.now()}
            AND token_hash IN (${sql.join(
              [...byHash.keys()].map((h) => sql`${h}`),
              sql`, `,
            )})
            AND (client_hash IS NULL OR client_hash = ${client} OR address_key = ${address})
          ORDER BY last_used_at DESC LIMIT 1`,
    );
    return found[0] ? { id: found[0].id, token: byHash.get(found[0].token_hash)! } : null;
  }

  return {
    async recognise(userId, from) {
      return (await find(userId, from))?.id ?? null;
    },

    async remember(userId, from) {
      const now = clock.now();
      const expiresAt = new Date(now.getTime() + DEVICE_TTL_MS);
      const { address, client } = bindingOf(from);
      const known = await find(userId, from);
      let token: string;
      if (known) {
        token = known.token;
        await db.execute(sql`UPDATE known_devices SET last_used_at = ${now}, expires_at = ${expiresAt}, address_key = ${address},
                               client_hash = ${client}
                             WHERE id = ${known.id}`);
      } else {
        token = randomToken(32);
        await db.execute(sql`INSERT INTO known_devices (id, user_id, token_hash, created_at, last_used_at, expires_at, address_key, client_hash)
                             VALUES (${prefixedId('dev')}, ${userId}, ${sha256(token)}, ${now}, ${now}, ${expiresAt}, ${address}, ${client})`);
      }
      return [token, ...wellFormed(from.deviceTokens ?? []).filter((t) => t !== token)].slice(0, DEVICE_TOKENS_PER_COOKIE);
    },
  };
}
