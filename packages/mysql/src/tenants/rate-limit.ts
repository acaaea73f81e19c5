import type { Pool, ResultSetHeader } from 'mysql2/promise';
import { idToBin } from '../ids.ts';
import { loadSql } from '../sql.ts';

const TAKE = loadSql(import.meta.url, './take-rate-token.sql');
const CREATE = loadSql(import.meta.url, './create-rate-bucket.sql');

/**
 * Takes one request's token from the tenant's bucket (`ratePerSecond` a second, bursts of one
 * second's worth), shared by every API replica through MySQL. False: over the limit. `at`: the
 * instant to refill to instead of the database clock (a test stepping time; production: null).
 */
export async function takeRateToken(
  pool: Pool,
  tenantId: string,
  ratePerSecond: number,
  at: Date | null = null,
): Promise<boolean> {
  const id = idToBin(tenantId);
  const take = async () => {
    const params = [ratePerSecond, at, ratePerSecond, at, id, ratePerSecond, at, ratePerSecond];
    const [res] = await pool.query<ResultSetHeader>(TAKE, params);
    return res.affectedRows === 1;
  };
  if (await take()) return true;
  const [created] = await pool.query<ResultSetHeader>(CREATE, [id, ratePerSecond - 1, at]);
  if (created.affectedRows === 1) return true;
  // The bucket exists: the first take found it empty, or ran before a concurrent first request
  // created it. One more take tells the two apart.
  return take();
}
