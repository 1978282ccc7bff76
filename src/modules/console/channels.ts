import { sql } from 'drizzle-orm';
import { one, rows, type Db, type Executor } from '../../db/client.js';
import type { Clock } from '../../kernel/clock.js';

/**
 * The channels an admin can turn off (issue 46): the USSD menu and the WhatsApp assistant. The app and the API are
 * never off. A channel without a row in channel_settings is on. The channel's module asks `channelOpen` on each
 * request: one primary-key read.
 */
export const SWITCHABLE_CHANNELS = ['ussd', 'whatsapp'] as const;
export type SwitchableChannel = (typeof SWITCHABLE_CHANNELS)[number];
export type ChannelSwitches = Record<SwitchableChannel, boolean>;

/** Whether the channel takes customers now. */
export async function channelOpen(exec: Executor, channel: SwitchableChannel): Promise<boolean> {
  const r = await one<{ enabled: boolean }>(exec, sql`SELECT enabled FROM channel_settings WHERE channel = ${channel}`);
  return r?.enabled ?? true;
}

async function readSwitches(exec: Executor): Promise<ChannelSwitches> {
  const list = await rows<{ channel: string; enabled: boolean }>(exec, sql`SELECT channel, enabled FROM channel_settings`);
  const out: ChannelSwitches = { ussd: true, whatsapp: true };
  for (const r of list) if ((SWITCHABLE_CHANNELS as readonly string[]).includes(r.channel)) out[r.channel as SwitchableChannel] = r.enabled;
  return out;
}

/** The admin's switches: read them all, or turn some on or off (the operation audits the change). */
export function createChannelSwitches(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;
  return {
    get: () => readSwitches(db),
    async set(operatorId: string, change: Partial<ChannelSwitches>): Promise<ChannelSwitches> {
      const now = clock.now();
      return db.transaction(async (tx) => {
        for (const channel of SWITCHABLE_CHANNELS) {
          const enabled = change[channel];
          if (enabled === undefined) continue;
          await tx.execute(sql`INSERT INTO channel_settings (channel, enabled, updated_by, updated_at)
                               VALUES (${channel}, ${enabled}, ${operatorId}, ${now})
                               ON CONFLICT (channel) DO UPDATE SET enabled = EXCLUDED.enabled, updated_by = EXCLUDED.updated_by,
                                 updated_at = EXCLUDED.updated_at`);
        }
        return readSwitches(tx);
      });
    },
  };
}
