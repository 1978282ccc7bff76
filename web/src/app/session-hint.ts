/**
 * Whether this browser may hold a session cookie (the cookie itself is HttpOnly): not a secret, set on sign-in and
 * removed with the session, so a first visit does not ask the service to refresh a session that cannot exist. The
 * entry reads it too (before the app loads): without it, the sign-in screen at / draws without the router.
 */
export const SESSION_HINT = 'vtu.session';

export const hasSessionHint = () => localStorage.getItem(SESSION_HINT) !== null;

/**
 * The first screen needs the router unless it is the sign-in screen at / (no session here to restore): that one
 * draws on its own, and the routes load when the person starts typing (main.tsx, App.tsx).
 */
export const firstScreenNeedsRouter = () => window.location.pathname !== '/' || hasSessionHint();
