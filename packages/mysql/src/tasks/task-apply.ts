import type { ApplyPlan, Task } from '@dsched/domain';
import type { Pool } from 'mysql2/promise';
import { binToId, idToBin } from '../ids.ts';
import { databaseNow } from '../pool.ts';
import { loadSql } from '../sql.ts';
import { withTransaction } from '../transaction.ts';
import { keyTaken, writeTaskChange } from './task-changes.ts';
import { releaseTaskQuota, reserveTaskQuota } from './task-quota.ts';
import { rowToTask, type TaskRow, taskToRow } from './task-store.ts';
import { addTaskTags, pruneTaskTags, tagsAdded, tagsDropped } from './task-tags.ts';

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
  // Tasks whose tag index rows are pruned after the commit (task-store.ts), by id: their partition.
  let prune = new Map<string, number>();
  try {
    plan = await withTransaction(pool, async (conn) => {
      await giveBack(); // a retried transaction's earlier reservation
      prune = new Map();
      let keyed: Task[] = [];
      // Each keyed task's partition as its row has it (the shard key its change is keyed by).
      const rowPartition = new Map<string, number>();
      if (args.keys === null || args.keys.length > 0) {
        const sql = SELECT_KEYED.replace('%KEYS%', args.keys === null ? '' : 'AND live_key IN (?)');
        const [rows] = await conn.query<TaskRow[]>(sql, [
          idToBin(args.tenantId),
          ...(args.keys === null ? [] : [args.keys]),
        ]);
        keyed = rows.map(rowToTask);
        for (const r of rows) rowPartition.set(binToId(r.id), Number(r.partition));
      }
      const decided = args.decide(keyed, await databaseNow(conn));
      if (decided.result.dryRun) return decided;
      const before = new Map(keyed.map((t) => [t.id, t]));
      for (const { readVersion, change } of decided.changes) {
        const partition = rowPartition.get(change.task.id) ?? args.partitionOf(change.task.id);
        const was = before.get(change.task.id) ?? null;
        // The rows of the tags it gains before the commit, under its row lock (and before its
        // replacement jobs copy them, insert-job-tags.sql); the dropped pruned after.
        if (tagsAdded(was, change.task)) await addTaskTags(pool, change.task);
        if (!was || tagsDropped(was, change.task)) prune.set(change.task.id, partition);
        await writeTaskChange(conn, readVersion, change, partition);
      }
      if (decided.creates.length > 0) {
        // Deletes count as freed for the creates: the reservation is the net.
        const net = decided.creates.length - releasesOf(decided);
        if (net > 0) {
          if (!(await reserveTaskQuota(pool, args.tenantId, net))) throw args.quotaExceeded();
          reserved = net;
        }
        for (const t of decided.creates) {
          // Pruned after the commit only if the create did not commit (none of its rows then).
          if (t.tags !== null) prune.set(t.id, args.partitionOf(t.id));
          await addTaskTags(pool, t);
        }
        try {
          await conn.query(INSERT_TASKS, [decided.creates.map((t) => taskToRow(t, args.partitionOf(t.id)))]);
        } catch (err) {
          throw keyTaken(err, 'of a task created meanwhile') ?? err;
        }
      }
      return decided;
    });
  } catch (err) {
    await giveBack();
    for (const [id, partition] of prune) await pruneTaskTags(pool, id, partition).catch(() => undefined);
    throw err;
  }
  const created = new Set(plan.creates.map((t) => t.id));
  for (const [id, partition] of prune) if (!created.has(id)) await pruneTaskTags(pool, id, partition);
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
