-- The database clock (invariant 1): the one `now` decisions use. A test may pass the instant to
-- use instead, so it can step time forward without sleeping; production passes NULL. The CAST
-- keeps the result a DATETIME(3) whichever branch answers.
-- Parameters: now (NULL in production)
-- Returns: rows of (db_now); one row
SELECT COALESCE(CAST(? AS DATETIME(3)), NOW(3)) AS db_now
