-- A replica leaving on shutdown: the others count one member fewer at once and rebalance.
-- Parameters: name, holder
-- Returns: affected rows
DELETE FROM leases WHERE name = ? AND holder = ?
