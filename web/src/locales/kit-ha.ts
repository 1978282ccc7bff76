import type { enKit } from './kit-en';

/** Hausa: the shared components' words (the keys of kit-en.ts). */
export const haKit: typeof enKit = {
  kit: {
    empty: 'Babu komai a nan.',
    sortBy: 'Jera {{caption}}',
    pages: 'Shafuka',
    noRows: 'Babu layi',
    rows: 'Layuka {{from}}–{{to}}',
    previous: 'Shafin baya',
    next: 'Shafi na gaba',
    reason: 'Dalili',
    note: 'Bayani (ba dole ba)',
  },
};
