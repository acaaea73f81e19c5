-- Frees the flow control holds of ended calls, after their outcome committed, each only if that
-- attempt still holds it (a lost claim's late outcome leaves its job's new hold alone).
-- Parameters: rows ((job_id, attempt) list)
-- Returns: affected rows
DELETE FROM flow_holds
 WHERE (job_id, attempt) IN (?)
