import { operatorRoles, type OperatorRole } from '../api/operation-roles';

/**
 * What each role covers, in words. Keyed by the generated `OperatorRole`, so a role the service adds fails the
 * typecheck here until it is described; which roles exist, and which screens and buttons each opens, come only
 * from the generated role table (the service's `x-roles`).
 */
const COVERS: Record<OperatorRole, string> = {
  admin: 'everything',
  finance: 'money, reconciliation, floats, exports',
  support: 'look-ups, KYC, support, broadcasts',
};

/** The roles an admin can grant, the narrowest first: "Support: look-ups, KYC, …". */
export const roleOptions = (): { value: OperatorRole; label: string }[] =>
  [...operatorRoles].reverse().map((role) => ({ value: role, label: `${role[0].toUpperCase()}${role.slice(1)}: ${COVERS[role]}` }));
