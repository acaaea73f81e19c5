import {
  type AttemptView,
  canonicalJson,
  type JobRecord,
  type JobState,
  type JobView,
  priorityFromRank,
} from '@dsched/domain';
import type { Pool, RowDataPacket } from 'mysql2/promise';
import { binToId, idToBin, maybeBinToId } from '../ids.ts';
import { readJson } from '../json.ts';
import { loadSql } from '../sql.ts';
import { binToTrace } from '../trace-context.ts';
import { withSnapshot } from '../transaction.ts';

const SELECT_JOBS = loadSql(import.meta.url, './select-jobs.sql');
const SELECT_ATTEMPTS = loadSql(import.meta.url, './select-attempts.sql');
// The same reads keyed by a group of partitions (one shard on Vitess, docs/sharding.md), for a
// caller that knows the group: the archiver.
const KEY = ' AND `partition` IN (?)';
export const SELECT_JOBS_KEYED = `${SELECT_JOBS}${KEY}`;
export const SELECT_ATTEMPTS_KEYED = SELECT_ATTEMPTS.replace(
  'WHERE job_id IN (?)',
  `WHERE job_id IN (?)${KEY}`,
);
if (SELECT_ATTEMPTS_KEYED === SELECT_ATTEMPTS)
  throw new Error('select-attempts.sql lost its `WHERE job_id IN (?)`');

/** select-jobs.sql. */
interface JobRow extends RowDataPacket {
  id: Buffer;
  tenant_id: Buffer;
  task_id: Buffer | null;
  occurrence: string;
  kind: string;
  workflow_id: Buffer | null;
  node_id: string | null;
  scheduled_for: Date;
  priority: number;
  lane: string;
  state: JobState;
  attempt: number;
  max_attempts: number;
  attempt_group: number | null;
  run_at: Date;
  claimed_by: string | null;
  claimed_at: Date | null;
  lease_expires_at: Date | null;
  deadline_at: Date | null;
  cancel_requested: number;
  target: unknown;
  last_status: number | null;
  last_error: string | null;
  output: unknown;
  progress: unknown;
  tags: unknown;
  started_at: Date | null;
  finished_at: Date | null;
  created_at: Date;
  updated_at: Date;
  trace_context: Buffer | null;
}

/** select-attempts.sql. */
interface AttemptRow extends RowDataPacket {
  job_id: Buffer;
  attempt: number;
  executor: string;
  started_at: Date;
  finished_at: Date | null;
  status: number | null;
  error_class: string | null;
  error: string | null;
  duration_ms: number | null;
}

function iso(d: Date | null): string | undefined {
  return d === null ? undefined : d.toISOString();
}

function toAttemptView(r: AttemptRow): AttemptView {
  const v: AttemptView = {
    attempt: Number(r.attempt),
    startedAt: r.started_at.toISOString(),
    executor: r.executor,
  };
  if (r.finished_at) v.finishedAt = r.finished_at.toISOString();
  if (r.status !== null) v.status = Number(r.status);
  if (r.error !== null) v.error = r.error;
  if (r.error_class !== null) v.errorClass = r.error_class;
  if (r.duration_ms !== null) v.durationMs = Number(r.duration_ms);
  return v;
}

function toJobView(r: JobRow, attempts: AttemptView[]): JobView {
  const v: JobView = {
    id: binToId(r.id),
    taskId: maybeBinToId(r.task_id),
    kind: r.kind,
    state: r.state,
    attempt: Number(r.attempt),
    maxAttempts: Number(r.max_attempts),
    attemptGroup: Number(r.attempt_group ?? 1),
    priority: priorityFromRank(Number(r.priority)),
    scheduledFor: r.scheduled_for.toISOString(),
    attempts,
  };
  if (r.workflow_id) v.workflowId = binToId(r.workflow_id);
  if (r.node_id) v.nodeId = r.node_id;
  const started = iso(r.started_at);
  if (started) v.startedAt = started;
  const finished = iso(r.finished_at);
  if (finished) v.finishedAt = finished;
  if (r.last_status !== null) v.lastStatus = Number(r.last_status);
  if (r.last_error !== null) v.lastError = r.last_error;
  if (r.state === 'running' && Number(r.cancel_requested) === 1) v.cancelRequested = true;
  // Parked after a 202: no executor holds it; its lease is the heartbeat timeout.
  if (r.state === 'running' && r.claimed_by === null && r.deadline_at) {
    v.deadlineAt = iso(r.deadline_at)!;
    if (r.lease_expires_at) v.heartbeatBy = iso(r.lease_expires_at)!;
  }
  if (r.progress != null) v.progress = readJson(r.progress);
  if (r.output != null) v.output = readJson(r.output);
  if (r.tags != null) v.tags = canonicalJson(readJson(r.tags));
  return v;
}

/**
 * An attempt row is written when the attempt ends; while an executor's call is in flight, the open
 * attempt is the claim on the job row (who holds it and since when).
 */
function withOpenAttempt(r: JobRow, attempts: AttemptView[]): AttemptView[] {
  const attempt = Number(r.attempt);
  if (r.state !== 'running' || r.claimed_by === null || attempts.some((a) => a.attempt === attempt)) {
    return attempts;
  }
  const startedAt = (r.claimed_at ?? r.started_at) as Date;
  return [...attempts, { attempt, startedAt: startedAt.toISOString(), executor: r.claimed_by }];
}

/**
 * Loads jobs and their attempts in two statements, whatever the number of jobs, in the order given.
 * Both read one snapshot (withSnapshot): the archiver deletes a job and its attempts in one
 * transaction, and two reads at READ COMMITTED could fall either side of that commit and answer a
 * finished job with no attempts. With `partitions`, both are keyed by that group.
 */
export async function loadJobRecords(
  pool: Pool,
  ids: (string | Buffer)[],
  partitions?: readonly number[],
): Promise<JobRecord[]> {
  if (ids.length === 0) return [];
  const bins = ids.map((id) => (typeof id === 'string' ? idToBin(id) : id));
  const read = await withSnapshot(pool, async (conn) => {
    const [jobs] = await (partitions === undefined
      ? conn.query<JobRow[]>(SELECT_JOBS, [bins])
      : conn.query<JobRow[]>(SELECT_JOBS_KEYED, [bins, partitions]));
    if (jobs.length === 0) return null;
    const jobIds = jobs.map((j) => j.id);
    const [attempts] = await (partitions === undefined
      ? conn.query<AttemptRow[]>(SELECT_ATTEMPTS, [jobIds])
      : conn.query<AttemptRow[]>(SELECT_ATTEMPTS_KEYED, [jobIds, partitions]));
    return { jobs, attempts };
  });
  if (!read) return [];
  const { jobs, attempts } = read;
  const byJob = new Map<string, AttemptView[]>();
  for (const a of attempts) {
    const key = a.job_id.toString('hex');
    const list = byJob.get(key) ?? [];
    list.push(toAttemptView(a));
    byJob.set(key, list);
  }
  // In the order asked for (the server returns primary-key order).
  const rank = new Map(bins.map((b, i) => [b.toString('hex'), i]));
  jobs.sort((a, b) => rank.get(a.id.toString('hex'))! - rank.get(b.id.toString('hex'))!);
  return jobs.map((r) => {
    const trace = binToTrace(r.trace_context);
    const attempts = withOpenAttempt(r, byJob.get(r.id.toString('hex')) ?? []);
    // Every attempt of an occurrence is a span of its one trace (docs/tracing.md).
    if (trace) for (const a of attempts) a.traceId = trace.traceId;
    return { tenantId: binToId(r.tenant_id), view: toJobView(r, attempts), trace, bornAt: r.created_at };
  });
}

/** One live job of a tenant, or null (another tenant's job is not found either). */
export async function getLiveJob(pool: Pool, tenantId: string, id: string): Promise<JobView | null> {
  const [record] = await loadJobRecords(pool, [id]);
  return record && record.tenantId === tenantId ? record.view : null;
}
