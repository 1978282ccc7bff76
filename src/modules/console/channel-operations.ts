import { z } from 'zod';
import { operationsOf } from '../../platform/operation.js';
import { createChannelSwitches } from './channels.js';

const defineOperation = operationsOf(['db', 'clock']);

const switchesOutput = z.object({
  ussd: z.boolean().meta({ description: 'the USSD menu takes callers' }),
  whatsapp: z.boolean().meta({ description: 'the WhatsApp assistant takes messages' }),
});
const onOff = (name: string) => z.boolean({ error: `${name} must be true or false` }).optional();

/**
 * Issue 46: an admin turns the USSD and WhatsApp channels off and on (the app and the API are never off). Admin only,
 * with step-up, audited by the registry and announced to every admin; no four-eyes, as no money moves
 * (docs/decisions.md, "Channel switches").
 */
export const channelOperations = [
  defineOperation({
    name: 'adminGetChannels',
    suffix: 'BearerAdmin',
    method: 'GET',
    roles: ['finance', 'support'],
    purpose: 'whether the USSD and WhatsApp channels take customers',
    input: z.object({}),
    output: switchesOutput,
    handler: async (_i, ctx) => createChannelSwitches(ctx.api).get(),
  }),
  defineOperation({
    name: 'adminSetChannels',
    suffix: 'BearerAdmin',
    method: 'POST',
    roles: [],
    purpose: 'turn the USSD or WhatsApp channel off or on (omitted ones stay); every admin is e-mailed',
    input: z
      .object({ ussd: onOff('ussd'), whatsapp: onOff('whatsapp') })
      .refine((v) => v.ussd !== undefined || v.whatsapp !== undefined, { message: 'name at least one channel', path: ['ussd'] }),
    output: switchesOutput,
    gates: { stepUp: true },
    announce: true,
    handler: async (input, ctx) => {
      const switches = createChannelSwitches(ctx.api);
      const before = await switches.get();
      const after = await switches.set(ctx.user.id, input);
      ctx.audit.target('channel_settings', 'global');
      ctx.audit.change(before, after);
      return after;
    },
  }),
];
