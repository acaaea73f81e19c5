import type { Pool, ResultSetHeader } from 'mysql2/promise';
import { idToBin } from '../ids.ts';
import { loadSql } from '../sql.ts';

// A tenant's task quota (`tenants.task_count` against `max_tasks`) lives in the global keyspace and
// its tasks and runs in their shards, so no transaction writes both (docs/sharding.md, "Non-hot
// paths"): a create reserves its places in a statement of its own (its own transaction on the
// tenant's row) before the shard's transaction, and gives them back if that fails; a delete gives
// its place back after its commit. A process that dies between the two leaves the count high,
// never low, until the reconciler's recount (task-count-recount.ts).

const RESERVE = loadSql(import.meta.url, './reserve-task-quotas.sql');
const RELEASE = loadSql(import.meta.url, './release-task-quota.sql');

type TenantId = string | Buffer;
const bin = (t: TenantId) => (typeof t === 'string' ? idToBin(t) : t);

/** Takes n places of the tenant's quota at once; false (nothing taken) when they do not all fit. */
export async function reserveTaskQuota(pool: Pool, tenant: TenantId, n = 1): Promise<boolean> {
  if (n <= 0) return true;
  const [res] = await pool.query<ResultSetHeader>(RESERVE, [n, bin(tenant), n]);
  return res.affectedRows === 1;
}

/** Gives n places back. */
export async function releaseTaskQuota(pool: Pool, tenant: TenantId, n = 1): Promise<void> {
  if (n <= 0) return;
  await pool.query(RELEASE, [n, n, bin(tenant)]);
}

/**
 * Runs `write` (the shard's transaction) with n places reserved before it; a `write` that throws
 * gives them back (best effort: a give-back that fails too leaves the count high for the recount)
 * and rethrows. Null when the places do not fit (`write` not run).
 */
export async function withTaskQuota<T>(
  pool: Pool,
  tenant: TenantId,
  n: number,
  write: () => Promise<T>,
): Promise<{ result: T } | null> {
  if (!(await reserveTaskQuota(pool, tenant, n))) return null;
  try {
    return { result: await write() };
  } catch (err) {
    await releaseTaskQuota(pool, tenant, n).catch(() => undefined);
    throw err;
  }
}
