import {
  type AttemptRecord,
  ClaimLostError,
  type FollowUpReport,
  type HeldClaim,
  type JobTransition,
  type OutcomeWrite,
} from '@dsched/domain';
import type { Pool, PoolConnection, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import { idToBin } from '../../ids.ts';
import { clockedSql, loadSql, withRows } from '../../sql.ts';
import { withTransaction } from '../../transaction.ts';
import { finishJobs, type JobEnd } from '../finish/index.ts';
import { releaseTenantSlots } from '../follow-ups/index.ts';

const OUTCOME_LOCK = loadSql(import.meta.url, './outcome-lock.sql');
// The statements that write times read the clock as `:now` (clockedSql): NOW(3), or the batch's `at`.
const OUTCOME_FINISH = clockedSql(loadSql(import.meta.url, './outcome-finish.sql'));
const OUTCOME_APPLY = clockedSql(loadSql(import.meta.url, './outcome-apply.sql'));
const OUTCOME_ATTEMPTS = clockedSql(loadSql(import.meta.url, './outcome-attempts.sql'));
const OUTCOME_ATTEMPTS_PARKED = clockedSql(loadSql(import.meta.url, './outcome-attempts-parked.sql'));

/** outcome-lock.sql: the claims of a batch that are still current. */
interface FencedClaimRow extends RowDataPacket {
  id: Buffer;
  attempt: number;
}

const MAX_ERROR = 1000;
/** Distinct (state, status, error) groups written as plain updates; past this, one derived-table update. */
const MAX_FINISH_GROUPS = 4;

function nextState(t: JobTransition): string {
  if (t.to === 'retry' || t.to === 'give_back') return 'pending';
  return t.to;
}

function key(id: string | Buffer, attempt: number): string {
  return `${typeof id === 'string' ? id.replaceAll('-', '') : id.toString('hex')}:${attempt}`;
}

/**
 * Applies a batch of outcomes in one transaction of a few statements, whatever its size: update
 * the job rows (each fenced by its attempt), write every attempt row, free the tenant slots.
 * Returns the writes whose claim was lost (their job rows were left alone).
 *
 * The common case has no stale result, so the fenced updates run first; only when they match
 * fewer rows than they name is the transaction rolled back and run again behind a locking read
 * that tells the current claims from the lost ones.
 */
export async function recordOutcomes(
  pool: Pool,
  writes: OutcomeWrite[],
  /** Told, once committed, what the batch's final outcomes set off (callback jobs, paused tasks). */
  onFollowUps?: (report: FollowUpReport) => void,
  /**
   * The instant the batch's times are written from (a retry's run_at, a park's heartbeat timeout
   * and deadline, finished_at, the attempt rows' end) instead of the database clock: tests step
   * time with it; production leaves it out.
   */
  at: Date | null = null,
): Promise<OutcomeWrite[]> {
  if (writes.length === 0) return [];
  let applied: { lost: OutcomeWrite[]; followUps: FollowUpReport | null } | undefined;
  try {
    applied = await withTransaction(pool, (conn) => applyOutcomes(conn, writes, null, at));
  } catch (err) {
    if (!(err instanceof FenceMismatch)) throw err;
  }
  applied ??= await withTransaction(pool, async (conn) => {
    const [current] = await conn.query<FencedClaimRow[]>(OUTCOME_LOCK, [
      writes.map((w) => [idToBin(w.job.id), w.job.attempt]),
    ]);
    return applyOutcomes(conn, writes, new Set(current.map((r) => key(r.id, Number(r.attempt)))), at);
  });
  if (applied.followUps && onFollowUps) onFollowUps(applied.followUps);
  return applied.lost;
}

class FenceMismatch extends Error {}

async function applyOutcomes(
  conn: PoolConnection,
  writes: OutcomeWrite[],
  live: Set<string> | null,
  at: Date | null,
): Promise<{ lost: OutcomeWrite[]; followUps: FollowUpReport | null }> {
  const current = live ? writes.filter((w) => live.has(key(w.job.id, w.job.attempt))) : writes;
  if (current.length > 0 && (await updateJobs(conn, current, at)) !== current.length) {
    throw new FenceMismatch();
  }
  await writeAttempts(conn, writes, at);
  const finished = await finishJobs(conn, current.map(endOf));
  const lost = live ? writes.filter((w) => !live.has(key(w.job.id, w.job.attempt))) : [];
  // A slot is freed by its holder whatever became of the job: the call it guarded has ended. The
  // finish path frees those of the ends; a lost claim's holder frees its own here.
  await releaseTenantSlots(conn, lost.map(claimOf));
  const followUps = current.some(isReported)
    ? { callbackJobs: finished.callbackJobs, pausedTasks: finished.pausedTasks }
    : null;
  return { lost, followUps };
}

/** A write whose final outcome its row says to report or count (callbacks, failure streak). */
function isReported(w: OutcomeWrite): boolean {
  return !!w.job.followUps && (w.transition.to === 'succeeded' || w.transition.to === 'dead');
}

/** The attempt a write held, with its tenant slot. */
function claimOf(w: OutcomeWrite): Pick<JobEnd, 'id' | 'attempt' | 'slot'> {
  const slot =
    w.job.tenantSlot != null && w.job.tenantId ? { tenantId: w.job.tenantId, slot: w.job.tenantSlot } : null;
  return { id: w.job.id, attempt: w.job.attempt, slot };
}

/** What an applied write ended: the job's new state, and what its end carries to the follow-ups. */
function endOf(w: OutcomeWrite): JobEnd {
  const { job, transition } = w;
  const to = transition.to;
  return {
    ...claimOf(w),
    state: to === 'retry' || to === 'give_back' ? 'pending' : to,
    followUps: job.followUps ?? null,
    workflowNode:
      job.workflowId && job.nodeId
        ? { workflowId: job.workflowId, nodeId: job.nodeId, partition: partitionOfNodeJob(job) }
        : null,
    responseBody: w.responseBody ?? null,
  };
}

/** A node job's partition as its claim read it (its run's): the walk is keyed by it. */
function partitionOfNodeJob(job: OutcomeWrite['job']): number {
  if (job.partition === undefined)
    throw new Error(`outcome: node job ${job.id} claimed without its partition`);
  return job.partition;
}

/**
 * The fenced job updates of a batch; returns the rows they matched. Jobs that finished the same
 * way share one plain update (at a peak, the whole batch is one); the rest, whose next state
 * depends on the row (a retry, a park or a give-back meet a requested cancel), go through one
 * update joined to a derived table of per-row values.
 */
async function updateJobs(conn: PoolConnection, writes: OutcomeWrite[], at: Date | null): Promise<number> {
  type Finish = Extract<JobTransition, { lastStatus: number | null; lastError: string | null }>;
  const groups = new Map<string, { t: Finish; writes: OutcomeWrite[] }>();
  const rest: OutcomeWrite[] = [];
  for (const w of writes) {
    const t = w.transition;
    if (t.to === 'succeeded' || t.to === 'dead' || t.to === 'cancelled') {
      const k = `${t.to}\n${t.lastStatus}\n${t.lastError}`;
      const group = groups.get(k);
      if (group) group.writes.push(w);
      else if (groups.size < MAX_FINISH_GROUPS) groups.set(k, { t, writes: [w] });
      else rest.push(w);
    } else {
      rest.push(w);
    }
  }
  let matched = 0;
  for (const { t, writes: group } of groups.values()) {
    const ids = group.map((w) => idToBin(w.job.id));
    const [res] = await conn.query<ResultSetHeader>(OUTCOME_FINISH(at), [
      t.to,
      t.lastStatus,
      t.lastError?.slice(0, MAX_ERROR) ?? null,
      ids,
      group.map((w, i) => [ids[i], w.job.attempt]),
    ]);
    matched += res.affectedRows;
  }
  if (rest.length > 0) {
    const apply = withRows(
      OUTCOME_APPLY(at),
      [
        'id',
        'attempt',
        'next',
        'last_status',
        'last_error',
        'delay_ms',
        'given_back',
        'heartbeat_s',
        'deadline_s',
      ],
      rest.map(({ job, transition: t }) => [
        idToBin(job.id),
        job.attempt,
        nextState(t),
        'lastStatus' in t ? t.lastStatus : null,
        'lastError' in t ? (t.lastError?.slice(0, MAX_ERROR) ?? null) : null,
        t.to === 'retry' ? Math.max(0, Math.round(t.delayMs)) : 0,
        t.to === 'give_back' ? 1 : 0,
        t.to === 'parked' ? t.heartbeatSeconds : 0,
        t.to === 'parked' ? t.deadlineSeconds : 0,
      ]),
    );
    const [res] = await conn.query<ResultSetHeader>(apply.sql, apply.params);
    matched += res.affectedRows;
  }
  return matched;
}

/** The columns of an outcome batch's attempt rows (outcome-attempts.sql, and -parked.sql before `parked`). */
export const OUTCOME_ATTEMPT_COLUMNS = [
  'job_id',
  'attempt',
  'executor',
  'started_at',
  'status',
  'error_class',
  'error',
  'duration_ms',
] as const;

/** One attempt row per write (see outcome-attempts.sql); a parked attempt may stay open. */
async function writeAttempts(conn: PoolConnection, writes: OutcomeWrite[], at: Date | null): Promise<void> {
  const rows = writes.map(({ job, attempt }) => [
    idToBin(job.id),
    job.attempt,
    job.owner,
    job.claimedAt,
    attempt.status,
    attempt.errorClass,
    attempt.error?.slice(0, MAX_ERROR) ?? null,
    Math.max(0, Math.round(attempt.durationMs)),
  ]);
  const columns = OUTCOME_ATTEMPT_COLUMNS;
  if (writes.some((w) => w.transition.to === 'parked')) {
    const parked = withRows(
      OUTCOME_ATTEMPTS_PARKED(at),
      [...columns, 'parked'],
      rows.map((r, i) => [...r, writes[i]!.transition.to === 'parked' ? 1 : 0]),
    );
    await conn.query(parked.sql, parked.params);
    return;
  }
  const plain = withRows(OUTCOME_ATTEMPTS(at), columns, rows);
  await conn.query(plain.sql, plain.params);
}

/** One outcome; throws ClaimLostError when the claim is no longer current. */
export async function recordOutcome(
  pool: Pool,
  job: HeldClaim,
  transition: JobTransition,
  attempt: AttemptRecord,
): Promise<void> {
  const lost = await recordOutcomes(pool, [{ job, transition, attempt }]);
  if (lost.length > 0) throw new ClaimLostError(job.id, job.attempt);
}
