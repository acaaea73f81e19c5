-- Skip records of a task that overlap [from, to) (primary key prefix, then a range).
-- Parameters: task_id, to, from, limit
-- Returns: rows of (skipped_from, skipped_to, reason)
SELECT skipped_from, skipped_to, reason
  FROM occurrence_skips
 WHERE task_id = ? AND skipped_from < ? AND skipped_to >= ?
 LIMIT ?
