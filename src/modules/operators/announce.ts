import type { AuthUser } from '../../kernel/actor.js';
import { adminAddresses } from './operator-reads.js';
import type { OperatorsUseCaseDeps } from './deps.js';

/** What an admin call changed, as its audit row has it: announced to every admin (registry `announce`). */
export interface AnnouncedChange {
  readonly targets: readonly { type: string; id: string }[];
  readonly changes: readonly { before: unknown; after: unknown }[];
}

const lagosTime = (at: Date) => new Date(at.getTime() + 3_600_000).toISOString().replace('T', ' ').slice(0, 16);

/** E-mails every admin about an authority change (registry `announce`), in the caller's transaction. */
export async function announce(deps: OperatorsUseCaseDeps, actor: AuthUser, operation: string, change: AnnouncedChange): Promise<void> {
  const { db, clock } = deps;
  const to = await adminAddresses(deps);
  const lines = [
    `${operation} was run by ${actor.email} on ${lagosTime(clock.now())} (Lagos time).`,
    ...change.targets.map((t) => `Target: ${t.type} ${t.id}`),
    ...change.changes.map((c) => `Before: ${JSON.stringify(c.before)}\nAfter: ${JSON.stringify(c.after)}`),
    'If you did not expect this change, check the audit log in the console now and revoke what is wrong.',
  ];
  for (const address of to)
    await deps.outbox.sendEmail(db, {
      to: address,
      subject: `Operator change: ${operation} by ${actor.email}`,
      text: lines.join('\n'),
    });
}
