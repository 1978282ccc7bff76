import type { Locator, Page } from '@playwright/test';

/**
 * The taps a person makes, counted the way they would count them on a phone:
 * - a tap on a button, a link, a chip or a PIN pad key is one tap (a key pressed on the PIN pad from a keyboard too);
 * - typing into a field is one tap, to put the cursor there, and none when the app already put the focus in it
 *   (the letters typed on the phone's keyboard are not counted: that is typing, not tapping);
 * - a one-time code typed into boxes that have the focus already costs no tap; the code is read from the message;
 * A permission the browser asks for (the camera) is given by the test's browser and not counted.
 */
export class Taps {
  readonly log: string[] = [];

  constructor(private readonly page: Page) {}

  get count() {
    return this.log.length;
  }

  async tap(target: Locator, what: string) {
    await target.click();
    this.log.push(what);
  }

  /** Types `value` into `field`: one tap to focus it unless the focus is there already. */
  async fill(field: Locator, value: string, what: string) {
    await field.waitFor();
    if (!(await hasFocus(field))) this.log.push(`${what} (focus)`);
    await field.fill(value);
  }

  /** A code typed into its boxes from the first one (the last digit submits it). */
  async code(firstBox: Locator, code: string, what: string) {
    await firstBox.waitFor();
    if (!(await hasFocus(firstBox))) await this.tap(firstBox, `${what} (focus)`);
    await this.page.keyboard.type(code, { delay: 30 });
  }

  /** The PIN on the on-screen pad, one tap a digit (the last digit submits). */
  async pin(digitLabel: (digit: string) => string, digits: string) {
    for (const d of digits) await this.tap(this.page.getByRole('button', { name: digitLabel(d), exact: true }), 'PIN digit');
  }
}

function hasFocus(field: Locator) {
  return field.evaluate((el) => el === document.activeElement);
}
