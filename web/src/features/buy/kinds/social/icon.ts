import type { KindIcon } from '../../../../app/kinds';

/** Its tile's icon on the service grid (web/src/app/kinds.ts): a 24 × 24 line drawing, a rising line. */
export const icon: KindIcon = 'M3 17l6-6 4 4 8-8M14 7h7v7';
