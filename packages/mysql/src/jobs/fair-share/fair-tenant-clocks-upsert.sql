-- The tenants' finish tags after a tagging batch, one statement for the batch.
-- Parameters: rows ((tenant_id, lane, vt) list)
-- Returns: affected rows
INSERT INTO tenant_fair_clocks (tenant_id, lane, vt) VALUES ?
ON DUPLICATE KEY UPDATE vt = VALUES(vt)
