import * as api from './calls';

/**
 * Signing in with an e-mailed code, for both apps (the customer's sign-in and the operator console's): one place
 * that asks the service, so the two sign-in screens differ only in what they show.
 */
export const sendLoginCode = (email: string) => api.sendLoginOtp({ email });
/** The code checked: the session to hand to the auth module (`useAuth().signedIn`). */
export const verifyLoginCode = (email: string, code: string) => api.verifyLoginOtp({ email, code });
