-- The head of the shard's tagged queue in the lane: the smallest pending tag of each priority, the
-- first entry of jobs_fair in the group's partitions for each (the smallest is the shard's virtual
-- time V). ORDER BY … LIMIT 1 rather than MIN(): with the group's condition on the index's last
-- column neither server answers MIN() from the index's end; both read the range in order and stop
-- at the first entry of the group (on one primary, the first entry). Each branch reads the table
-- (not a scalar subquery of a row without one), so vtgate sends them all to the group's shard.
-- Parameters: lane, partitions (list), lane, partitions, lane, partitions, lane, partitions
-- Returns: rows of (tag): one per priority with something tagged
(SELECT claim_tag AS tag FROM jobs WHERE claim_lane = ? AND priority = 0 AND claim_tag >= 0
    AND `partition` IN (?) ORDER BY claim_tag LIMIT 1)
UNION ALL
(SELECT claim_tag FROM jobs WHERE claim_lane = ? AND priority = 1 AND claim_tag >= 0
    AND `partition` IN (?) ORDER BY claim_tag LIMIT 1)
UNION ALL
(SELECT claim_tag FROM jobs WHERE claim_lane = ? AND priority = 2 AND claim_tag >= 0
    AND `partition` IN (?) ORDER BY claim_tag LIMIT 1)
UNION ALL
(SELECT claim_tag FROM jobs WHERE claim_lane = ? AND priority = 3 AND claim_tag >= 0
    AND `partition` IN (?) ORDER BY claim_tag LIMIT 1)
