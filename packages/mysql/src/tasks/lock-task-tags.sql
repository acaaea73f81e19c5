-- A task's tags as committed, share-locked while its stale tag index rows are deleted (task-store.ts,
-- pruneTaskTags): a change that adds a tag writes its row while holding the task's row lock, so it
-- cannot slip in between this read and the delete. Deleted tasks too (they keep no tag rows).
-- Keyed by the task's partition.
-- Parameters: partition, id
-- Returns: rows of (state, tags)
SELECT state, tags FROM tasks WHERE `partition` = ? AND id = ? LOCK IN SHARE MODE
