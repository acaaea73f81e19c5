import type { Pool, RowDataPacket } from 'mysql2/promise';
import { loadSql, withRows } from '../sql.ts';
import { withTransaction } from '../transaction.ts';
import { partitionsOfRuns, type RunKey, runKeys } from './workflow-runs.ts';

// A run's place in its tenant's quota, given back after the run's end committed (decision D61):
// `tenants` is in the global keyspace and the run in a shard, so the end only marks the run's row
// (run-quota-mark.sql, in endRuns), and after the commit the ender, or else the reconciler's pass,
// clears the mark under the run's lock in a transaction on the shard and then gives the places
// back on the tenants' rows. Only the transaction that cleared a mark gives its place back: never
// twice. A process that dies after clearing and before giving back leaves the count high (the
// recount's); one that dies before clearing leaves the mark, which the reconciler's pass finishes.

const PEEK = loadSql(import.meta.url, './run-quota-peek.sql');
const MARKED = loadSql(import.meta.url, './run-quota-marked.sql');
const LOCK = loadSql(import.meta.url, './run-quota-lock.sql');
const CLEAR = loadSql(import.meta.url, './run-quota-clear.sql');
const QUOTA_RELEASE = loadSql(import.meta.url, './workflow-quota-release.sql');

/** Gives back the places of those of `runs` whose end owes one; returns how many it gave. */
export async function releaseRunQuotas(pool: Pool, runs: readonly RunKey[]): Promise<number> {
  if (runs.length === 0) return 0;
  const [marked] = await pool.query<RowDataPacket[]>(PEEK, [partitionsOfRuns(runs), runs.map((r) => r.id)]);
  return releaseRunQuotasOf(pool, runKeys(marked));
}

/**
 * The reconciler's pass over a group of partitions: the runs whose end still owes a place (the
 * ender died after the run's commit), up to `limit`. Returns how many places it gave back.
 */
export async function releaseMarkedRunQuotas(
  pool: Pool,
  partitions: readonly number[],
  limit: number,
): Promise<number> {
  const [marked] = await pool.query<RowDataPacket[]>(MARKED, [partitions, limit]);
  return releaseRunQuotasOf(pool, runKeys(marked));
}

/**
 * Gives back the places of those of `runs`, read as marked a moment before, that are still marked
 * under their locks: another giver may have cleared one since that read (run-quota-lock.sql's
 * `quota_release = 1`), and that place is not given back again. Returns how many it gave.
 */
export async function releaseRunQuotasOf(pool: Pool, runs: readonly RunKey[]): Promise<number> {
  if (runs.length === 0) return 0;
  const cleared = await withTransaction(pool, async (conn) => {
    const partitions = partitionsOfRuns(runs);
    const [rows] = await conn.query<RowDataPacket[]>(LOCK, [partitions, runs.map((r) => r.id)]);
    if (rows.length === 0) return [];
    await conn.query(CLEAR, [partitions, rows.map((r) => r.id as Buffer)]);
    return rows;
  });
  if (cleared.length === 0) return 0;
  const byTenant = new Map<string, { tenant: Buffer; n: number }>();
  for (const r of cleared) {
    const key = (r.tenant_id as Buffer).toString('hex');
    const entry = byTenant.get(key) ?? { tenant: r.tenant_id as Buffer, n: 0 };
    entry.n++;
    byTenant.set(key, entry);
  }
  const release = withRows(
    QUOTA_RELEASE,
    ['tenant_id', 'n'],
    [...byTenant.values()].map((t) => [t.tenant, t.n]),
  );
  await pool.query(release.sql, release.params);
  return cleared.length;
}
