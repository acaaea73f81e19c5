-- A finished run that an operator's retry re-runs part of is running again: failed or cancelled,
-- or succeeded (a skipped node of a succeeded run may be re-run too; its quota was given back
-- when it succeeded and is taken again, so it must run again to give it back once more).
-- Keyed by the run's partition (docs/sharding.md).
-- Parameters: partition, id
-- Returns: affected rows
UPDATE workflows
   SET state = 'running', finished_at = NULL, updated_at = NOW(3)
 WHERE `partition` = ? AND id = ? AND state IN ('succeeded', 'failed', 'cancelled')
