/** What a notification says and to whom: the unit of work's `notify` (src/platform/change.ts) takes these. */
export type NotificationKind =
  | 'topup_credited'
  | 'purchase_delivered'
  | 'purchase_failed'
  | 'purchase_refunded'
  | 'transfer_sent'
  | 'transfer_received'
  | 'kyc_decision'
  | 'login_alert'
  | 'support_reply'
  | 'savings_matured'
  | 'loan_due'
  | 'schedule_failed'
  | 'report_resolved'
  | 'order_update'
  | 'wallet_adjusted'
  | 'account_frozen'
  | 'account_unfrozen'
  | 'broadcast'
  | 'operator_alert'
  | 'general';

export interface NotificationInput {
  userId: string;
  kind: NotificationKind;
  title: string;
  body: string;
  data?: Record<string, unknown>;
  /**
   * Text for the e-mail only, after the body: never stored in the inbox row, pushed or sent by SMS. Recovery links
   * ("this wasn't me") go only to the mailbox: a push endpoint or an inbox can be another session's.
   */
  emailOnly?: string;
  /** Sent on every channel the owner has (e-mail, push, a verified phone by SMS), whatever their preferences. */
  everyChannel?: boolean;
}
