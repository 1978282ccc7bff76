import type { KindIcon } from '../../../../app/kinds';

/** Its tile's icon on the service grid (web/src/app/kinds.ts): a 24 × 24 line drawing, a die. */
export const icon: KindIcon = 'M6 3h12a3 3 0 0 1 3 3v12a3 3 0 0 1-3 3H6a3 3 0 0 1-3-3V6a3 3 0 0 1 3-3zM8 8h.01M12 12h.01M16 16h.01';
