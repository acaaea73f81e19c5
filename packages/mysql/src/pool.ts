import mysql, { type Pool, type PoolConnection } from 'mysql2/promise';
import { loadSql } from './sql.ts';

export type { Pool, PoolConnection, ResultSetHeader, RowDataPacket } from 'mysql2/promise';

// Every connection runs at READ COMMITTED in UTC (invariant 9 and the one-clock rule): the
// session statements are queued on the connection before the pool hands it out.
export function createPool(url: string, options: { connectionLimit?: number } = {}): Pool {
  const u = new URL(url);
  const pool = mysql.createPool({
    host: u.hostname,
    port: Number(u.port || 3306),
    user: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password),
    database: u.pathname.slice(1),
    connectionLimit: options.connectionLimit ?? 10,
    maxIdle: options.connectionLimit ?? 10,
    enableKeepAlive: true,
    timezone: 'Z',
    dateStrings: false,
    // BIGINT as a number while it is exact (a string past 2^53): MySQL types comparisons, IF(),
    // LEAST() and DIV as BIGINT where MariaDB says INT, so with strings for every BIGINT the same
    // statement gave 1 on MariaDB and "1" on MySQL. The project's BIGINT columns (fair-share
    // virtual times, lease tokens) stay far below 2^53 and are read with Number() either way.
    supportBigNumbers: true,
    bigNumberStrings: false,
    connectTimeout: 5_000,
    namedPlaceholders: false,
    // mysql2 captures a stack trace on every query, begin and commit to put the caller's frames in
    // a failed query's error: a few percent of the executor's CPU at a peak (docs/performance.md).
    // Errors keep their message, code, errno and the statement (err.sql).
    trace: false,
  });
  pool.pool.on('connection', (conn) => {
    conn.query('SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED');
    conn.query("SET time_zone = '+00:00'");
  });
  return pool;
}

export async function pingMysql(pool: Pool): Promise<void> {
  await pool.query('SELECT 1');
}

const DATABASE_NOW = loadSql(import.meta.url, './database-now.sql');

/** database-now.sql. */
interface ClockRow extends mysql.RowDataPacket {
  db_now: Date;
}

/**
 * MySQL's clock, the only clock scheduling decisions use (invariant 1). `at` stands in for it in
 * tests that step time forward instead of sleeping; production never passes it.
 */
export async function databaseNow(pool: Pool | PoolConnection, at: Date | null = null): Promise<Date> {
  const [rows] = await pool.query<ClockRow[]>(DATABASE_NOW, [at]);
  return rows[0]!.db_now;
}

/** A pool whose server answered; a failure names the variable that points at it. */
export async function connectMysql(
  url: string,
  connectionLimit: number,
  variable = 'DATABASE_URL',
): Promise<Pool> {
  const pool = createPool(url, { connectionLimit });
  try {
    await pingMysql(pool);
  } catch (err) {
    await pool.end().catch(() => undefined);
    throw new Error(`${variable}: cannot reach MySQL (${(err as Error).message})`, { cause: err });
  }
  return pool;
}
