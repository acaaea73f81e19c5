import type { Pool, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import { loadSql } from '../sql.ts';
import { withTransaction } from '../transaction.ts';

const SELECT_EXPIRED = loadSql(import.meta.url, './release-expired-select.sql');
const RELEASE_EXPIRED = loadSql(import.meta.url, './release-expired-update.sql');

/** Gives back one batch of expired claims; returns how many jobs changed. */
export async function releaseExpiredClaims(pool: Pool, limit: number): Promise<number> {
  return withTransaction(pool, async (conn) => {
    const [rows] = await conn.query<RowDataPacket[]>(SELECT_EXPIRED, [limit]);
    if (rows.length === 0) return 0;
    const [res] = await conn.query<ResultSetHeader>(RELEASE_EXPIRED, [rows.map((r) => [r.id, r.attempt])]);
    return res.affectedRows;
  });
}
