import { describe, expect, it } from 'vitest';
import { allOperations } from '../../src/modules/index.js';
import { KINDS, KIND_NAMES, serviceInput } from '../../src/modules/vtu/kinds/index.js';
import { transactionOutput } from '../../src/modules/vtu/view.js';

// The open service model (issue 32 item 1): everything that lists the kinds derives from kinds/index.ts. These checks
// hold for every kind in the list, so a kind added with a gap (an operation not registered, a routed provider without
// an adapter) fails here, not in production.
const byName = new Map(allOperations.map((op) => [op.name, op]));

describe('service kinds', () => {
  it.each(KINDS.map((k) => [k.name, k] as const))('%s: its purchase is registered with the PIN, Tier 1 and money gates', (_, kind) => {
    const op = byName.get(kind.purchase.name);
    expect(op, `${kind.purchase.name} is not registered`).toBeDefined();
    expect(op!.suffix).toBe('BearerVTU');
    expect(op!.method).toBe('POST');
    expect(op!.gates).toEqual({ money: true, pin: true, kycTier: 1 });
    expect(op!.rateLimit).toBe('money');
    expect(Object.keys(op!.input.shape)).toContain('pin');
    expect(op!.output.shape.transaction).toBe(transactionOutput);
  });

  it.each(KINDS.map((k) => [k.name, k] as const))('%s: its operations are registered; its routed providers have its adapter', (_, kind) => {
    for (const o of kind.operations) {
      expect(byName.get(o.name)?.suffix, `${o.name} is not registered`).toBe('BearerVTU');
      if (o.catalogue) expect(byName.get(o.name)!.cacheSeconds).toBe(1800);
    }
    expect(kind.defaultRouting.length).toBeGreaterThan(0);
    for (const p of kind.defaultRouting) expect(kind.adapters[p], `${kind.name} is routed to ${p} without an adapter there`).toBeDefined();
  });

  it('names are unique; the service input, the operations and repeat.operation follow the list', () => {
    expect(new Set(KIND_NAMES).size).toBe(KINDS.length);
    for (const name of KIND_NAMES) expect(serviceInput.parse(name.toUpperCase())).toBe(name);
    expect(serviceInput.safeParse('nothing-sold').success).toBe(false);
    const names = allOperations.map((op) => op.name);
    expect(new Set(names).size).toBe(names.length);
    const repeat = transactionOutput.shape.repeat.shape.operation;
    for (const kind of KINDS) expect(repeat.safeParse(kind.purchase.name).success).toBe(true);
  });
});
