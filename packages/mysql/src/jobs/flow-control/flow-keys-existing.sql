-- Which of a claim's flow control keys have their row yet (a plain read, no lock): a key missing
-- here is created after the claim commits (flow-keys-create.sql), its jobs deferred until then.
-- Parameters: keys ((tenant_id, flow_key) list)
-- Returns: rows of (tenant_id, flow_key)
SELECT tenant_id, flow_key
  FROM flow_keys
 WHERE (tenant_id, flow_key) IN (?)
