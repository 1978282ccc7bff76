import type { TFunction } from 'i18next';
import { operatorRoles, type OperatorRole } from '../api/operation-roles';

/**
 * What each role covers, in words (locales/console/operators.ts, `roleCovers`). Keyed by the generated `OperatorRole`, so
 * a role the service adds fails the typecheck there until it is described; which roles exist, and which screens and
 * buttons each opens, come only from the generated role table (the service's `x-roles`).
 */
/** The roles an admin can grant, the narrowest first: "Support: look-ups, KYC, …". */
export const roleOptions = (t: TFunction): { value: OperatorRole; label: string }[] =>
  [...operatorRoles].reverse().map((role) => ({ value: role, label: t(`console.operators.roleCovers.${role}`) }));
