-- Gives each job of the batch its start tag, for the attempt it is pending in. Conditional: a job
-- claimed, cancelled or tagged meanwhile keeps what it has. One single-table UPDATE keyed by the
-- group, each row's tag found by a binary search on its id (withSearch): vtgate refuses an UPDATE
-- joined to a derived table of literal rows on a sharded table (docs/sharding.md, D55).
-- Parameters: search (id, tag pairs), ids (list), partitions (list)
-- Returns: affected rows
UPDATE jobs
   SET fair_tag = :search, fair_tag_attempt = attempt
 WHERE id IN (?) AND `partition` IN (?) AND state = 'pending' AND claim_tag IS NULL
