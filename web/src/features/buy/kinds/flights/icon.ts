import type { KindIcon } from '../../../../app/kinds';

/** Its tile's icon on the service grid (web/src/app/kinds.ts): a 24 × 24 line drawing, a plane. */
export const icon: KindIcon = 'M16 10h4a2 2 0 0 1 0 4h-4l-4 7H9l2-7H7l-2 2H2l2-4-2-4h3l2 2h4L9 3h3z';
