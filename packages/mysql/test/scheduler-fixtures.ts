import { type DstPolicy, dueBatchDecision, type PartitionScope, type Task } from '@dsched/domain';
import { onceTask } from '@dsched/testkit/fixtures';
import { TEST_GROUPS } from '@dsched/testkit/mysql';
import type { Pool, RowDataPacket } from 'mysql2/promise';
import { idToBin } from '../src/ids.ts';
import { databaseNow } from '../src/pool.ts';
import type { MaterialiseArgs } from '../src/scheduler/materialise.ts';
import { materialiseDueBatch } from '../src/scheduler/materialise.ts';
import { insertTask } from '../src/tasks/task-store.ts';

export function cronTask(
  tenantId: string,
  expression: string,
  nextFireAt: Date,
  overrides: Partial<Task> & { dst?: DstPolicy; timezone?: string } = {},
): Task {
  const { dst, timezone, ...rest } = overrides;
  return onceTask(tenantId, nextFireAt, {
    name: `cron ${expression}`,
    schedule: {
      type: 'cron',
      expression,
      timezone: timezone ?? 'UTC',
      dst: dst ?? { repeated: 'first', skipped: 'shift' },
    },
    ...rest,
  });
}

export async function addTasks(pool: Pool, tasks: Task[], partition = 0): Promise<Task[]> {
  for (const t of tasks) await insertTask(pool, t, partition);
  return tasks;
}

export const dbNow = databaseNow;

/**
 * The batches' default scope: every partition on one server; through vtgate the first shard's
 * group (the even partitions: EVEN of vitess-routes), as a scheduler serves one shard's
 * partitions per batch, so the tests' tasks sit in even partitions.
 */
export const SCOPE: PartitionScope = { unleased: [...TEST_GROUPS[0]!.partitions] };

export function batch(overrides: Partial<MaterialiseArgs> = {}): MaterialiseArgs {
  return {
    scope: SCOPE,
    lookaheadMs: 0,
    limit: 100,
    decide: dueBatchDecision({
      maxJobs: 1000,
      plan: { misfireThresholdMs: 60_000, maxCatchUp: 100, maxPerPass: 100 },
    }),
    ...overrides,
  };
}

export function materialise(pool: Pool, overrides: Partial<MaterialiseArgs> = {}) {
  return materialiseDueBatch(pool, batch(overrides));
}

/** The scheduled_for of a task's jobs of a kind, ascending, as ISO strings. */
export async function jobTimes(pool: Pool, taskId: string, kind = 'scheduled'): Promise<string[]> {
  const [rows] = await pool.query<RowDataPacket[]>(
    'SELECT scheduled_for FROM jobs WHERE task_id = ? AND kind = ? ORDER BY scheduled_for',
    [idToBin(taskId), kind],
  );
  return rows.map((r) => (r.scheduled_for as Date).toISOString());
}

export async function nextFireOf(pool: Pool, taskId: string): Promise<Date | null> {
  const [[row]] = await pool.query<RowDataPacket[]>('SELECT next_fire_at FROM tasks WHERE id = ?', [
    idToBin(taskId),
  ]);
  return (row?.next_fire_at as Date | null) ?? null;
}

export async function skipsOf(pool: Pool, taskId: string) {
  const [rows] = await pool.query<RowDataPacket[]>(
    'SELECT skipped_from, skipped_to, reason FROM occurrence_skips WHERE task_id = ? ORDER BY skipped_from',
    [idToBin(taskId)],
  );
  return rows.map((r) => ({
    from: (r.skipped_from as Date).toISOString(),
    // Records hold inclusive ends; shown as the half-open range the planner decided.
    to: new Date((r.skipped_to as Date).getTime() + 1).toISOString(),
    reason: String(r.reason),
  }));
}
