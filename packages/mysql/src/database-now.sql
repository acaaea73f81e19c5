-- The database clock (invariant 1): the one `now` decisions use.
-- Parameters: none
-- Returns: now (DATETIME(3)); one row
SELECT NOW(3) AS now
