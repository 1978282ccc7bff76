import type { KindIcon } from '../../../../app/kinds';

/** Its tile's icon on the service grid (web/src/app/kinds.ts): a 24 × 24 line drawing, a banknote. */
export const icon: KindIcon =
  'M4 6h16a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2V8a2 2 0 0 1 2-2zM9.5 12a2.5 2.5 0 1 0 5 0a2.5 2.5 0 1 0-5 0M6 12h.01M18 12h.01';
