-- The partition leases this replica still holds, share-locked until the batch commits. A lease
-- expired or taken over (holder changed, token bumped) is missing from the answer or carries
-- another token; a takeover's UPDATE waits for this transaction. So nothing is written for a
-- partition after its lease moved on (invariant 6).
-- Parameters: names (list), holder
SELECT name, token
  FROM leases
 WHERE name IN (?) AND holder = ? AND expires_at > NOW(3)
  LOCK IN SHARE MODE
