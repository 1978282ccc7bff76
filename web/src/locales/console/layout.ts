/** The console's frame: its skip link, menu button and navigation's name. */
export const layout = {
  skip: 'Skip to content',
  menu: 'Console menu',
  menuWaiting: 'Console menu, {{n}} waiting',
  navigation: 'Console',
};
