/** The banners of settings that weaken this deployment, on every console screen. */
export const warnings = {
  OPERATOR_2FA_OPTIONAL: 'Operators can act without a second factor',
};
