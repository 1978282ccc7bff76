import type { enKit } from './kit-en';

/** Yorùbá: the shared components' words (the keys of kit-en.ts). */
export const yoKit: typeof enKit = {
  kit: {
    empty: 'Kò sí nǹkan níbí.',
    sortBy: 'Tò {{caption}}',
    pages: 'Àwọn ojú ìwé',
    noRows: 'Kò sí ìlà kankan',
    rows: 'Àwọn ìlà {{from}}–{{to}}',
    previous: 'Ojú ìwé tó ṣáájú',
    next: 'Ojú ìwé tó kàn',
    reason: 'Ìdí',
    note: 'Àkíyèsí (kò pọn dandan)',
  },
};
