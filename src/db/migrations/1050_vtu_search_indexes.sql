-- Operator transaction search (issue 30, adminSearchTransactions): a purchase found by the number it was for. The
-- recipient (airtime/data phone, meter, smartcard, account) and the notification phone of electricity/betting each
-- lead an index with created_at, so a search by phone reads only that number's purchases, newest first. Reference,
-- user (vtu_transactions_user_idx) and date range (vtu_transactions_dashboard_idx) searches have their indexes.
CREATE INDEX vtu_transactions_recipient_idx ON vtu_transactions (recipient, created_at DESC, id DESC);
CREATE INDEX vtu_transactions_phone_idx ON vtu_transactions (phone, created_at DESC, id DESC) WHERE phone IS NOT NULL;
