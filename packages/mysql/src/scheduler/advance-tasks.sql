-- Moves next_fire_at of a whole batch in one statement, by a join to a derived table of
-- (id, next_fire_at) pairs built as SELECT ? , ? UNION ALL ... (portable: no VALUES ROW). The
-- rows are locked by the due-set read; next_fire_at only moves forward (a NULL means the
-- schedule is exhausted), so an occurrence whose job was archived is never materialised again.
-- Parameters: the derived table's (id, next_fire_at) pairs, then updated_at
UPDATE tasks t
  JOIN (%VALUES%) v ON v.id = t.id
   SET t.next_fire_at = v.next_fire_at, t.updated_at = ?
 WHERE t.state = 'active' AND (v.next_fire_at IS NULL OR t.next_fire_at < v.next_fire_at)
