-- Writes an edited task, fenced by the version it was read at. reset_streak (0 or 1) starts the
-- count of dead occurrences in a row again (a resume).
-- Parameters: name, schedule, target, priority, lane, retry, misfire_policy, overlap_policy,
--             metadata, state, next_fire_at, version, updated_at, jitter_s, pause_after_failures,
--             callbacks, paused_reason, flow_control, workflow, task_key, tags, reset_streak, partition, id,
--             read_version
-- Returns: affected rows
UPDATE tasks
   SET name = ?, schedule = ?, target = ?, priority = ?, lane = ?, retry = ?, misfire_policy = ?,
       overlap_policy = ?, metadata = ?, state = ?, next_fire_at = ?, version = ?, updated_at = ?,
       jitter_s = ?, pause_after_failures = ?, callbacks = ?, paused_reason = ?, flow_control = ?, workflow = ?,
       task_key = ?, tags = ?,
       failure_streak = IF(? = 1, 0, failure_streak)
 WHERE `partition` = ? AND id = ? AND version = ?
