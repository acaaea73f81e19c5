import { type OperationAction, type OperationFilter, TASK_ACTIONS, tagStrings } from '@dsched/domain';
import type { Pool, PoolConnection, RowDataPacket } from 'mysql2/promise';
import { idToBin } from '../ids.ts';
import { loadSql } from '../sql.ts';

// Which rows an operation walks, in which order, and which statement reads them (docs/bulk-operations.md).
// A job action walks (scheduled_for, id) order on one index: job_tags for a tag filter (the first
// of its tags; the job's own tags are checked whole), jobs_by_task for a task without tags, else
// jobs_by_tenant_time. A task action walks task ids: task_tags for a tag filter, else the one task.
// The cursor is the last row handled, so each batch starts strictly after it.

/** job-actions.sql without its header: the condition each job walk puts in place of its marker. */
const JOB_ACTIONS = `(${loadSql(import.meta.url, './job-actions.sql')
  .split('\n')
  .filter((line) => !line.startsWith('--'))
  .join('\n')})`;
const jobWalk = (file: string) => loadSql(import.meta.url, file).replace('%ACTION%', JOB_ACTIONS);
const JOBS_BY_TAG = jobWalk('./jobs-by-tag.sql');
const JOBS_BY_TASK = jobWalk('./jobs-by-task.sql');
const JOBS_BY_TIME = jobWalk('./jobs-by-time.sql');
const TASKS_BY_TAG = loadSql(import.meta.url, './tasks-by-tag.sql');
const TASK_BY_ID = loadSql(import.meta.url, './task-by-id.sql');

/** Beyond DATETIME's range: no `to` means no upper bound. */
const NO_END = new Date('9999-12-31T00:00:00.000Z');
/** Before every scheduled time: no `from` means from the start. */
export const NO_START = new Date('1970-01-02T00:00:00.000Z');
/** A matched count stops here (a count is one index range; never an unbounded one). */
export const MATCH_COUNT_CAP = 1_000_000;

export interface WalkCursor {
  at: Date;
  id: Buffer;
}

/** A walked job, locked (jobs-by-*.sql). */
export interface WalkedJobRow extends RowDataPacket {
  id: Buffer;
  scheduled_for: Date;
  state: string;
  attempt: number;
  claimed_by: string | null;
  workflow_id: Buffer | null;
  node_id: string | null;
  has_callbacks: number;
  counts_failures: number;
  task_id: Buffer | null;
}

export function isTaskAction(action: OperationAction): boolean {
  return TASK_ACTIONS.includes(action);
}

/** The statement and parameters of the next batch after `cursor`. */
export function walkStatement(
  tenantId: string,
  action: OperationAction,
  f: OperationFilter,
  cursor: WalkCursor,
  limit: number,
): { sql: string; params: unknown[] } {
  const tenant = idToBin(tenantId);
  const task = f.taskId ? idToBin(f.taskId) : null;
  const tags = f.tags ? JSON.stringify(f.tags) : null;
  if (isTaskAction(action)) {
    const state = action === 'pause' ? 'active' : 'paused';
    if (f.tags) {
      return {
        sql: TASKS_BY_TAG,
        params: [tenant, tagStrings(f.tags)[0], cursor.id, tags, task, task, state, limit],
      };
    }
    return { sql: TASK_BY_ID, params: [task, tenant, cursor.id, state] };
  }
  const to = f.to ?? NO_END;
  const at = [cursor.at, cursor.at, cursor.id];
  const text = [f.errorContains, f.errorContains?.toLowerCase() ?? null];
  if (f.tags) {
    return {
      sql: JOBS_BY_TAG,
      params: [
        tenant,
        tagStrings(f.tags)[0],
        to,
        ...at,
        tags,
        task,
        task,
        f.state,
        f.state,
        ...text,
        action,
        limit,
      ],
    };
  }
  if (task) {
    return {
      sql: JOBS_BY_TASK,
      params: [task, to, ...at, tenant, tags, tags, f.state, f.state, ...text, action, limit],
    };
  }
  return { sql: JOBS_BY_TIME, params: [tenant, to, ...at, f.state, f.state, ...text, action, limit] };
}

/** Where a walk starts: just before `from` (the cursor is exclusive, the zero id below every id). */
export function firstCursor(f: OperationFilter): WalkCursor {
  return { at: f.from ?? NO_START, id: Buffer.alloc(16) };
}

/**
 * How many rows the operation would touch now, up to MATCH_COUNT_CAP: the walk's own statement from
 * its first cursor, unlocked, counted, so the count and the walk cannot disagree on what matches.
 */
export async function countMatches(
  conn: Pool | PoolConnection,
  tenantId: string,
  action: OperationAction,
  f: OperationFilter,
): Promise<number> {
  const { sql, params } = walkStatement(tenantId, action, f, firstCursor(f), MATCH_COUNT_CAP);
  const unlocked = sql.replace(/\s+FOR UPDATE$/, '');
  const [rows] = await conn.query<RowDataPacket[]>(`SELECT COUNT(*) AS n FROM (${unlocked}) matched`, params);
  return Number(rows[0]!.n);
}
