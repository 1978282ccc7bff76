import { createContext, useContext } from 'react';
import { operationRoles, type AdminOperation } from '../api/operation-roles';

/** The signed-in operator's roles (the console's frame provides them). */
export const OperatorRoles = createContext<readonly string[]>([]);
export const useOperatorRoles = () => useContext(OperatorRoles);

/**
 * Whether an operator holding `roles` may call an admin operation, by the roles the service declares for it (the
 * generated `operationRoles`, from the registry's `x-roles`; issue 44): never a copy of the service's rules.
 */
export const mayCall = (roles: readonly string[], op: AdminOperation) => operationRoles[op].some((r) => roles.includes(r));

/** `can('adminApproveRequest')`: whether the signed-in operator may call the operation (a screen shows only what it may). */
export function useCan() {
  const roles = useOperatorRoles();
  return (op: AdminOperation) => mayCall(roles, op);
}

export type { AdminOperation };
