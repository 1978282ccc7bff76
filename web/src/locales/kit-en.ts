/** English: the shared components' words (web/src/components: DataTable, Pager, ReasonDialog), app and console alike. */
export const enKit = {
  kit: {
    empty: 'Nothing here.',
    sortBy: 'Sort {{caption}}',
    pages: 'Pages',
    noRows: 'No rows',
    rows: 'Rows {{from}}–{{to}}',
    previous: 'Previous page',
    next: 'Next page',
    reason: 'Reason',
    note: 'Note (optional)',
  },
};
