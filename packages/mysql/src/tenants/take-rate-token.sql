-- Takes one token from a tenant's bucket: capacity `rate`, refilled at `rate` tokens a second by
-- the database clock, so every API replica shares one limit. Matches no row when less than one
-- token is left. SET runs left to right: tokens is computed from the old refilled_at. `now` is
-- NULL in production (the database clock); a test passes the instant to step time forward.
-- Parameters: rate, now, rate, now, tenant_id, rate, now, rate
-- Returns: affected rows
UPDATE tenant_rate_buckets
   SET tokens = LEAST(?, tokens + TIMESTAMPDIFF(MICROSECOND, refilled_at, COALESCE(CAST(? AS DATETIME(3)), NOW(3)))
                           * ? / 1000000) - 1,
       refilled_at = COALESCE(CAST(? AS DATETIME(3)), NOW(3))
 WHERE tenant_id = ?
   AND LEAST(?, tokens + TIMESTAMPDIFF(MICROSECOND, refilled_at, COALESCE(CAST(? AS DATETIME(3)), NOW(3)))
                 * ? / 1000000) >= 1
