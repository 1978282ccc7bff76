/**
 * What other modules may use of the identity module. Modules reach one another only through these files
 * (checked by dependency-cruiser); everything else in the folder is the module's own.
 */
export { createAttemptLimits } from './attempt-limits.js';
export type { AttemptLimit, AttemptLimits } from './attempt-limits.js';
export { forgetKnownDevices, registerKnownDevicesEnd } from './devices.js';
export type { DeviceClient } from './devices.js';
export { emailInput, otpCodeInput, phoneInput, sessionOutput, usernameInput } from './inputs.js';
export type { OtpService } from './otp.js';
export { PIN_LOCK_MS, PIN_MAX_ATTEMPTS, pinLockedError, wrongPinError } from './pins.js';
export type { PinService } from './pins.js';
export type { IdentityService, SessionView, UserRow } from './service.js';
/** Issue 43: the sign-in's second step makes its pending session active, in the step's own transaction. */
export { activatePendingSession, isSignInPending } from './sessions.js';
export {
  contactsOf,
  emailsOf,
  fillFullName,
  hasOtherVerifiedPhone,
  hasVerifiedPhone,
  lockUser,
  ownerOfVerifiedPhone,
  profileOf,
  scrub,
  setPhone,
  setTier,
  takeUsername,
  userIdByEmail,
  verifiedPhoneOf,
} from './users.js';
export type { PhoneOwner, UserProfile } from './users.js';
/** A broadcast's audience counted (its preview). */
export { countAccounts } from './audience.js';
export type { AccountsFilter } from './audience.js';
/** The customer search's look-up by profile name. */
export { userIdsNamed } from './names.js';
/** The users table's definition, for row types of reads that join it (RowOf). */
export type { users } from './schema.js';
