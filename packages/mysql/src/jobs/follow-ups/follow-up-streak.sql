-- Moves the failure streak of the tasks of finished jobs by what follow-up-streak-select.sql read
-- in the same transaction, which recorded their final outcomes, so the count holds across
-- executors and restarts and no outcome is counted twice (a fenced outcome is written once): a
-- task whose batch had a success starts again from zero, and adds its dead occurrences after it.
-- One single-table UPDATE by the tasks' ids, a CASE on the id for each (withCaseGroups: `WHEN id
-- IN (…) THEN …` per distinct value), not a join to a derived table, which vtgate v24 refuses in
-- an UPDATE on a sharded table (D58). One assignment. Keyed by the jobs' partitions, which their
-- tasks share (docs/sharding.md): one shard through vtgate.
-- Parameters: groups (task_id -> 0, the tasks reset), groups (task_id -> dead), partitions (list),
--   task ids (list)
-- Returns: affected rows
UPDATE tasks t
   SET t.failure_streak = CASE :groups_reset ELSE t.failure_streak END + CASE :groups_dead ELSE 0 END
 WHERE t.`partition` IN (?) AND t.id IN (?) AND t.pause_after_failures IS NOT NULL
