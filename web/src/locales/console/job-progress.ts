/** A long action's job: its progress, its result or failure, its download. */
export const jobProgress = {
  progress: '{{label}} progress',
  done: '{{done}} of {{total}} done',
  starting: 'Starting…',
  finished: ', finished {{when}}',
  failed: 'The job failed.',
  download: 'Download CSV',
  /** The words of a job's result (its numbers' names): reconciliation, a bulk requery, an export. */
  result: {
    checked: 'checked',
    settled: 'settled',
    failed: 'failed',
    abandoned: 'abandoned',
    errors: 'errors',
    notFound: 'not found',
    rows: 'rows',
    bytes: 'bytes',
    kind: 'kind',
    from: 'from',
    to: 'to',
  },
};
