-- Writes an edited task, fenced by the version it was read at.
-- Parameters: name, schedule, target, priority, lane, retry, misfire_policy, overlap_policy,
--             metadata, state, next_fire_at, version, updated_at, id, read_version
-- Returns: affected rows
UPDATE tasks
   SET name = ?, schedule = ?, target = ?, priority = ?, lane = ?, retry = ?, misfire_policy = ?,
       overlap_policy = ?, metadata = ?, state = ?, next_fire_at = ?, version = ?, updated_at = ?
 WHERE id = ? AND version = ?
