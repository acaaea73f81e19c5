-- How the finished jobs of this transaction move their tasks' failure streaks (dead scheduled
-- occurrences in a row), read before follow-up-streak.sql writes them (two statements for the
-- batch: an UPDATE joined to a derived table is refused by vtgate v24 on a sharded table, D58).
-- Only jobs made while their task paused after failures count (counts_failures). A success resets
-- the streak; outcomes recorded together are ordered by their occurrence (scheduled_for): the dead
-- ones after the batch's latest success of the task add to it. The jobs are this transaction's
-- (their final outcomes recorded and locked by it), so what is read holds until the write.
-- Keyed by the jobs' partitions, which their tasks share (the shard key, docs/sharding.md): every
-- table read by it, and each join on it too, so vtgate sends the whole statement to one shard.
-- Parameters: partitions (list), ids (list), partitions (list), ids (list)
-- Returns: task_id, reset (0/1), dead (one row per task)
SELECT s.task_id,
       MAX(s.state = 'succeeded') AS reset,
       SUM(s.state = 'dead' AND (b.last_ok IS NULL OR s.scheduled_for > b.last_ok)) AS dead
  FROM jobs s
  JOIN (SELECT task_id, `partition`, MAX(IF(state = 'succeeded', scheduled_for, NULL)) AS last_ok
          FROM jobs
         WHERE `partition` IN (?) AND id IN (?) AND counts_failures = 1 AND state IN ('succeeded', 'dead')
         GROUP BY task_id, `partition`) b ON b.task_id = s.task_id AND b.`partition` = s.`partition`
 WHERE s.`partition` IN (?) AND s.id IN (?) AND s.counts_failures = 1 AND s.state IN ('succeeded', 'dead')
 GROUP BY s.task_id, s.`partition`
