import { createContext, useContext } from 'react';

/** The signed-in operator's roles (the console's frame provides them), for a screen that shows links to others. */
export const OperatorRoles = createContext<readonly string[]>([]);
export const useOperatorRoles = () => useContext(OperatorRoles);

/** Whether an operator with `roles` opens a screen meant for `screenRoles` (admin opens every screen). */
export const rolesOpen = (roles: readonly string[], screenRoles: readonly string[]) =>
  roles.includes('admin') || screenRoles.some((r) => roles.includes(r));
