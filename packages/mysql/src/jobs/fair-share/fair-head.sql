-- The head of the lane's tagged queue: the smallest pending tag of each priority, one index dive
-- each on jobs_fair (the smallest is the fleet's virtual time V).
-- Parameters: lane, lane, lane, lane
-- Returns: rows of (tag): NULL for a priority with nothing tagged
SELECT (SELECT MIN(claim_tag) FROM jobs WHERE claim_lane = ? AND priority = 0 AND claim_tag >= 0) AS tag
UNION ALL
SELECT (SELECT MIN(claim_tag) FROM jobs WHERE claim_lane = ? AND priority = 1 AND claim_tag >= 0)
UNION ALL
SELECT (SELECT MIN(claim_tag) FROM jobs WHERE claim_lane = ? AND priority = 2 AND claim_tag >= 0)
UNION ALL
SELECT (SELECT MIN(claim_tag) FROM jobs WHERE claim_lane = ? AND priority = 3 AND claim_tag >= 0)
