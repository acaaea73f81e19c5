-- Moves next_fire_at of a whole batch in one statement: a join to the JSON array of
-- [task_id_hex, next_fire_at_ms] pairs (milliseconds since the epoch; just [task_id_hex] when the
-- schedule is exhausted: a missing element reads as NULL). The rows are locked by the due-set
-- read; next_fire_at only moves forward, so an occurrence whose job was archived is never
-- materialised again. JSON_TABLE: MySQL 8.0.4+ and MariaDB 10.6+.
-- Parameters: document, updated_at
-- Returns: affected rows
UPDATE tasks t
  JOIN (SELECT UNHEX(j.id) AS id,
               TIMESTAMPADD(MICROSECOND, j.next_ms * 1000, TIMESTAMP '1970-01-01 00:00:00') AS next_fire_at
          FROM JSON_TABLE(?, '$[*]' COLUMNS (
                 id CHAR(32) PATH '$[0]',
                 next_ms BIGINT PATH '$[1]')) AS j) AS v ON v.id = t.id
   SET t.next_fire_at = v.next_fire_at, t.updated_at = ?
 WHERE t.state = 'active' AND (v.next_fire_at IS NULL OR t.next_fire_at < v.next_fire_at)
