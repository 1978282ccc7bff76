import type { AuditScope } from './registry.js';

/** What a handler told the registry about its admin call (targets, before/after), for the call's audit row. */
export interface AuditRecord extends AuditScope {
  readonly targets: { type: string; id: string }[];
  readonly changes: { before: unknown; after: unknown }[];
}

export function createAuditRecord(): AuditRecord {
  const targets: { type: string; id: string }[] = [];
  const changes: { before: unknown; after: unknown }[] = [];
  return {
    targets,
    changes,
    target(type, id) {
      if (!targets.some((t) => t.type === type && t.id === id)) targets.push({ type, id });
    },
    change(before, after) {
      changes.push({ before, after });
    },
  };
}
