/** A long action's job: its progress, its result or failure, its download. */
export const jobProgress = {
  progress: '{{label}} progress',
  done: '{{done}} of {{total}} done',
  starting: 'Starting…',
  finished: ', finished {{when}}',
  failed: 'The job failed.',
  download: 'Download CSV',
};
