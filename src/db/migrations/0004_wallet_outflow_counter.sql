-- Issue 11: a wallet's outflow today (Lagos day) is kept on its account row, next to the balance, by the posting
-- that moves it. A debit's daily-limit check then reads the row it has locked anyway instead of summing today's
-- entries, and the check can sit in the posting statement itself. outflow_today is signed: refunds today of an
-- earlier day's purchase net it below zero, as the sum it replaces did; readers clamp at zero.
ALTER TABLE accounts ADD COLUMN outflow_day date;
ALTER TABLE accounts ADD COLUMN outflow_today bigint NOT NULL DEFAULT 0;

-- Existing wallets start with today's outflow as the entries say (the rule of src/ledger/ledger.ts).
UPDATE accounts a SET outflow_day = d.day, outflow_today = d.s
FROM (
  SELECT e.account_id, ((now() AT TIME ZONE 'UTC') + interval '1 hour')::date AS day, -SUM(e.amount) AS s
  FROM ledger_entries e JOIN ledger_transactions t ON t.id = e.transaction_id
  WHERE e.created_at >= (((now() AT TIME ZONE 'UTC') + interval '1 hour')::date - interval '1 hour') AT TIME ZONE 'UTC'
    AND ((t.type IN ('vtu_purchase', 'transfer_out', 'wallet_debit', 'marketplace_order', 'subscription_order') AND e.amount < 0)
      OR (t.type IN ('vtu_refund', 'order_refund') AND e.amount > 0))
  GROUP BY e.account_id
) d
WHERE a.id = d.account_id AND a.kind = 'wallet';
