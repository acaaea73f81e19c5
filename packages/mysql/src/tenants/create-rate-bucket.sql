-- A tenant's first request: a full bucket less the token it takes. Ignored when another
-- replica created the bucket first (the caller then tries to take a token again). `now` is NULL in
-- production (the database clock).
-- Parameters: tenant_id, tokens, now
-- Returns: affected rows
INSERT IGNORE INTO tenant_rate_buckets (tenant_id, tokens, refilled_at)
VALUES (?, ?, COALESCE(CAST(? AS DATETIME(3)), NOW(3)))
