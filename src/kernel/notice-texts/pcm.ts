import type { NoticeTexts } from './types.js';

/** Nigerian Pidgin notification wordings (issue 29), written once: the service words push, e-mail and SMS with them and the app's inbox (web/src/locales/notices-pcm.ts) reads the same object. */
export const pcm = {
  notice: {
    topup_credited: { title: 'Wallet don get money', body: '{{amount}} don enter your wallet.' },
    purchase_delivered: { title: '{{service}} don land', body: 'Your {{amount}} {{service}} for {{recipient}} don land.' },
    purchase_delivered_token: {
      title: '{{service}} don land',
      body: 'Your {{amount}} {{service}} for {{recipient}} don land. Token: {{token}}',
    },
    purchase_failed: { title: 'The buying no work', body: 'Your {{amount}} {{service}} for {{recipient}} no work.' },
    purchase_refunded: {
      title: 'The buying no work: money don return',
      body: 'Your {{amount}} {{service}} for {{recipient}} no work; {{amount}} don return your wallet.',
    },
    transfer_sent: { title: 'Transfer don go', body: 'You send {{amount}} give @{{to}}.' },
    transfer_received: { title: 'Money don enter', body: 'You collect {{amount}} from {{from}}.' },
    transfer_received_note: { title: 'Money don enter', body: 'You collect {{amount}} from {{from}}. Note: {{note}}' },
    kyc_approved: { title: 'Verification don pass', body: 'Your tier {{tier}} verification don pass.' },
    kyc_rejected: {
      title: 'Verification no pass',
      body: 'Your tier {{tier}} verification no pass: {{reason}}. You fit submit again.',
    },
    login_new_sign_in: {
      title: 'Person just sign in to your account',
      body: 'Person sign in with {{browser}} for {{os}}, {{when}} (Lagos time). If no be you, sign in, change your PINs, and talk to support.',
    },
    login_new_sign_in_town: {
      title: 'Person just sign in to your account',
      body: 'Person sign in with {{browser}} for {{os}} near {{town}}, {{when}} (Lagos time). If no be you, sign in, change your PINs, and talk to support.',
    },
    login_failures: {
      title: 'Sign-in wey no work for your account',
      body: 'Dem try sign in to your account {{failures}} times and e no work for the last 15 minutes. If no be you, keep your PINs and codes secret; you fit change your login PIN for Settings.',
    },
    login_credential: {
      title: 'Security matter: {{change}}',
      body: '{{change}} for your account on {{when}} (Lagos time). If no be you, use the "no be me" link for the e-mail wey we send you about this change, inside 7 days: e go sign you out everywhere and undo the sign-in settings wey dem change.',
    },
    login_reset_requested: {
      title: 'Security: person ask to reset two-factor',
      body: 'Person ask to reset two-factor authentication on {{when}} (Lagos time). E go off on {{resetAt}} (Lagos time) unless dem cancel the reset with code wey we send to your e-mail. If no be you, use the "no be me" link for the e-mail wey we send you, inside 7 days.',
    },
    login_signed_out: {
      title: 'Security: we don sign you out everywhere',
      body: 'You talk say no be you make one change. We don sign out every session and off PIN login. Sign in again with code wey we send to your e-mail, then check your PINs and two-factor settings.',
    },
    login_signed_out_removal: {
      title: 'Security: we don sign you out everywhere',
      body: 'You talk say no be you make one change. We don sign out every session and off PIN login. We go remove the authenticator app from your account on {{removalAt}} (Lagos time); if na you set am, sign in and cancel the removal with code from that app.',
    },
    login_removal_cancelled: {
      title: 'Security: your authenticator app go stay',
      body: 'Person enter code from your authenticator app, so we don cancel the removal wey we plan. If no be you, talk to support.',
    },
    support_reply: { title: 'Support don answer', body: '{{text}}' },
    savings_matured: { title: 'Your savings lock don reach time', body: '{{total}} ({{interest}} interest) don return your wallet.' },
    loan_repaid: { title: 'Loan don finish', body: 'You don pay your loan finish. Thank you!' },
    loan_due_soon: {
      title: 'Loan time don near',
      body: 'You go pay {{outstanding}} on {{dueDate}}. We go collect am from your wallet that day.',
    },
    loan_overdue: {
      title: 'Loan time don pass',
      body: 'Your loan time don pass: {{outstanding}} still dey. Money wey enter your wallet go pay am by itself.',
    },
    loan_overdue_fee: {
      title: 'Loan time don pass',
      body: 'Your loan time don pass: {{outstanding}} still dey, plus {{lateFee}} late fee. Money wey enter your wallet go pay am by itself.',
    },
    loan_still_overdue: {
      title: 'Loan still never finish',
      body: '{{outstanding}} still dey. Money wey enter your wallet go pay am by itself, or pay am now.',
    },
    referral_unlocked: { title: 'Referral bonus don open', body: '{{amount}} referral bonus don enter your wallet.' },
    referral_milestone: {
      title: 'You don reach referral level',
      body: '{{threshold}} friends don join and buy with your code: {{amount}} don add to your referral bonus.',
    },
    schedule_failed: { title: 'Scheduled buying no work', body: 'Your scheduled {{service}} for {{phone}} no go through.' },
    schedule_paused: {
      title: 'Scheduled buying no work',
      body: 'Your scheduled {{service}} for {{phone}} no go through. We don pause the schedule after {{failures}} times wey e fail back to back; start am again when e don set.',
    },
    report_resolved: { title: 'We don settle your report', body: '{{text}}' },
    order_fulfilled: { title: 'Order don complete', body: 'Your order {{reference}} don complete.' },
    order_refunded: {
      title: 'Order no complete',
      body: 'Your order {{reference}} no fit complete; the money don return your wallet.',
    },
    wallet_credited: { title: 'Wallet don change', body: 'Operator add {{amount}}: {{reason}}' },
    wallet_debited: { title: 'Wallet don change', body: 'Operator remove {{amount}}: {{reason}}' },
    account_frozen: {
      title: 'We don hold your account small',
      body: 'Payment from your wallet don pause while we dey check your account. You fit still sign in and see everything. Talk to support to know more.',
    },
    account_unfrozen: {
      title: 'Your account don dey work again',
      body: 'We don remove the hold for your account: payments and scheduled buying dey work again.',
    },
    airtime_cash_credited: {
      title: 'Airtime don change to money',
      body: '{{amount}} don enter your wallet for the {{received}} airtime wey land.',
    },
    airtime_cash_partial: {
      title: 'Part of the airtime don change',
      body: 'Na only {{received}} out of the {{expected}} airtime land; {{amount}} don enter your wallet.',
    },
    airtime_cash_closed: {
      title: 'Airtime-to-cash request don close',
      body: 'No airtime from your {{expected}} request reach us, so nothing enter.',
    },
    flight_cancelled: {
      title: 'Flight don cancel: we don refund',
      body: 'Your flight {{route}} don cancel; {{amount}} don enter back your wallet (the fare cancellation fee na {{fee}}).',
    },
    withdrawal_paid: {
      title: 'The money don land for bank',
      body: 'We don send {{amount}} go {{name}}, {{bank}}.',
    },
    withdrawal_refunded: {
      title: 'Withdrawal no work: money don return',
      body: 'The {{amount}} wey you wan comot go {{bank}} no go; {{total}} don return to your wallet.',
    },
  },
  noticeChange: {
    login_pin_set: 'Login PIN don set',
    login_pin_changed: 'Your login PIN don change',
    login_pin_disabled: 'PIN login don off',
    transaction_pin_set: 'Transaction PIN don set',
    transaction_pin_changed: 'Your transaction PIN don change',
    totp_enrolled: 'Authenticator app don set',
    totp_removed: 'Two-factor authentication don off',
    totp_reset_requested: 'Person ask to reset two-factor authentication',
    totp_reset_done: 'Two-factor authentication don reset',
    phone_changed: 'Your phone number don change',
    passkey_added: 'Dem add passkey to your account',
    passkey_removed: 'Dem remove passkey from your account',
    recovery_code_used: 'Person use recovery code take sign in',
    recovery_codes_regenerated: 'New recovery codes don make (the old ones no dey work again)',
  },
} satisfies NoticeTexts;
