-- A page of a tenant's tasks with every tag of a filter, in id order from a keyset cursor: a range
-- of task_tags (tenant_id, tag, task_id) for one of the filter's tags, each task then read by its
-- primary key and kept when its tags hold the whole filter (JSON_CONTAINS of the filter object).
-- The markers after the state test are replaced by an optional "AND t.state = ?" and an optional
-- "AND t.live_key = ?".
-- Parameters: tenant_id, tag, after_id, filter (JSON object), [state], [key], limit
-- Returns: TaskRow
SELECT STRAIGHT_JOIN t.id, t.tenant_id, t.name, t.schedule, t.target, t.priority, t.lane, t.retry,
       t.misfire_policy, t.overlap_policy, t.metadata, t.state, t.next_fire_at, t.`partition`, t.version,
       t.created_at, t.updated_at, t.jitter_s, t.pause_after_failures, t.callbacks, t.paused_reason,
       t.flow_control, t.workflow, t.task_key, t.tags
  FROM task_tags tt
  JOIN tasks t FORCE INDEX (PRIMARY) ON t.id = tt.task_id
 WHERE tt.tenant_id = ? AND tt.tag = ? AND tt.task_id > ? AND JSON_CONTAINS(t.tags, ?)
   AND t.state <> 'deleted' %STATE% %KEY%
 ORDER BY tt.task_id
 LIMIT ?
