import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { rows } from '../db/client.js';
import type { Services } from '../platform/services.js';
import { parseInput } from '../kernel/errors.js';
import { isSandboxMailer } from '../providers/messaging.js';
import { registerEpinSimulator } from './epin-simulator.js';
import { registerIdentitySimulatorRoutes } from './identity-simulator.js';
import { registerProcessorSimulator } from './processor-simulator.js';
import { registerSmsSimulator } from './sms-simulator.js';
import { registerVtuSimulators } from './vtu/index.js';
import { registerUssdPhone } from './ussd-phone.js';
import { registerWhatsappCloud } from './whatsapp-cloud.js';
import { registerWhatsappChat } from './whatsapp-chat.js';

/**
 * Sandbox control endpoints (docs/design.md §8): plain JSON, no envelope, no token; mounted only in sandbox mode.
 * Each simulator adds its registrar to this list.
 */
export type SandboxRegistrar = (app: FastifyInstance, services: Services) => Promise<void> | void;
export const sandboxModules: SandboxRegistrar[] = [];
sandboxModules.push(registerIdentitySimulatorRoutes);
sandboxModules.push(registerProcessorSimulator);
sandboxModules.push(registerVtuSimulators);
sandboxModules.push(registerSmsSimulator);
sandboxModules.push(registerUssdPhone);
sandboxModules.push(registerWhatsappCloud);
sandboxModules.push(registerWhatsappChat);
sandboxModules.push(registerEpinSimulator);

export async function registerSandboxRoutes(app: FastifyInstance, services: Services) {
  const inbox = (channel: 'email' | 'sms') => async (req: { query: unknown }) => {
    const q = parseInput(z.object({ to: z.string().min(1, 'to is required').max(254) }), req.query);
    const to = channel === 'email' ? q.to.toLowerCase() : q.to;
    const items = await rows<{ to: string; subject: string | null; text: string; created_at: Date }>(
      services.db,
      sql`SELECT "to", subject, text, created_at FROM sandbox_messages WHERE channel = ${channel} AND "to" = ${to} ORDER BY id DESC LIMIT 50`,
    );
    return {
      ok: true,
      items: items.map((m) => ({
        to: m.to,
        ...(m.subject !== null ? { subject: m.subject } : {}),
        text: m.text,
        createdAt: new Date(m.created_at).toISOString(),
      })),
    };
  };
  app.get('/sandbox/mailbox', inbox('email'));
  // The mail server's outage switch: while down, mail fails as with SMTP unreachable (this instance only).
  app.post('/sandbox/mail/outage', async (req, reply) => {
    const { down } = parseInput(z.object({ down: z.boolean({ error: 'down (true or false) is required' }) }), req.body);
    if (!isSandboxMailer(services.mailer))
      return reply
        .status(409)
        .send({ ok: false, error: { code: 'CONFLICT', message: 'Mail goes through SMTP_URL here, not the sandbox mail server' } });
    services.mailer.setDown(down);
    return { ok: true, down };
  });
  app.get('/sandbox/sms', inbox('sms'));
  for (const r of sandboxModules) await r(app, services);
}
