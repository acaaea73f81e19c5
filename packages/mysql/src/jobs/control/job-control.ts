import type {
  CallbackResult,
  CancelResult,
  CompletionDecision,
  EndedJob,
  JobState,
  JobsEnded,
  LockedJob,
  RetryPolicy,
} from '@dsched/domain';
import type { Pool, PoolConnection, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import { binToId, idToBin } from '../../ids.ts';
import { readJson } from '../../json.ts';
import { keyedById, MISSED } from '../../keyed.ts';
import { loadSql } from '../../sql.ts';
import { binToTrace } from '../../trace-context.ts';
import { withTransaction } from '../../transaction.ts';
import { finishJobs, type JobEnd } from '../finish/index.ts';
import { followUpsOfRow } from '../follow-ups/index.ts';

// job-api's writes on a job: cancel, and the heartbeat and completion of an asynchronous (202)
// job. Each locks the one row, lets the caller decide on what it read, and applies the decision
// with an update fenced by the attempt it read (docs/async-completion.md). A cancel or a completion
// that ends the attempt then runs the finish path (../finish) in the same transaction: a node's
// output, its children, its run's end, callbacks and streaks follow at once, as after an executor's
// outcome.

const CONTROL_LOCK = loadSql(import.meta.url, './control-lock.sql');
const CANCEL_NOW = loadSql(import.meta.url, './control-cancel-now.sql');
const CANCEL_REQUEST = loadSql(import.meta.url, './control-cancel-request.sql');
const HEARTBEAT = loadSql(import.meta.url, './control-heartbeat.sql');
const COMPLETE = loadSql(import.meta.url, './control-complete.sql');
const RETRY = loadSql(import.meta.url, './control-retry.sql');
const ATTEMPT_CLOSE = loadSql(import.meta.url, './control-attempt-close.sql');
const JOB_PARTITION = loadSql(import.meta.url, './control-partition.sql');

/** control-lock.sql. */
interface ControlRow extends RowDataPacket {
  tenant_id: Buffer;
  state: JobState;
  attempt: number;
  max_attempts: number;
  retry: unknown;
  claimed_by: string | null;
  cancel_requested: number;
  deadline_at: Date | null;
  lease_expires_at: Date | null;
  task_id: Buffer | null;
  workflow_id: Buffer | null;
  node_id: string | null;
  partition: number;
  lane: string;
  has_callbacks: number;
  counts_failures: number;
  trace_context: Buffer | null;
}

/** A locked job as the decisions read it, with what its end's span needs and its row's partition. */
type Locked = LockedJob & Pick<JobEnd, 'trace' | 'lane'> & { partition: number };

async function lockJob(
  conn: PoolConnection,
  tenantId: string,
  id: string,
  partition: number,
): Promise<Locked | null | typeof MISSED> {
  const [rows] = await conn.query<ControlRow[]>(CONTROL_LOCK, [partition, idToBin(id)]);
  const r = rows[0];
  if (!r) return MISSED;
  // Another tenant's job is not found, exactly as a missing one.
  if (binToId(r.tenant_id) !== tenantId) return null;
  const claimed = r.claimed_by !== null;
  return {
    partition: Number(r.partition),
    state: r.state,
    attempt: Number(r.attempt),
    maxAttempts: Number(r.max_attempts),
    retry: readJson<RetryPolicy>(r.retry),
    claimed,
    parked: r.state === 'running' && !claimed,
    cancelRequested: Number(r.cancel_requested) === 1,
    deadlineAt: r.deadline_at,
    leaseExpiresAt: r.lease_expires_at,
    followUps: followUpsOfRow(r),
    workflowNode:
      r.workflow_id && r.node_id
        ? { workflowId: binToId(r.workflow_id), nodeId: String(r.node_id), partition: Number(r.partition) }
        : null,
    startsWorkflow: r.lane === 'workflow',
    trace: binToTrace(r.trace_context),
    lane: r.lane,
  };
}

function fenced(res: ResultSetHeader): void {
  // The row is locked by this transaction: a fenced update that misses it is a bug, not a race.
  if (res.affectedRows !== 1) throw new Error('job-control: locked row did not match its fence');
}

/** What a locked job's end carries to the follow-ups. */
function endOf(job: Locked, id: string, state: JobEnd['state'], report: JobEnd['report'] = null): JobEnd {
  return {
    id,
    attempt: job.attempt,
    partition: job.partition,
    state,
    followUps: job.followUps,
    workflowNode: job.workflowNode ?? null,
    report,
    trace: job.trace ?? null,
    lane: job.lane ?? '',
  };
}

/** Runs one write; tells `onEnded` (job-api's spans, tracing on) of its traced end once committed. */
async function ending<T>(
  pool: Pool,
  onEnded: JobsEnded | undefined,
  write: (conn: PoolConnection, traced: EndedJob[]) => Promise<T>,
): Promise<T> {
  const traced: EndedJob[] = [];
  const result = await withTransaction(pool, (conn) => {
    traced.length = 0; // a deadlock's retry starts over
    return write(conn, traced);
  });
  if (onEnded && traced.length > 0) onEnded(traced);
  return result;
}

/**
 * Cancels a job: a pending or parked one at once, one an executor is calling by marking it (the
 * executor's cancel watch aborts the call within EXECUTOR_CANCEL_POLL_MS and records it cancelled).
 * A scheduled workflow's occurrence whose run has started is not cancelled here: its cancel is its
 * run's (`starts_run`: the caller cancels the run, whose end finishes the job cancelled).
 */
export async function cancelJob(
  pool: Pool,
  tenantId: string,
  id: string,
  onEnded?: JobsEnded,
): Promise<CancelResult | 'starts_run'> {
  const result = await keyedById(pool, id, JOB_PARTITION, (partition) =>
    ending(pool, onEnded, (conn, traced) => cancelLocked(conn, traced, tenantId, id, partition)),
  );
  return result === MISSED ? 'not_found' : result;
}

async function cancelLocked(
  conn: PoolConnection,
  traced: EndedJob[],
  tenantId: string,
  id: string,
  partition: number,
): Promise<CancelResult | 'starts_run' | typeof MISSED> {
  const job = await lockJob(conn, tenantId, id, partition);
  if (job === MISSED) return MISSED;
  if (!job) return 'not_found';
  if (job.state === 'cancelled') return 'already_cancelled';
  if (job.state !== 'pending' && job.state !== 'running') return 'finished';
  // Not started yet, the job is pending and its cancel below means the run never starts (the
  // start needs it pending).
  if (job.startsWorkflow && job.state === 'running') return 'starts_run';
  const bin = idToBin(id);
  if (job.claimed) {
    const [res] = await conn.query<ResultSetHeader>(CANCEL_REQUEST, [job.partition, bin, job.attempt]);
    fenced(res);
    return 'cancel_requested';
  }
  if (job.parked) {
    await conn.query(ATTEMPT_CLOSE, ['cancelled', 'cancelled', job.partition, bin, job.attempt]);
  }
  const [res] = await conn.query<ResultSetHeader>(CANCEL_NOW, [job.partition, bin, job.attempt, job.state]);
  fenced(res);
  traced.push(...(await finishJobs(conn, [endOf(job, id, 'cancelled')])).traced);
  return 'cancelled';
}

/** Pushes a running job's heartbeat timeout out, fenced by the attempt token the target was given. */
export async function heartbeatJob(
  pool: Pool,
  args: { tenantId: string; id: string; attempt: number; extendSeconds: number; progress?: unknown },
): Promise<CallbackResult<{ heartbeatBy: Date; deadlineAt: Date | null; cancelRequested: boolean }>> {
  const result = await keyedById(pool, args.id, JOB_PARTITION, (partition) =>
    withTransaction(pool, async (conn) => {
      const job = await lockJob(conn, args.tenantId, args.id, partition);
      if (job === MISSED) return MISSED;
      if (!job) return { kind: 'not_found' } as const;
      if (job.state !== 'running' || job.attempt !== args.attempt) return { kind: 'stale', job } as const;
      const progress = args.progress === undefined ? null : JSON.stringify(args.progress);
      const bin = idToBin(args.id);
      const [res] = await conn.query<ResultSetHeader>(HEARTBEAT, [
        args.extendSeconds,
        progress,
        job.partition,
        bin,
        job.attempt,
      ]);
      fenced(res);
      const after = (await lockJob(conn, args.tenantId, args.id, job.partition)) as Locked;
      return {
        kind: 'ok',
        value: {
          heartbeatBy: after.leaseExpiresAt!,
          deadlineAt: after.deadlineAt,
          cancelRequested: job.cancelRequested,
        },
      } as const;
    }),
  );
  return result === MISSED ? { kind: 'not_found' } : result;
}

/**
 * Completes a running job with the target's report, fenced by the attempt token. `decide` turns
 * the locked job into the transition (a failure retries while attempts remain).
 */
export async function completeJob(
  pool: Pool,
  args: { tenantId: string; id: string; attempt: number; errorClass: string | null },
  decide: (job: LockedJob) => CompletionDecision,
  onEnded?: JobsEnded,
): Promise<CallbackResult<CompletionDecision>> {
  const result = await keyedById(pool, args.id, JOB_PARTITION, (partition) =>
    ending(pool, onEnded, (conn, traced) => completeLocked(conn, traced, args, decide, partition)),
  );
  return result === MISSED ? { kind: 'not_found' } : result;
}

async function completeLocked(
  conn: PoolConnection,
  traced: EndedJob[],
  args: { tenantId: string; id: string; attempt: number; errorClass: string | null },
  decide: (job: LockedJob) => CompletionDecision,
  partition: number,
): Promise<CallbackResult<CompletionDecision> | typeof MISSED> {
  const job = await lockJob(conn, args.tenantId, args.id, partition);
  if (job === MISSED) return MISSED;
  if (!job) return { kind: 'not_found' };
  if (job.state !== 'running' || job.attempt !== args.attempt) return { kind: 'stale', job };
  const decision = decide(job);
  const bin = idToBin(args.id);
  const output = decision.output === undefined ? null : JSON.stringify(decision.output);
  const error = decision.error?.slice(0, 1000) ?? null;
  // The attempt row first: it is made from the claim when the executor has not written it yet.
  await conn.query(ATTEMPT_CLOSE, [args.errorClass, error, job.partition, bin, job.attempt]);
  const [res] =
    decision.to === 'retry'
      ? await conn.query<ResultSetHeader>(RETRY, [
          output,
          error,
          Math.round(decision.delayMs),
          job.partition,
          bin,
          job.attempt,
        ])
      : await conn.query<ResultSetHeader>(COMPLETE, [
          output,
          error,
          decision.to,
          job.partition,
          bin,
          job.attempt,
        ]);
  fenced(res);
  // The target's report stands in for the response body of a synchronous call: a node's output,
  // a callback event's body.
  const finished = await finishJobs(conn, [
    endOf(job, args.id, decision.to === 'retry' ? 'pending' : decision.to, { output, error }),
  ]);
  traced.push(...finished.traced);
  return { kind: 'ok', value: decision };
}
