-- The tenants' finish tags on the shard after a tagging batch, one statement for the batch, each
-- row carrying the shard's anchor.
-- Parameters: rows ((anchor, tenant_id, lane, vt) list)
-- Returns: affected rows
INSERT INTO tenant_fair_clocks (`partition`, tenant_id, lane, vt) VALUES ?
ON DUPLICATE KEY UPDATE vt = VALUES(vt)
