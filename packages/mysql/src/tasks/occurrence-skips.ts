import type { AuditedJob, JobState, SkipRecord } from '@dsched/domain';
import type { Pool, PoolConnection, RowDataPacket } from 'mysql2/promise';
import { binToId, idToBin } from '../ids.ts';
import { loadSql, withRows } from '../sql.ts';

// Occurrences deliberately not run, and what the audit reads about a task's occurrences.

const SKIPS_IN_RANGE = loadSql(import.meta.url, './skips-in-range.sql');
const SKIPS_INSERT = loadSql(import.meta.url, './occurrence-skips-insert.sql');
const AUDIT_JOBS = loadSql(import.meta.url, './audit-jobs.sql');

export type SkipReason = 'misfire' | 'overlap' | 'paused';

/**
 * Records that the occurrences of a task in [from, to] were skipped by policy. The scheduler calls
 * it in the transaction that decides the skip (misfire, overlap), task-api when a pause ends; a
 * record written twice is one row. Without a record, the audit reports such occurrences `missing`.
 */
export async function recordOccurrenceSkips(
  conn: Pool | PoolConnection,
  skips: { taskId: string; partition: number; from: Date; to: Date; reason: SkipReason }[],
): Promise<void> {
  if (skips.length === 0) return;
  // Each takes its task's partition (the shard key) from the task row, which the caller holds
  // locked; the statement is keyed by the tasks' partitions.
  const insert = withRows(
    SKIPS_INSERT,
    ['task_id', 'skipped_from', 'skipped_to', 'reason', 'created_at'],
    skips.map((s) => [idToBin(s.taskId), s.from, s.to, s.reason, new Date()]),
  );
  await conn.query(insert.sql, [...insert.params, [...new Set(skips.map((s) => s.partition))]]);
}

/**
 * The planner's skipped range [from, to) (to: the next occurrence that is not skipped) as the
 * inclusive range a skip record holds, so the occurrence at `to` is never covered by it.
 */
export function inclusiveRange(r: { from: Date; to: Date }): { from: Date; to: Date } {
  return { from: r.from, to: new Date(r.to.getTime() - 1) };
}

/** skips-in-range.sql. */
interface SkipRow extends RowDataPacket {
  skipped_from: Date;
  skipped_to: Date;
  reason: SkipReason;
}

/** audit-jobs.sql. */
interface AuditJobRow extends RowDataPacket {
  id: Buffer;
  scheduled_for: Date;
  state: JobState;
  kind: AuditedJob['kind'];
}

export async function skipsInRange(
  pool: Pool,
  taskId: string,
  range: { from: Date; to: Date },
  limit = 10_000,
): Promise<SkipRecord[]> {
  const [rows] = await pool.query<SkipRow[]>(SKIPS_IN_RANGE, [idToBin(taskId), range.to, range.from, limit]);
  return rows.map((r) => ({ from: r.skipped_from, to: r.skipped_to, reason: r.reason }));
}

/** A task's live scheduled and backfill jobs in [from, to). */
export async function liveOccurrenceJobs(
  pool: Pool,
  taskId: string,
  range: { from: Date; to: Date },
  limit = 50_000,
): Promise<AuditedJob[]> {
  const [rows] = await pool.query<AuditJobRow[]>(AUDIT_JOBS, [idToBin(taskId), range.from, range.to, limit]);
  return rows.map((r) => ({
    id: binToId(r.id),
    scheduledFor: r.scheduled_for,
    state: r.state,
    kind: r.kind,
  }));
}
