import { type Cursor, type JobState, type JobView, type Tags, TERMINAL_JOB_STATES } from '@dsched/domain';
import type { Pool, RowDataPacket } from 'mysql2/promise';
import { binToId, idToBin } from '../../ids.ts';
import { loadSql } from '../../sql.ts';
import { rarestTag, TAG_COUNT_CAP } from '../../tag-rows-capped.ts';
import { loadJobRecords } from '../index.ts';

// Newest-first slices of live jobs for job-api's lists, keyset-paged by (scheduled_for, id).

const TASK_RUNS = loadSql(import.meta.url, './task-runs-page.sql');
const TENANT_JOBS = loadSql(import.meta.url, './tenant-jobs-page.sql');
const TENANT_JOBS_FINISHED = loadSql(import.meta.url, './tenant-jobs-finished-page.sql');
const TENANT_JOBS_LIVE = loadSql(import.meta.url, './tenant-jobs-live-page.sql');
const TAGGED_JOBS = loadSql(import.meta.url, './tagged-jobs-page.sql');
const TAGS_COUNT = loadSql(import.meta.url, './job-tags-count.sql');
const LIVE_IDS = loadSql(import.meta.url, './live-ids.sql');
const TASK_BELONGS_TO = loadSql(import.meta.url, './task-belongs-to.sql');

/** The page statements and live-ids.sql: job ids only (the rows come from loadJobRecords). */
interface JobIdRow extends RowDataPacket {
  id: Buffer;
}

export interface Slice {
  /** Newest first. */
  items: JobView[];
  /** The source had more than it returned. */
  more: boolean;
}

function cursorParams(c: Cursor): unknown[] {
  return [c.at, c.at, c.at, idToBin(c.id)];
}

async function slice(pool: Pool, sql: string, params: unknown[], limit: number): Promise<Slice> {
  const [rows] = await pool.query<JobIdRow[]>(sql, [...params, limit + 1]);
  const ids = rows.slice(0, limit).map((r) => r.id);
  const records = await loadJobRecords(pool, ids);
  const byId = new Map(records.map((r) => [r.view.id, r.view]));
  // Rows archived between the two reads are simply absent here; history serves them.
  const items = ids.map((id) => byId.get(binToId(id))).filter((v): v is JobView => v !== undefined);
  return { items, more: rows.length > limit };
}

export function liveTaskRuns(
  pool: Pool,
  q: { tenantId: string; taskId: string; tags?: Tags | undefined; from: Date; cursor: Cursor; limit: number },
): Promise<Slice> {
  const tags = q.tags ? JSON.stringify(q.tags) : null;
  return slice(
    pool,
    TASK_RUNS,
    [idToBin(q.taskId), idToBin(q.tenantId), q.from, ...cursorParams(q.cursor), tags, tags],
    q.limit,
  );
}

export async function liveTenantJobs(
  pool: Pool,
  q: {
    tenantId: string;
    state?: JobState | undefined;
    tags?: Tags | undefined;
    from: Date;
    cursor: Cursor;
    limit: number;
  },
): Promise<Slice> {
  if (q.tags) {
    // One tag's index range (the rarest in the range); the job's own tags and state decide the rest.
    const tenant = idToBin(q.tenantId);
    const tag = await rarestTag(pool, q.tags, TAGS_COUNT, (t) => [
      tenant,
      t,
      q.from,
      q.cursor.at,
      TAG_COUNT_CAP,
    ]);
    const state = q.state ?? null;
    return slice(
      pool,
      TAGGED_JOBS,
      [tenant, tag, q.from, ...cursorParams(q.cursor), JSON.stringify(q.tags), state, state],
      q.limit,
    );
  }
  return q.state === undefined
    ? slice(pool, TENANT_JOBS, [idToBin(q.tenantId), q.from, ...cursorParams(q.cursor)], q.limit)
    : slice(
        pool,
        TERMINAL_JOB_STATES.includes(q.state) ? TENANT_JOBS_FINISHED : TENANT_JOBS_LIVE,
        [idToBin(q.tenantId), q.state, q.from, ...cursorParams(q.cursor)],
        q.limit,
      );
}

/** The ids among `ids` that still have a MySQL row. */
export async function liveJobIds(pool: Pool, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const [rows] = await pool.query<JobIdRow[]>(LIVE_IDS, [ids.map(idToBin)]);
  return new Set(rows.map((r) => binToId(r.id)));
}

/** Whether the task exists (in any state, deleted included) and belongs to the tenant. */
export async function taskBelongsTo(pool: Pool, tenantId: string, taskId: string): Promise<boolean> {
  const [rows] = await pool.query<RowDataPacket[]>(TASK_BELONGS_TO, [idToBin(taskId), idToBin(tenantId)]);
  return rows.length > 0;
}
