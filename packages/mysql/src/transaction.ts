import type { Pool, PoolConnection } from 'mysql2/promise';

const DEADLOCK = 1213;
const LOCK_WAIT_TIMEOUT = 1205;

export function isRetryableTxError(err: unknown): boolean {
  const errno = (err as { errno?: number }).errno;
  return errno === DEADLOCK || errno === LOCK_WAIT_TIMEOUT;
}

// Runs fn in one short transaction. A deadlock rolled the whole transaction back and a lock-wait
// timeout rolled back the statement: either way the transaction is rolled back and retried whole.
// The pool does not end transactions on release, so every path ends it explicitly.
export async function withTransaction<T>(
  pool: Pool,
  fn: (conn: PoolConnection) => Promise<T>,
  options: { retries?: number } = {},
): Promise<T> {
  const retries = options.retries ?? 3;
  for (let attempt = 0; ; attempt++) {
    const conn = await pool.getConnection();
    try {
      await conn.beginTransaction();
      const result = await fn(conn);
      await conn.commit();
      return result;
    } catch (err) {
      await conn.rollback().catch(() => undefined);
      if (attempt < retries && isRetryableTxError(err)) continue;
      throw err;
    } finally {
      conn.release();
    }
  }
}

// Runs fn's reads in one read-only transaction that sees one consistent snapshot: a read made of
// several statements (a row and its counts) never mixes states from before and after another
// transaction's commit. Sessions run at READ COMMITTED (pool.ts), where each statement takes its own
// snapshot, so this one transaction is REPEATABLE READ (SET TRANSACTION without SESSION: the next
// transaction only); both servers take it and START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY.
export async function withSnapshot<T>(pool: Pool, fn: (conn: PoolConnection) => Promise<T>): Promise<T> {
  const conn = await pool.getConnection();
  try {
    await conn.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
    await conn.query('START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY');
    const result = await fn(conn);
    await conn.commit();
    return result;
  } catch (err) {
    await conn.rollback().catch(() => undefined);
    throw err;
  } finally {
    conn.release();
  }
}
