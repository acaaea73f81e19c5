-- Moves the failure streak (dead scheduled occurrences in a row) of the tasks of finished jobs,
-- in the transaction that recorded their final outcomes, so the count holds across executors and
-- restarts and no outcome is counted twice (a fenced outcome is written once). Only jobs made
-- while their task paused after failures count (counts_failures). A success resets the streak;
-- outcomes recorded together are ordered by their occurrence (scheduled_for): the dead ones after
-- the batch's latest success of the task add to it. One assignment, so the unordered assignments
-- of a multi-table UPDATE do not matter.
-- Keyed by the jobs' partitions, which their tasks share (the shard key, docs/sharding.md): every
-- table read by it, and each join on it too, so vtgate sends the whole statement to one shard.
-- Parameters: partitions (list), ids (list), partitions (list), ids (list), partitions (list)
-- Returns: affected rows
UPDATE tasks t
  JOIN (SELECT s.task_id, s.`partition`,
               MAX(s.state = 'succeeded') AS reset,
               SUM(s.state = 'dead' AND (b.last_ok IS NULL OR s.scheduled_for > b.last_ok)) AS dead
          FROM jobs s
          JOIN (SELECT task_id, `partition`, MAX(IF(state = 'succeeded', scheduled_for, NULL)) AS last_ok
                  FROM jobs
                 WHERE `partition` IN (?) AND id IN (?) AND counts_failures = 1 AND state IN ('succeeded', 'dead')
                 GROUP BY task_id, `partition`) b ON b.task_id = s.task_id AND b.`partition` = s.`partition`
         WHERE s.`partition` IN (?) AND s.id IN (?) AND s.counts_failures = 1 AND s.state IN ('succeeded', 'dead')
         GROUP BY s.task_id, s.`partition`) v ON v.task_id = t.id AND v.`partition` = t.`partition`
   SET t.failure_streak = IF(v.reset = 1, 0, t.failure_streak) + v.dead
 WHERE t.`partition` IN (?) AND t.pause_after_failures IS NOT NULL
