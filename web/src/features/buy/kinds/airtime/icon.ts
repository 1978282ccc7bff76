import type { KindIcon } from '../../../../app/kinds';

/** Its tile's icon on the service grid (web/src/app/kinds.ts): a 24 × 24 line drawing, a phone ringing. */
export const icon: KindIcon =
  'M5 4h4l2 5-2.5 1.5a11 11 0 0 0 5 5L15 13l5 2v4a2 2 0 0 1-2 2A16 16 0 0 1 3 6a2 2 0 0 1 2-2M15 7a2 2 0 0 1 2 2M15 3a6 6 0 0 1 6 6';
