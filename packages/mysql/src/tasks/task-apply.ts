import type { ApplyPlan, Task } from '@dsched/domain';
import type { Pool } from 'mysql2/promise';
import { idToBin } from '../ids.ts';
import { databaseNow } from '../pool.ts';
import { loadSql } from '../sql.ts';
import { withTransaction } from '../transaction.ts';
import { keyTaken, writeTaskChange } from './task-changes.ts';
import { releaseTaskQuota, reserveTaskQuota } from './task-quota.ts';
import { rowToTask, type TaskRow, taskToRow, writeTaskTags } from './task-store.ts';

// Schedules as code: a tenant's keyed tasks read under their row locks, the caller's plan (the
// domain's planApply) made from them with the database clock, and the whole plan written in the
// same transaction, or nothing of it; the tenant's quota beside it (task-quota.ts).

const SELECT_KEYED = loadSql(import.meta.url, './select-keyed-tasks.sql');
// The creates in one multi-row insert: insert-task.sql's row, as many times as there are tasks.
const INSERT_TASKS = loadSql(import.meta.url, './insert-task.sql').replace('VALUES (?)', 'VALUES ?');

export interface ApplyArgs {
  tenantId: string;
  /** null: every keyed task of the tenant (prune); otherwise these keys. */
  keys: string[] | null;
  partitionOf: (taskId: string) => number;
  decide: (keyed: Task[], now: Date) => ApplyPlan;
  /** Thrown (and the transaction rolled back) when the creates do not fit the tenant's maxTasks. */
  quotaExceeded: () => Error;
}

export async function applyTaskPlan(pool: Pool, args: ApplyArgs): Promise<ApplyPlan> {
  // The quota's net change (creates less deletes) is reserved on the tenant's row in a statement
  // of its own while the shard's transaction is open, and given back if that transaction does not
  // commit; a net give-back is made after the commit (task-quota.ts): never one transaction over
  // the global keyspace and a shard.
  let reserved = 0;
  const giveBack = async () => {
    const n = reserved;
    reserved = 0;
    await releaseTaskQuota(pool, args.tenantId, n).catch(() => undefined);
  };
  let plan: ApplyPlan;
  try {
    plan = await withTransaction(pool, async (conn) => {
      await giveBack(); // a retried transaction's earlier reservation
      let keyed: Task[] = [];
      if (args.keys === null || args.keys.length > 0) {
        const sql = SELECT_KEYED.replace('%KEYS%', args.keys === null ? '' : 'AND live_key IN (?)');
        const [rows] = await conn.query<TaskRow[]>(sql, [
          idToBin(args.tenantId),
          ...(args.keys === null ? [] : [args.keys]),
        ]);
        keyed = rows.map(rowToTask);
      }
      const decided = args.decide(keyed, await databaseNow(conn));
      if (decided.result.dryRun) return decided;
      for (const { readVersion, change } of decided.changes) {
        await writeTaskChange(conn, readVersion, change, args.partitionOf(change.task.id));
      }
      if (decided.creates.length > 0) {
        // Deletes count as freed for the creates: the reservation is the net.
        const net = decided.creates.length - releasesOf(decided);
        if (net > 0) {
          if (!(await reserveTaskQuota(pool, args.tenantId, net))) throw args.quotaExceeded();
          reserved = net;
        }
        try {
          await conn.query(INSERT_TASKS, [decided.creates.map((t) => taskToRow(t, args.partitionOf(t.id)))]);
        } catch (err) {
          throw keyTaken(err, 'of a task created meanwhile') ?? err;
        }
        for (const t of decided.creates) await writeTaskTags(conn, t, false);
      }
      return decided;
    });
  } catch (err) {
    await giveBack();
    throw err;
  }
  if (!plan.result.dryRun) {
    const freed = releasesOf(plan) - plan.creates.length;
    if (freed > 0) await releaseTaskQuota(pool, args.tenantId, freed);
  }
  return plan;
}

/** The plan's changes that give a place of the quota back (deletes). */
function releasesOf(plan: ApplyPlan): number {
  return plan.changes.filter((c) => c.change.releasesQuota).length;
}
