/** "Turn on alerts on this device": the console's browser subscribed to the operators' alerts by web push. */
export const alertsOnDevice = {
  turnOn: 'Turn on alerts on this device',
  on: 'Alerts are on for this device: work that waits too long is pushed here as well as e-mailed.',
  blocked: 'This browser blocks notifications from this site: allow them in its site settings, then try again.',
  unsupported: 'This browser cannot receive push notifications; the alerts still come by e-mail.',
  failed: 'Alerts could not be turned on: {{error}}',
};
