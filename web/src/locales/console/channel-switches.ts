/** The channels' switches (ChannelSwitches.tsx) and the channels' names as operators read them. */
export const channelSwitches = {
  title: 'Channels',
  app: 'App and API',
  state: '{{channel}}: {{state}}',
  on: 'on',
  off: 'off',
  turnOff: 'Turn {{channel}} off',
  turnOn: 'Turn {{channel}} on',
};
