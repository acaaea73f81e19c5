import { newId, type Tags, type TraceContext, tagStrings } from '@dsched/domain';
import type { PoolConnection, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import { idToBin } from '../ids.ts';
import { readJson } from '../json.ts';
import { loadSql, withRows } from '../sql.ts';
import { traceToBin, untracedContext } from '../trace-context.ts';

const INSERT_JOBS = loadSql(import.meta.url, './insert-jobs.sql');
const INSERT_JOB_TAGS = loadSql(import.meta.url, './insert-job-tags.sql');
const JOB_TAGS_READ = loadSql(import.meta.url, './job-tags-read.sql');

/** job-tags-read.sql. */
interface JobTagsRow extends RowDataPacket {
  id: Buffer;
  tenant_id: Buffer;
  scheduled_for: Date;
  tags: unknown;
  partition: number;
}

/**
 * A job to materialise for a task: which occurrence, and when. What the job does is copied from
 * the task row by the statement. The scheduler, trigger-now, backfill and task edits all insert
 * through here, so a job is the same row whichever path made it.
 */
export interface NewJob {
  taskId: Buffer;
  /** Its task's partition (the shard key): the statement is keyed by the jobs' partitions. */
  partition: number;
  occurrence: string;
  kind: 'scheduled' | 'trigger' | 'backfill';
  scheduledFor: Date;
  runAt: Date;
  /** A fixed id (trigger-now answers with it); a new UUIDv7 otherwise. */
  id?: string;
  /** The occurrence's trace, born with it (docs/tracing.md); none: a new unsampled one is stored. */
  trace?: TraceContext | null;
  /** Its task has tags: the job gets their index rows too (docs/tags.md). */
  tagged: boolean;
}

/**
 * Inserts jobs of tasks the caller holds locked, in one statement; an existing (task_id,
 * occurrence) is skipped. Every job stores a trace context. Returns the number of rows inserted.
 */
export async function insertJobs(conn: PoolConnection, jobs: NewJob[], now: Date): Promise<number> {
  if (jobs.length === 0) return 0;
  const ids = jobs.map((j) => idToBin(j.id ?? newId(now.getTime(), j.partition)));
  const rows = withRows(
    INSERT_JOBS,
    ['id', 'task_id', 'occurrence', 'kind', 'scheduled_for', 'trace', 'run_at'],
    jobs.map((j, i) => [
      ids[i],
      j.taskId,
      j.occurrence,
      j.kind,
      j.scheduledFor,
      traceToBin(j.trace ?? untracedContext()),
      j.runAt,
    ]),
  );
  const partitions = [...new Set(jobs.map((j) => j.partition))];
  const [res] = await conn.query<ResultSetHeader>(rows.sql, [now, now, ...rows.params, partitions]);
  const tagged = jobs.flatMap((j, i) => (j.tagged ? [ids[i]!] : []));
  if (tagged.length > 0 && res.affectedRows > 0) {
    // The tags the jobs copied from their task, read back from the jobs (their shard), then their
    // index rows as literal rows (docs/tags.md).
    const [made] = await conn.query<JobTagsRow[]>(JOB_TAGS_READ, [partitions, tagged]);
    const rows = made.flatMap((r) =>
      tagStrings(readJson<Tags | null>(r.tags)).map((tag) => [
        r.tenant_id,
        tag,
        r.scheduled_for,
        r.id,
        r.partition,
      ]),
    );
    if (rows.length > 0) await conn.query(INSERT_JOB_TAGS, [rows]);
  }
  return res.affectedRows;
}
