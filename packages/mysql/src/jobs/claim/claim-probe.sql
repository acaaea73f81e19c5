-- Whether a lane has any job a claim could take: a plain read (no transaction, no lock) of one
-- entry of jobs_claim, covering, one range per priority over run_at (since_us before now, up to
-- now + lead), LIMIT 1. An idle lane asks this before claiming, so its empty polls are one
-- statement instead of a claim's transaction (and, for a fair lane, a tagging pass's too). Untagged
-- jobs are pending too: when this finds nothing, there is nothing to tag either.
-- since_us bounds how far back it looks. After a drain the head of a lane's range is a run of
-- entries already claimed (delete-marked, kept until purge removes them, which at a peak lags by
-- tens of thousands), and a read from the head walks every one of them: measured, 8% of MariaDB's
-- time in the peak's window (docs/performance.md). So an idle lane mostly asks about the last two
-- seconds, where a job just due is, and from the head (since_us covering any run_at) once a second.
-- Parameters: lane, since_us, lead_us
-- Returns: one row (due = 1), or none
SELECT 1 AS due
  FROM jobs
 WHERE claim_lane = ? AND priority IN (0, 1, 2, 3)
   AND run_at > NOW(3) - INTERVAL ? MICROSECOND AND run_at <= NOW(3) + INTERVAL ? MICROSECOND
 LIMIT 1
