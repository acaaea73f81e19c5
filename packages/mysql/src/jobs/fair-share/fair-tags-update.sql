-- Gives each job of the batch its start tag, for the attempt it is pending in. Conditional: a job
-- claimed, cancelled or tagged meanwhile keeps what it has.
-- Parameters: rows (derived: id, tag)
-- Returns: affected rows
UPDATE jobs j
  JOIN (:rows) v ON j.id = v.id
   SET j.fair_tag = v.tag, j.fair_tag_attempt = j.attempt
 WHERE j.state = 'pending' AND j.claim_tag IS NULL
