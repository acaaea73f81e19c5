import { newId } from '@dsched/domain';
import type { PoolConnection } from 'mysql2/promise';
import { loadSql } from '../sql.ts';

const INSERT_JOBS = loadSql(import.meta.url, './insert-jobs.sql');

/**
 * A job to materialise: the task row's own values (ids as stored, JSON as stored) and when.
 * The scheduler, trigger-now and backfill all insert through here, so a job is the same row
 * whichever path made it.
 */
export interface NewJob {
  tenantId: Buffer;
  taskId: Buffer;
  occurrence: string;
  kind: 'scheduled' | 'trigger' | 'backfill';
  scheduledFor: Date;
  runAt: Date;
  priority: number;
  lane: string;
  maxAttempts: number;
  /** JSON text as the task row holds it. */
  target: string;
  retry: string;
  /** Optional fixed id (trigger-now answers with it); a new UUIDv7 otherwise. */
  id?: Buffer;
}

/** Inserts jobs in one statement; an existing (task_id, occurrence) is skipped. Returns rows inserted. */
export async function insertJobs(conn: PoolConnection, jobs: NewJob[], now: Date): Promise<number> {
  if (jobs.length === 0) return 0;
  const rows = jobs.map((j) => [
    j.id ?? Buffer.from(newId(now.getTime()).replaceAll('-', ''), 'hex'),
    j.tenantId,
    j.taskId,
    j.occurrence,
    j.kind,
    j.scheduledFor,
    j.priority,
    j.lane,
    'pending',
    0,
    j.maxAttempts,
    j.runAt,
    j.target,
    j.retry,
    now,
    now,
  ]);
  const [res] = await conn.query(INSERT_JOBS, [rows]);
  return (res as { affectedRows: number }).affectedRows;
}

/**
 * A job of a task from the task's own row (as SELECTed: id, tenant_id, priority, lane, target,
 * retry), for one occurrence. The job copies what it does from the task at materialisation.
 */
export function jobOfTaskRow(
  row: { id: Buffer; tenant_id: Buffer; priority: unknown; lane: unknown; target: unknown; retry: unknown },
  occurrence: { key: string; kind: NewJob['kind']; scheduledFor: Date; runAt: Date; id?: Buffer },
): NewJob {
  const retry = jsonText(row.retry);
  return {
    tenantId: row.tenant_id,
    taskId: row.id,
    occurrence: occurrence.key,
    kind: occurrence.kind,
    scheduledFor: occurrence.scheduledFor,
    runAt: occurrence.runAt,
    priority: Number(row.priority),
    lane: String(row.lane),
    maxAttempts: (JSON.parse(retry) as { maxAttempts: number }).maxAttempts,
    target: jsonText(row.target),
    retry,
    ...(occurrence.id ? { id: occurrence.id } : {}),
  };
}

/** JSON columns come back parsed from MySQL and as text from MariaDB; jobs store the text. */
export function jsonText(value: unknown): string {
  return typeof value === 'string'
    ? value
    : Buffer.isBuffer(value)
      ? value.toString('utf8')
      : JSON.stringify(value);
}
