/** The last step-up grant, in memory only (never stored): reused until it expires, forgotten on sign-out. */
let lastGrant: { token: string; expiresAt: number } | null = null;

export const rememberGrant = (token: string, expiresAt: string) => void (lastGrant = { token, expiresAt: Date.parse(expiresAt) });
export const validGrant = () => (lastGrant && lastGrant.expiresAt - 5_000 > Date.now() ? lastGrant.token : undefined);
export const forgetGrant = () => void (lastGrant = null);
