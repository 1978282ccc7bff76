-- A read model vtu publishes: what another module may read of a purchase (the wallet's activity lines word a
-- purchase from its service and recipient). Other modules read this view, never vtu_transactions itself.
CREATE VIEW vtu_purchase_facts AS SELECT id, user_id, service, recipient, status FROM vtu_transactions;
