import type { KindIcon } from '../../../../app/kinds';

/** Its tile's icon on the service grid (web/src/app/kinds.ts): a 24 × 24 line drawing, a lightning bolt. */
export const icon: KindIcon = 'M13 3 4 14h7l-1 7 9-11h-7z';
