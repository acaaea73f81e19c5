-- Rows for flow control keys seen for the first time, after the claim that found them missing
-- committed (so the claim never waits on a duplicate key's lock). Idempotent.
-- Parameters: rows ((tenant_id, flow_key) list)
-- Returns: affected rows
INSERT IGNORE INTO flow_keys (tenant_id, flow_key) VALUES ?
