import { z } from 'zod';
import { airtimeKind } from './airtime/index.js';
import { bettingKind } from './betting/index.js';
import { cableKind } from './cable/index.js';
import { dataKind } from './data/index.js';
import { electricityKind } from './electricity/index.js';
import { esimKind } from './esim/index.js';
import { examKind } from './exam/index.js';
import { flightsKind } from './flights/index.js';
import type { ServiceNameOf } from '../../../kernel/notices.js';
import type { ProviderId } from '../../../providers/vtu/types.js';
import { airtimeCashInbound } from './airtime-cash/kind.js';
import type { InboundKind, ServiceKind } from './kind.js';
import { socialKind } from './social/index.js';

/**
 * THE list of service kinds sold (issue 32: an open service model). A kind is one folder, kinds/<kind>/, declaring a
 * ServiceKind (kind.ts describes how to write one); adding a kind is that folder and ONE line here. Everything that
 * lists kinds derives from this array: the operations (and so the OpenAPI document), the `service` inputs, the
 * default routing, the floats' service lists, `repeat.operation`. The order is the operations' order.
 */
export const KINDS: readonly ServiceKind[] = [
  airtimeKind,
  dataKind,
  cableKind,
  electricityKind,
  bettingKind,
  examKind,
  esimKind,
  socialKind,
  flightsKind,
];

/**
 * The inbound kinds (kind.ts InboundKind: money flows in, no debit, no refund): airtime-to-cash. Each is a module of
 * its own (one line in modules/index.ts: docs/decisions.md); their routing check at start, the floats' service lists
 * and the sandbox's simulators derive from this list.
 */
export const INBOUND_KINDS: readonly InboundKind[] = [airtimeCashInbound];

export const KIND_NAMES = KINDS.map((k) => k.name) as [string, ...string[]];

const BY_NAME = new Map(KINDS.map((k) => [k.name, k]));
for (const k of [...KINDS, ...INBOUND_KINDS])
  if (!/^[a-z][a-z0-9_-]*$/.test(k.name)) throw new Error(`service kind name ${k.name} must be [a-z][a-z0-9_-]*`);
if (new Set([...KINDS, ...INBOUND_KINDS].map((k) => k.name)).size !== KINDS.length + INBOUND_KINDS.length)
  throw new Error('two service kinds share a name');

/** An inbound kind's providers in order: VTU_ROUTING's entry for it (checked at start), else its default. */
export const inboundRouting = (k: InboundKind, routing: Record<string, readonly string[]>): ProviderId[] =>
  [...(routing[k.name] ?? k.defaultRouting)].filter((p): p is ProviderId => (k.providers as readonly string[]).includes(p));

/**
 * Why VTU_ROUTING cannot be used for an inbound kind, or null (config.ts refuses to start): a provider without its
 * adapter, or its key spelled as its module or folder. Unnamed is fine: the default applies.
 */
export function inboundRoutingProblem(routing: Record<string, readonly string[]>): string | null {
  for (const k of INBOUND_KINDS) {
    for (const alias of k.aliases ?? []) if (alias in routing) return `VTU_ROUTING: ${k.label}'s key is "${k.name}", not "${alias}"`;
    const without = (routing[k.name] ?? []).filter((p) => !(k.providers as readonly string[]).includes(p));
    if (without.length)
      return `VTU_ROUTING: ${k.name} names provider ${without.map((p) => p.toUpperCase()).join(', ')}, which has no ${k.label} adapter (only ${k.providers.map((p) => p.toUpperCase()).join(', ')})`;
  }
  return null;
}

/** A kind's name in a purchase notice in `language` (its `names`), or undefined for a name no kind has. */
export const serviceName: ServiceNameOf = (service, language) => BY_NAME.get(service)?.names[language];

/** The kind named `name` (the `service` column), or undefined. */
export const findKind = (name: string): ServiceKind | undefined => BY_NAME.get(name);

/** The kind of a row or a request; an unknown name is a programming error (rows are written only for listed kinds). */
export function kindNamed(name: string): ServiceKind {
  const k = BY_NAME.get(name);
  if (!k) throw new Error(`unknown service kind ${name}`);
  return k;
}

/** A `service` input: one of the listed kinds (lower-cased). */
export const serviceInput = z
  .string({ error: 'service is required' })
  .trim()
  .toLowerCase()
  .pipe(z.enum(KIND_NAMES, { error: `service must be one of ${KIND_NAMES.join(', ')}` }));

/** The purchase operations, in the list's order. */
export const PURCHASE_OPERATIONS = KINDS.map((k) => k.purchase.name) as [string, ...string[]];

/** What "buy again" may name (`repeat.operation`): the purchase operations and the kinds' `repeatVia` operations. */
export const REPEAT_OPERATIONS = KINDS.flatMap((k) => [k.purchase.name, ...(k.repeatVia ? [k.repeatVia.operation] : [])]) as [
  string,
  ...string[],
];
