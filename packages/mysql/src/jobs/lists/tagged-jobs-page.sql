-- A tenant's live jobs with every tag of a filter (docs/tags.md), newest first, strictly before the
-- cursor (at, id) and not before `from`: a range of job_tags (tenant_id, tag, scheduled_for, job_id)
-- for one of the filter's tags walked backwards, each job read by its primary key and kept when
-- its tags hold the whole filter and it is in the state asked for (if any). The tag's live jobs in
-- the range bound the walk; finished ones leave MySQL (and job_tags) soon after they finish.
-- Parameters: tenant_id, tag, from, cursor_at, cursor_at, cursor_at, cursor_id, filter (JSON object),
--             state (or NULL), state, limit
-- Returns: rows of (id)
SELECT STRAIGHT_JOIN jt.job_id AS id
  FROM job_tags jt
  JOIN jobs j FORCE INDEX (PRIMARY) ON j.id = jt.job_id
 WHERE jt.tenant_id = ? AND jt.tag = ? AND jt.scheduled_for >= ? AND jt.scheduled_for <= ?
   AND (jt.scheduled_for < ? OR (jt.scheduled_for = ? AND jt.job_id < ?))
   AND JSON_CONTAINS(j.tags, ?)
   AND (? IS NULL OR j.state = ?)
 ORDER BY jt.scheduled_for DESC, jt.job_id DESC
 LIMIT ?
