-- Locks a tenant row for a key rotation, so two rotations of one tenant run one after the other.
-- Parameters: id
-- Returns: id; zero or one
SELECT id FROM tenants WHERE id = ? FOR UPDATE
