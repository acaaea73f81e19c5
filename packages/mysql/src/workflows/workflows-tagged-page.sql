-- A page of a tenant's live runs with every tag of a filter (docs/tags.md), newest first by
-- creation: a range of workflow_tags (tenant_id, tag, created_at, workflow_id) for one of the
-- filter's tags walked backwards, each run read by its primary key and kept when its tags hold
-- the whole filter, it is live and state and name match.
-- Parameters: tenant_id, tag, from, cursor_at, cursor_at, cursor_at, cursor_id, filter (JSON object),
--             state, state, name, name, limit
-- Returns: rows as workflows-page.sql
SELECT STRAIGHT_JOIN w.id, w.name, w.state, w.paused, w.failure_policy, w.max_parallel, w.node_count,
       w.edge_count, w.deadline_at, w.metadata, w.tags, w.created_at, w.updated_at, w.finished_at
  FROM workflow_tags wt
  JOIN workflows w FORCE INDEX (PRIMARY) ON w.id = wt.workflow_id
 WHERE wt.tenant_id = ? AND wt.tag = ? AND wt.created_at >= ? AND wt.created_at <= ?
   AND (wt.created_at < ? OR (wt.created_at = ? AND wt.workflow_id < ?))
   AND JSON_CONTAINS(w.tags, ?) AND w.archived_at IS NULL
   AND (? IS NULL OR w.state = ?) AND (? IS NULL OR w.name = ?)
 ORDER BY wt.created_at DESC, wt.workflow_id DESC
 LIMIT ?
