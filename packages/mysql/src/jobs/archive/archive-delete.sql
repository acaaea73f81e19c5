-- Deletes archived jobs, their attempts and their tag index rows (docs/tags.md), only where the job is still the terminal row that
-- was written to history (same attempt, still terminal): a job redriven meanwhile stays. The id
-- list lets the server walk the primary key; the (id, attempt) pairs are the fence. Keyed by the
-- group the jobs were selected in, every table by its own `partition` (one shard on Vitess).
-- Parameters: partitions (list), ids (list), rows ((id, attempt) list)
-- Returns: affected rows
DELETE j, a, t
  FROM jobs j
  LEFT JOIN job_attempts a ON a.`partition` = j.`partition` AND a.job_id = j.id
  LEFT JOIN job_tags t ON t.`partition` = j.`partition` AND t.job_id = j.id
 WHERE j.`partition` IN (?) AND j.id IN (?) AND (j.id, j.attempt) IN (?) AND j.state IN ('succeeded', 'cancelled', 'dead')
