import type { enKit } from './kit-en';

/** Naijá (Pidgin): the shared components' words (the keys of kit-en.ts). */
export const pcmKit: typeof enKit = {
  kit: {
    empty: 'Nothing dey here.',
    sortBy: 'Arrange {{caption}}',
    pages: 'Di pages',
    noRows: 'No line dey',
    rows: 'Line {{from}}–{{to}}',
    previous: 'Page wey don pass',
    next: 'Page wey follow',
    reason: 'Wetin cause am',
    note: 'Small talk (if you like)',
  },
};
