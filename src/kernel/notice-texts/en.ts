import type { NoticeTexts } from './types.js';

/** English notification wordings (issue 29), written once: the service words push, e-mail and SMS with them and the app's inbox (web/src/locales/notices-en.ts) reads the same object. */
export const en = {
  notice: {
    topup_credited: { title: 'Wallet funded', body: '{{amount}} was added to your wallet.' },
    purchase_delivered: { title: '{{service}} delivered', body: 'Your {{amount}} {{service}} for {{recipient}} was delivered.' },
    purchase_delivered_token: {
      title: '{{service}} delivered',
      body: 'Your {{amount}} {{service}} for {{recipient}} was delivered. Token: {{token}}',
    },
    purchase_failed: { title: 'Purchase failed', body: 'Your {{amount}} {{service}} for {{recipient}} failed.' },
    purchase_refunded: {
      title: 'Purchase failed: refunded',
      body: 'Your {{amount}} {{service}} for {{recipient}} failed; {{amount}} is back in your wallet.',
    },
    transfer_sent: { title: 'Transfer sent', body: 'You sent {{amount}} to @{{to}}.' },
    transfer_received: { title: 'Money received', body: 'You received {{amount}} from {{from}}.' },
    transfer_received_note: { title: 'Money received', body: 'You received {{amount}} from {{from}}. Note: {{note}}' },
    kyc_approved: { title: 'Verification approved', body: 'Your tier {{tier}} verification was approved.' },
    kyc_rejected: {
      title: 'Verification not approved',
      body: 'Your tier {{tier}} verification was not approved: {{reason}}. You can submit again.',
    },
    login_new_sign_in: {
      title: 'New sign-in to your account',
      body: 'New sign-in on {{browser}} on {{os}}, {{when}} (Lagos time). If this was not you, sign in and change your PINs, and contact support.',
    },
    login_new_sign_in_town: {
      title: 'New sign-in to your account',
      body: 'New sign-in on {{browser}} on {{os}} near {{town}}, {{when}} (Lagos time). If this was not you, sign in and change your PINs, and contact support.',
    },
    login_failures: {
      title: 'Failed sign-in attempts on your account',
      body: 'There were {{failures}} failed sign-in attempts on your account in the last 15 minutes. If this was not you, keep your PINs and codes private; you may change your login PIN in Settings.',
    },
    login_credential: {
      title: 'Security: {{change}}',
      body: '{{change}} on your account on {{when}} (Lagos time). If this wasn\'t you, use the "this wasn\'t me" link in the e-mail we sent you about this change, within 7 days: it signs you out everywhere and undoes the changed sign-in settings.',
    },
    login_reset_requested: {
      title: 'Security: two-factor reset requested',
      body: 'A reset of two-factor authentication was requested on {{when}} (Lagos time). It will be turned off on {{resetAt}} (Lagos time) unless the reset is cancelled with a code sent to your e-mail. If this wasn\'t you, use the "this wasn\'t me" link in the e-mail we sent you, within 7 days.',
    },
    login_signed_out: {
      title: 'Security: you were signed out everywhere',
      body: 'You reported a change you did not make. Every session was signed out and PIN login was turned off. Sign in again with a code sent to your e-mail, then review your PINs and two-factor settings.',
    },
    login_signed_out_removal: {
      title: 'Security: you were signed out everywhere',
      body: 'You reported a change you did not make. Every session was signed out and PIN login was turned off. The authenticator app will be removed from your account on {{removalAt}} (Lagos time); if you set it up yourself, sign in and cancel the removal with a code from that app.',
    },
    login_removal_cancelled: {
      title: 'Security: your authenticator app stays',
      body: 'A code from your authenticator app was entered, so its scheduled removal was cancelled. If this was not you, contact support.',
    },
    support_reply: { title: 'Support replied', body: '{{text}}' },
    savings_matured: { title: 'Savings lock matured', body: '{{total}} ({{interest}} interest) is back in your wallet.' },
    loan_repaid: { title: 'Loan repaid', body: 'Your loan is fully repaid. Thank you!' },
    loan_due_soon: {
      title: 'Loan due soon',
      body: '{{outstanding}} is due on {{dueDate}}. We collect it from your wallet on the due date.',
    },
    loan_overdue: {
      title: 'Loan overdue',
      body: 'Your loan is overdue: {{outstanding}} is outstanding. Money added to your wallet repays it automatically.',
    },
    loan_overdue_fee: {
      title: 'Loan overdue',
      body: 'Your loan is overdue: {{outstanding}} is outstanding, including a {{lateFee}} late fee. Money added to your wallet repays it automatically.',
    },
    loan_still_overdue: {
      title: 'Loan still overdue',
      body: '{{outstanding}} is still outstanding. Money added to your wallet repays it automatically, or repay it now.',
    },
    referral_unlocked: { title: 'Referral bonus unlocked', body: '{{amount}} of referral bonus is now in your wallet.' },
    referral_milestone: {
      title: 'Referral milestone reached',
      body: '{{threshold}} friends joined and bought through your code: {{amount}} added to your referral bonus.',
    },
    schedule_failed: { title: 'Scheduled purchase failed', body: 'Your scheduled {{service}} for {{phone}} did not go through.' },
    schedule_paused: {
      title: 'Scheduled purchase failed',
      body: 'Your scheduled {{service}} for {{phone}} did not go through. The schedule is paused after {{failures}} failures in a row; resume it when fixed.',
    },
    report_resolved: { title: 'Your report was resolved', body: '{{text}}' },
    order_fulfilled: { title: 'Order fulfilled', body: 'Your order {{reference}} has been fulfilled.' },
    order_refunded: {
      title: 'Order not completed',
      body: 'Your order {{reference}} could not be completed; the money was refunded to your wallet.',
    },
    wallet_credited: { title: 'Wallet adjusted', body: 'An operator credited {{amount}}: {{reason}}' },
    wallet_debited: { title: 'Wallet adjusted', body: 'An operator debited {{amount}}: {{reason}}' },
    account_frozen: {
      title: 'Your account is on hold',
      body: 'Payments from your wallet are paused while we review your account. You can still sign in and see everything. Contact support to learn more.',
    },
    account_unfrozen: {
      title: 'Your account is active again',
      body: 'The hold on your account was lifted: payments and scheduled purchases work again.',
    },
    airtime_cash_credited: {
      title: 'Airtime converted',
      body: '{{amount}} was added to your wallet for the {{received}} of airtime that arrived.',
    },
    airtime_cash_partial: {
      title: 'Airtime converted in part',
      body: 'Only {{received}} of the {{expected}} airtime arrived; {{amount}} was added to your wallet.',
    },
    airtime_cash_closed: {
      title: 'Airtime-to-cash request closed',
      body: 'No airtime from your {{expected}} request reached us, so nothing was credited.',
    },
    flight_cancelled: {
      title: 'Flight cancelled: refunded',
      body: "Your flight {{route}} was cancelled; {{amount}} is back in your wallet (the fare's cancellation fee was {{fee}}).",
    },
    withdrawal_paid: {
      title: 'Withdrawal paid',
      body: '{{amount}} was sent to {{name}}, {{bank}}.',
    },
    withdrawal_refunded: {
      title: 'Withdrawal failed: refunded',
      body: 'Your withdrawal of {{amount}} to {{bank}} did not go through; {{total}} is back in your wallet.',
    },
  },
  noticeChange: {
    login_pin_set: 'A login PIN was set up',
    login_pin_changed: 'Your login PIN was changed',
    login_pin_disabled: 'PIN login was turned off',
    transaction_pin_set: 'A transaction PIN was set up',
    transaction_pin_changed: 'Your transaction PIN was changed',
    totp_enrolled: 'An authenticator app was set up',
    totp_removed: 'Two-factor authentication was turned off',
    totp_reset_requested: 'A reset of two-factor authentication was requested',
    totp_reset_done: 'Two-factor authentication was reset',
    phone_changed: 'Your phone number was changed',
    passkey_added: 'A passkey was added to your account',
    passkey_removed: 'A passkey was removed from your account',
    recovery_code_used: 'A recovery code was used to sign in',
    recovery_codes_regenerated: 'New recovery codes were made (the old ones no longer work)',
  },
} satisfies NoticeTexts;
