-- Which of the given jobs still have a row in MySQL (MySQL is authoritative while it has one).
-- Parameters: ids (list)
-- Returns: rows of (id)
SELECT id FROM jobs WHERE id IN (?)
