-- The flow control keys of a claim's candidates, locked for this claim by primary key: while a
-- claim holds a key, no other claim takes a job of it, so its count of calls in flight and its
-- rate state are the fleet's. SKIP LOCKED: a key another claimer holds is not waited for; its jobs
-- are deferred a moment instead.
-- Parameters: keys ((tenant_id, flow_key) list)
-- Returns: rows of (tenant_id, flow_key, tat)
SELECT tenant_id, flow_key, tat
  FROM flow_keys
 WHERE (tenant_id, flow_key) IN (?)
   FOR UPDATE SKIP LOCKED
