import { newId, occurrenceKey, type Schedule, type TraceBirth } from '@dsched/domain';
import type { Pool, PoolConnection, RowDataPacket } from 'mysql2/promise';
import { binToId, idToBin } from '../ids.ts';
import { insertJobs } from '../jobs/index.ts';
import { databaseNow } from '../pool.ts';
import { loadSql } from '../sql.ts';
import { withTransaction } from '../transaction.ts';
import { taskPartition } from './task-changes.ts';
import { scheduleFromJson } from './task-store.ts';

// Runs asked for explicitly: trigger-now and backfill. Each is a job row of the task with an
// occurrence key of its own, inserted through the same statement as the scheduler's, so asking
// twice with the same key runs once (invariant 2).

const LOCK_TASK_SHARED = loadSql(import.meta.url, './lock-task-shared.sql');
const JOB_BY_OCCURRENCE = loadSql(import.meta.url, './job-by-occurrence.sql');

/** lock-task-shared.sql. */
interface SharedTaskRow extends RowDataPacket {
  id: Buffer;
  schedule: unknown;
  tagged: number;
  partition: number;
}

/** job-by-occurrence.sql. */
interface JobIdRow extends RowDataPacket {
  id: Buffer;
}

/** Runs `fn` with a tenant's live task share-locked and the database clock; null if not found. */
async function withTaskShared<T>(
  pool: Pool,
  tenantId: string,
  taskId: string,
  fn: (conn: PoolConnection, task: SharedTaskRow, now: Date) => Promise<T>,
): Promise<T | null> {
  // Its partition first, so that the transaction names it in every statement: one shard.
  const partition = await taskPartition(pool, tenantId, taskId);
  if (partition === null) return null;
  return withTransaction(pool, async (conn) => {
    const [[task]] = await conn.query<SharedTaskRow[]>(LOCK_TASK_SHARED, [
      partition,
      idToBin(taskId),
      idToBin(tenantId),
    ]);
    if (!task) return null;
    return fn(conn, task, await databaseNow(conn));
  });
}

/**
 * A job of the task due now, keyed `trigger:<discriminator>`. Returns the job's id (the existing
 * one when the same discriminator was used before and that job is still live), or null when
 * the task is not found.
 */
export async function triggerTask(
  pool: Pool,
  tenantId: string,
  taskId: string,
  discriminator: string | null,
  born?: TraceBirth,
): Promise<{ jobId: string; created: boolean } | null> {
  return withTaskShared(pool, tenantId, taskId, async (conn, task, now) => {
    const jobId = newId(now.getTime(), Number(task.partition));
    const key = occurrenceKey('trigger', now, discriminator ?? jobId);
    const job = {
      taskId: task.id,
      partition: Number(task.partition),
      occurrence: key,
      kind: 'trigger' as const,
      scheduledFor: now,
      runAt: now,
      id: jobId,
      trace: born?.({ id: jobId, taskId, occurrence: key, kind: 'trigger', scheduledFor: now }) ?? null,
      tagged: Number(task.tagged) === 1,
    };
    if ((await insertJobs(conn, [job], now)) === 1) return { jobId, created: true };
    const [[existing]] = await conn.query<JobIdRow[]>(JOB_BY_OCCURRENCE, [task.partition, task.id, key]);
    return { jobId: binToId(existing!.id), created: false };
  });
}

/**
 * Backfill jobs for the fire times `plan` picks (from the task's schedule and the database
 * clock), each keyed `backfill:<time>`, due now. Null when the task is not found.
 */
export async function backfillTask(
  pool: Pool,
  tenantId: string,
  taskId: string,
  plan: (schedule: Schedule, now: Date) => Date[],
  born?: TraceBirth,
): Promise<{ count: number; created: number } | null> {
  return withTaskShared(pool, tenantId, taskId, async (conn, task, now) => {
    const times = plan(scheduleFromJson(task.schedule), now);
    const jobs = times.map((at) => {
      const id = newId(now.getTime(), Number(task.partition));
      const occurrence = occurrenceKey('backfill', at);
      return {
        id,
        taskId: task.id,
        partition: Number(task.partition),
        occurrence,
        kind: 'backfill' as const,
        scheduledFor: at,
        runAt: now,
        trace: born?.({ id, taskId, occurrence, kind: 'backfill', scheduledFor: at }) ?? null,
        tagged: Number(task.tagged) === 1,
      };
    });
    return { count: times.length, created: await insertJobs(conn, jobs, now) };
  });
}
