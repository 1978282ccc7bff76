import type { KindIcon } from '../../../../app/kinds';

/** Its tile's icon on the service grid (web/src/app/kinds.ts): a 24 × 24 line drawing, a television. */
export const icon: KindIcon = 'M5 7h14a2 2 0 0 1 2 2v9a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V9a2 2 0 0 1 2-2zM16 3l-4 4-4-4';
