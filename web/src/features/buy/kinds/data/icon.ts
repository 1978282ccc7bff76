import type { KindIcon } from '../../../../app/kinds';

/** Its tile's icon on the service grid (web/src/app/kinds.ts): a 24 × 24 line drawing, data going up and down. */
export const icon: KindIcon = 'M7 20V4M3 8l4-4 4 4M17 4v16M13 16l4 4 4-4';
