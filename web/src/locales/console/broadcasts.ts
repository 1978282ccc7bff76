/** Broadcasts and polls: the list by status, each one's live results, ending one early. */
export const broadcasts = {
  title: 'Broadcasts and polls',
  status: 'Status',
  statuses: { all: 'All', scheduled: 'Scheduled', active: 'Active', ended: 'Ended' },
  none: 'No broadcasts.',
  from: 'From {{when}}',
  to: ' to {{when}}',
  tier: ', customers of tier {{tier}} and up',
  everyone: ', everyone',
  pollResults: 'Poll results: {{question}}',
  votes: '{{question}} ({{total}} votes)',
  option: '{{label}}: {{votes}} ({{pct}}%)',
  optionBar: '{{label}}: {{pct}}%',
  end: 'End now',
};
