import type { PartitionGroup } from '@dsched/domain';
import type { Pool, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import { loadSql } from '../sql.ts';

// The reconciler's recount of the task quota (docs/sharding.md, "Non-hot paths"; D63). The count
// (`tenants.task_count`, dsched_global) is reserved before a task's or a run's transaction and given
// back after a delete's or a run's end (task-quota.ts, run-quota.ts), so at every moment it is at
// least what the tenant holds, and a process that dies between the two steps leaves it high for
// good. A page of tenants at a time: their counts read first, then what they hold (live tasks, runs
// holding a place) counted shard by shard (each statement keyed by one group's partitions), twice,
// `settle` apart. A tenant is lowered only when its two counts agree and are below the count read
// first, and only while the count is still that one (recount-set.sql): a create whose task commits
// between the two counts changes the second; one that reserves after the first read changes the
// count, and so does a give-back before the write. What it cannot see is an operation that takes
// longer than `settle` between its two steps (a create reserved before the page's read and
// committed after the second count, a delete committed before the first count and given back after
// the write): that one's place is lost, the count one low. Never raised, so a count the recount
// left low stays so (the tenant may hold one task over its quota), while a raise from a count
// caught mid-change would refuse the tenant's creates until the next pass.

const PAGE = loadSql(import.meta.url, './recount-tenants-page.sql');
const LIVE_TASKS = loadSql(import.meta.url, './recount-live-tasks.sql');
const LIVE_RUNS = loadSql(import.meta.url, './recount-live-runs.sql');
const SET = loadSql(import.meta.url, './recount-set.sql');

export interface RecountOptions {
  /** The partition groups, one per shard (the shard map's): every statement reads one group. */
  groups: readonly PartitionGroup[];
  /** The page starts after this tenant (null: the first). */
  after: Buffer | null;
  limit: number;
  /** The wait between the two counts (the reconciler's: RECONCILER_TASK_RECOUNT_SETTLE_MS). */
  settle: () => Promise<unknown>;
}

export interface RecountPass {
  /** The last tenant of a full page (the next page starts after it), null at the end. */
  nextAfter: Buffer | null;
  /** Tenants whose count was lowered to what was counted. */
  corrected: number;
}

/** What each tenant of `tenants` holds, summed over the groups (hex id → places). */
async function held(
  pool: Pool,
  groups: readonly PartitionGroup[],
  tenants: Buffer[],
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const { partitions } of groups) {
    for (const sql of [LIVE_TASKS, LIVE_RUNS]) {
      const [rows] = await pool.query<RowDataPacket[]>(sql, [partitions, tenants]);
      for (const r of rows) {
        const key = (r.tenant_id as Buffer).toString('hex');
        out.set(key, (out.get(key) ?? 0) + Number(r.n));
      }
    }
  }
  return out;
}

/** One page of the recount. */
export async function recountTaskCounts(pool: Pool, options: RecountOptions): Promise<RecountPass> {
  const [tenants] = await pool.query<RowDataPacket[]>(PAGE, [
    options.after ?? Buffer.alloc(16),
    options.limit,
  ]);
  if (tenants.length === 0) return { nextAfter: null, corrected: 0 };
  const ids = tenants.map((t) => t.id as Buffer);
  const first = await held(pool, options.groups, ids);
  await options.settle();
  const second = await held(pool, options.groups, ids);
  let corrected = 0;
  for (const t of tenants) {
    const key = (t.id as Buffer).toString('hex');
    const n = first.get(key) ?? 0;
    if (n !== (second.get(key) ?? 0) || n >= Number(t.task_count)) continue;
    const [res] = await pool.query<ResultSetHeader>(SET, [n, t.id, t.task_count]);
    corrected += res.affectedRows;
  }
  return { nextAfter: tenants.length === options.limit ? ids[ids.length - 1]! : null, corrected };
}

/** Every tenant's count recounted, a page at a time; returns how many were lowered. */
export async function recountAllTaskCounts(
  pool: Pool,
  options: Omit<RecountOptions, 'after' | 'groups'> & { groups: () => readonly PartitionGroup[] },
): Promise<number> {
  let after: Buffer | null = null;
  let corrected = 0;
  do {
    const pass = await recountTaskCounts(pool, { ...options, groups: options.groups(), after });
    corrected += pass.corrected;
    after = pass.nextAfter;
  } while (after);
  return corrected;
}
