import type { ApplyPlan, Task } from '@dsched/domain';
import type { Pool, ResultSetHeader } from 'mysql2/promise';
import { idToBin } from '../ids.ts';
import { databaseNow } from '../pool.ts';
import { loadSql } from '../sql.ts';
import { withTransaction } from '../transaction.ts';
import { keyTaken, writeTaskChange } from './task-changes.ts';
import { rowToTask, type TaskRow, taskToRow, writeTaskTags } from './task-store.ts';

// Schedules as code: a tenant's keyed tasks read under their row locks, the caller's plan (the
// domain's planApply) made from them with the database clock, and the whole plan written in the
// same transaction, or nothing of it.

const SELECT_KEYED = loadSql(import.meta.url, './select-keyed-tasks.sql');
const RESERVE_QUOTAS = loadSql(import.meta.url, './reserve-task-quotas.sql');
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
  return withTransaction(pool, async (conn) => {
    let keyed: Task[] = [];
    if (args.keys === null || args.keys.length > 0) {
      const sql = SELECT_KEYED.replace('%KEYS%', args.keys === null ? '' : 'AND live_key IN (?)');
      const [rows] = await conn.query<TaskRow[]>(sql, [
        idToBin(args.tenantId),
        ...(args.keys === null ? [] : [args.keys]),
      ]);
      keyed = rows.map(rowToTask);
    }
    const plan = args.decide(keyed, await databaseNow(conn));
    if (plan.result.dryRun) return plan;
    // Deletes first: their quota is free for the creates.
    for (const { readVersion, change } of plan.changes) {
      await writeTaskChange(conn, readVersion, change, args.partitionOf(change.task.id));
    }
    if (plan.creates.length > 0) {
      const n = plan.creates.length;
      const [reserved] = await conn.query<ResultSetHeader>(RESERVE_QUOTAS, [n, idToBin(args.tenantId), n]);
      if (reserved.affectedRows !== 1) throw args.quotaExceeded();
      try {
        await conn.query(INSERT_TASKS, [plan.creates.map((t) => taskToRow(t, args.partitionOf(t.id)))]);
      } catch (err) {
        throw keyTaken(err, 'of a task created meanwhile') ?? err;
      }
      for (const t of plan.creates) await writeTaskTags(conn, t, false);
    }
    return plan;
  });
}
