import { markActivity } from '../api/client';
import * as ops from '../api/operations';

/**
 * The operator's own actions in this browser (issue 41): pointer presses, keys, the wheel and history navigation,
 * never network traffic. An operator's session ends after OPERATOR_IDLE_MINUTES without them. The service moves its
 * idle clock only on a request not marked `X-Activity: background`: in the console the first request after an action
 * goes unmarked and every other one is marked (api/client.ts asks here), so polling, refetches, the heartbeat and the
 * silent refresh never keep an untouched tab alive; the console signs itself out when no action came for that long
 * (idle.ts). The last action's time is shared by the browser's tabs (localStorage): an idle tab does not end the
 * session a person is using in another.
 */
const SHARED_KEY = 'vtu.activity';
/**
 * The calls the app makes on its own timers: never a person's action, so they never report one. The waiting work
 * (adminDashboardQueues) is polled on every screen for the navigation's badges; the screen a person opens makes its
 * own calls.
 */
const AUTOMATIC = [ops.heartbeatSession, ops.refreshSession, ops.adminDashboardQueues];
/** Whether a call is one the app makes on its own timers (its writes change nothing an operator reads). */
export const isAutomatic = (url: string) => AUTOMATIC.some((path) => new URL(url, 'http://x').pathname === path);
// Opening or reloading the console is a person's navigation.
let last = Date.now();
let unreported = true;
let written = 0;

function personActed() {
  const now = Date.now();
  last = now;
  unreported = true;
  // At most once a second: a key held down repeats many times a second.
  if (now - written < 1000) return;
  written = now;
  try {
    localStorage.setItem(SHARED_KEY, String(now));
  } catch {
    // Storage full or refused: this tab still counts its own actions.
  }
}

let watching = false;
/** Starts listening for the person's actions and marking the console's requests (once; listeners capture, so a handler that stops propagation still counts). */
export function watchPersonActivity() {
  if (watching) return;
  watching = true;
  for (const type of ['pointerdown', 'keydown', 'wheel'] as const)
    window.addEventListener(type, personActed, { capture: true, passive: true });
  window.addEventListener('popstate', personActed);
  markActivity({
    // The first request after an action claims it and goes unmarked.
    take(url) {
      if (isAutomatic(url) || !unreported) return false;
      unreported = false;
      return true;
    },
    // That request never reached the service: the next one reports the action.
    giveBack: () => void (unreported = true),
  });
}

/** When the person last acted in any of this browser's tabs (ms since the epoch). */
export function lastPersonActivity(): number {
  const now = Date.now();
  const shared = Number(localStorage.getItem(SHARED_KEY)) || 0;
  // A time ahead of this clock (another tab's clock, a changed system time) would hold the idle end off.
  return Math.max(last, shared <= now ? shared : 0);
}

/** Whether the person acted since a request last told the service so. */
export const hasUnreportedActivity = () => unreported;
