import { DschedError, newId, type Tags, type Task, type TaskChange } from '@dsched/domain';
import type { Pool, PoolConnection, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import { idToBin } from '../ids.ts';
import { insertJobs } from '../jobs/index.ts';
import { databaseNow } from '../pool.ts';
import { loadSql } from '../sql.ts';
import { rarestTag, TAG_COUNT_CAP } from '../tag-rows-capped.ts';
import { binToTrace } from '../trace-context.ts';
import { withTransaction } from '../transaction.ts';
import { inclusiveRange, recordOccurrenceSkips } from './occurrence-skips.ts';
import { releaseTaskQuota, withTaskQuota } from './task-quota.ts';
import {
  changeableTaskValues,
  rowToTask,
  type TaskRow,
  taskToRow,
  trailingTaskValues,
} from './task-store.ts';
import { addTaskTags, pruneTaskTags, tagsAdded, tagsDropped } from './task-tags.ts';

// Task writes of the lifecycle: create within the tenant's quota, list, and every change
// (edit, pause, resume, delete) as one transaction under the task's row lock.

const LOCK_TASK = loadSql(import.meta.url, './lock-task.sql');
const TASK_PARTITION = loadSql(import.meta.url, './select-task-partition.sql');
const UPDATE_TASK = loadSql(import.meta.url, './update-task.sql');
const SELECT_UNSTARTED = loadSql(import.meta.url, './select-unstarted-jobs.sql');
const SUPERSEDE_JOBS = loadSql(import.meta.url, './supersede-jobs.sql');
const LIST_TASKS = loadSql(import.meta.url, './list-tasks.sql');
const INSERT_TASK = loadSql(import.meta.url, './insert-task.sql');
const LIST_TASKS_TAGGED = loadSql(import.meta.url, './list-tasks-tagged.sql');
const TAGS_COUNT = loadSql(import.meta.url, './task-tags-count.sql');
/** select-unstarted-jobs.sql. */
interface UnstartedJobRow extends RowDataPacket {
  id: Buffer;
  occurrence: string;
  kind: 'scheduled' | 'trigger' | 'backfill';
  scheduled_for: Date;
  run_at: Date;
  trace_context: Buffer | null;
  partition: number;
}

/**
 * Inserts a task if its tenant is under maxTasks; false when the quota is used up. The place is
 * reserved on the tenant's row before the task's transaction and given back if it fails
 * (task-quota.ts): never one transaction over the global keyspace and a shard.
 */
export async function insertTaskWithinQuota(pool: Pool, task: Task, partition: number): Promise<boolean> {
  const done = await withTaskQuota(pool, task.tenantId, 1, async () => {
    // Its tag rows first, in their keyspace (task-store.ts); deleted again if the insert fails.
    await addTaskTags(pool, task);
    try {
      await pool.query(INSERT_TASK, [taskToRow(task, partition)]);
    } catch (err) {
      if (task.tags !== null) await pruneTaskTags(pool, task.id, partition).catch(() => undefined);
      throw keyTaken(err, task.key) ?? err;
    }
  });
  return done !== null;
}

export async function listTasks(
  pool: Pool,
  tenantId: string,
  page: {
    limit: number;
    afterId?: string;
    state?: 'active' | 'paused';
    key?: string;
    tags?: Tags | undefined;
  },
): Promise<Task[]> {
  const after = page.afterId ? idToBin(page.afterId) : Buffer.alloc(16);
  const state = page.state ? [page.state] : [];
  const key = page.key ? [page.key] : [];
  if (page.tags) {
    // A range of one tag's index rows; the task's own tags (and key) decide the rest of the filter.
    const sql = LIST_TASKS_TAGGED.replace('%STATE%', page.state ? 'AND t.state = ?' : '').replace(
      '%KEY%',
      page.key ? 'AND t.live_key = ?' : '',
    );
    const tenant = idToBin(tenantId);
    const tag = await rarestTag(pool, page.tags, TAGS_COUNT, (t) => [tenant, t, after, TAG_COUNT_CAP]);
    const params = [tenant, tag, after, JSON.stringify(page.tags), ...state, ...key, page.limit];
    const [rows] = await pool.query<TaskRow[]>(sql, params);
    return rows.map(rowToTask);
  }
  const sql = LIST_TASKS.replace('%STATE%', page.state ? 'AND state = ?' : '').replace(
    '%KEY%',
    page.key ? 'AND live_key = ?' : '',
  );
  const [rows] = await pool.query<TaskRow[]>(sql, [idToBin(tenantId), after, ...state, ...key, page.limit]);
  return rows.map(rowToTask);
}

/** Locks a tenant's live task in its partition; null when missing, deleted or another tenant's. */
export async function lockTask(
  conn: PoolConnection,
  tenantId: string,
  id: string,
  partition: number,
): Promise<TaskRow | null> {
  const [rows] = await conn.query<TaskRow[]>(LOCK_TASK, [partition, idToBin(id), idToBin(tenantId)]);
  return rows[0] ?? null;
}

/** A tenant's task's partition (its shard key), read outside any transaction; null when missing. */
export async function taskPartition(pool: Pool, tenantId: string, id: string): Promise<number | null> {
  const [rows] = await pool.query<RowDataPacket[]>(TASK_PARTITION, [idToBin(id), idToBin(tenantId)]);
  return rows[0] ? Number(rows[0].partition) : null;
}

async function applyToUnstartedJobs(
  conn: PoolConnection,
  change: TaskChange,
  partition: number,
): Promise<void> {
  if (change.unstarted === 'keep') return;
  const t = change.task;
  const kinds = change.kinds === 'all' ? ['scheduled', 'trigger', 'backfill'] : ['scheduled'];
  const [jobs] = await conn.query<UnstartedJobRow[]>(SELECT_UNSTARTED, [partition, idToBin(t.id), kinds]);
  if (jobs.length === 0) return;
  const replaced = change.unstarted === 'replace' ? 1 : 0;
  await conn.query(SUPERSEDE_JOBS, [t.version, change.reason, replaced, partition, jobs.map((j) => j.id)]);
  if (change.unstarted !== 'replace') return;
  // The same occurrences, doing what the task does now: the insert copies from the row just updated.
  // Each continues its occurrence's trace (docs/tracing.md): the replaced job's context.
  await insertJobs(
    conn,
    jobs.map((j) => ({
      // The replacement's id carries the partition of the job it replaces: its task's.
      id: newId(t.updatedAt.getTime(), Number(j.partition)),
      taskId: idToBin(t.id),
      partition,
      occurrence: j.occurrence,
      kind: j.kind,
      scheduledFor: j.scheduled_for,
      runAt: j.run_at,
      trace: binToTrace(j.trace_context),
      tagged: t.tags !== null,
    })),
    t.updatedAt,
  );
}

/**
 * Reads a tenant's task under its row lock with the database clock, lets `decide` work out the
 * change (null: none), and writes it: the task (fenced by version), its unstarted jobs, the
 * occurrences it skips; then, after the commit, the tenant's task count. Returns null when the task is not found. `at`:
 * the instant to decide at instead of the database clock (a test stepping time; production: null).
 */
export async function changeTask(
  pool: Pool,
  tenantId: string,
  id: string,
  decide: (task: Task, now: Date) => TaskChange | null,
  at: Date | null = null,
): Promise<{ task: Task; changed: boolean } | null> {
  // Its partition first, so that the transaction names it in every statement: one shard.
  const partition = await taskPartition(pool, tenantId, id);
  if (partition === null) return null;
  const out = await withTransaction(pool, async (conn) => {
    const row = await lockTask(conn, tenantId, id, partition);
    if (!row) return null;
    const current = rowToTask(row);
    const change = decide(current, await databaseNow(conn, at));
    if (!change) return { task: current, changed: false, releasesQuota: false, prune: false };
    // The rows of the tags it gains, under its row lock, before the commit (task-store.ts), and
    // before its replacement jobs copy their tag index rows from them (insert-job-tags.sql).
    if (tagsAdded(current, change.task)) await addTaskTags(pool, change.task);
    await writeTaskChange(conn, current.version, change, partition);
    return {
      task: change.task,
      changed: true,
      releasesQuota: change.releasesQuota,
      prune: tagsDropped(current, change.task),
    };
  });
  if (!out) return null;
  // The rows of the tags it dropped, after the commit.
  if (out.prune) await pruneTaskTags(pool, id, partition);
  // A delete's place in the quota, given back after its commit (task-quota.ts).
  if (out.releasesQuota) await releaseTaskQuota(pool, tenantId, 1);
  return { task: out.task, changed: out.changed };
}

/**
 * Writes a change to a task read under its row lock at `readVersion`, in the caller's transaction:
 * the task (fenced by that version), its unstarted jobs, the occurrences it skips. `partition`: the
 * task's (the shard key its jobs and skips are keyed by). Not the tenant's task count: a change
 * that `releasesQuota` (a delete) is given back by the caller after its commit (task-quota.ts).
 * Nor its tag index rows, in dsched_global: the caller writes those of the tags it gains before its
 * commit and prunes those it drops after (task-store.ts, addTaskTags and pruneTaskTags).
 */
export async function writeTaskChange(
  conn: PoolConnection,
  readVersion: number,
  change: TaskChange,
  partition: number,
): Promise<void> {
  const t = change.task;
  try {
    const [res] = await conn.query<ResultSetHeader>(UPDATE_TASK, [
      ...changeableTaskValues(t),
      t.version,
      t.updatedAt,
      ...trailingTaskValues(t),
      change.resetsFailureStreak ? 1 : 0,
      partition,
      idToBin(t.id),
      readVersion,
    ]);
    if (res.affectedRows !== 1) throw new Error(`task ${t.id} changed under its row lock`);
  } catch (err) {
    throw keyTaken(err, t.key) ?? err;
  }
  await applyToUnstartedJobs(conn, change, partition);
  if (change.skipped) {
    const s = change.skipped;
    await recordOccurrenceSkips(conn, [{ taskId: t.id, partition, ...inclusiveRange(s), reason: s.reason }]);
  }
}

/** A duplicate of tasks_live_key as the API's conflict, naming the key; null for any other error. */
export function keyTaken(err: unknown, key: string | null | undefined): DschedError | null {
  const e = err as { code?: string; message?: string };
  if (e?.code !== 'ER_DUP_ENTRY' || !String(e.message).includes('tasks_live_key')) return null;
  return new DschedError('conflict', `the tenant has a task with key "${key}" already`, {
    details: [{ field: 'key', issue: `"${key}" is another task's key` }],
    cause: err,
  });
}
