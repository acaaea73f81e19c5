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
import { clockedSql, loadSql, withNamedCases, withRows } from '../../sql.ts';
import { withTransaction } from '../../transaction.ts';
import { afterCommit, type FinishContext, finishJobs, type JobEnd } from '../finish/index.ts';
import { releaseFlowHolds } from '../flow-control/index.ts';
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

/**
 * The partition of a write's job, as its claim read it from the row: every statement of the batch
 * is keyed by the batch's partitions (docs/sharding.md), so through vtgate each goes to one shard.
 */
function partitionOf(w: OutcomeWrite): number {
  const p = w.job.partition;
  if (p === undefined) throw new Error(`recordOutcomes: the claim of job ${w.job.id} carries no partition`);
  return p;
}

/** The distinct partitions of a batch, ascending (the key of each of its statements). */
function partitionsOf(writes: readonly OutcomeWrite[]): number[] {
  return [...new Set(writes.map(partitionOf))].sort((a, b) => a - b);
}
/** Distinct (state, status, error) groups written as plain updates; past this, outcome-apply.sql's CASE update. */
const MAX_FINISH_GROUPS = 4;

/** The state a write moves its job to unless a cancel was requested meanwhile (outcome-apply.sql). */
function nextState(t: JobTransition): string {
  if (t.to === 'retry' || t.to === 'give_back') return 'pending';
  if (t.to === 'parked') return 'running';
  return t.to;
}

function key(id: string | Buffer, attempt: number): string {
  return `${typeof id === 'string' ? id.replaceAll('-', '') : id.toString('hex')}:${attempt}`;
}

/**
 * Applies a batch of outcomes in one transaction of a few statements, whatever its size: update
 * the job rows (each fenced by its attempt), write every attempt row; then, once committed, free
 * the tenant slots and flow holds. Returns the writes whose claim was lost (their job rows were left alone).
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
  let applied: Applied | undefined;
  try {
    applied = await withTransaction(pool, (conn) => applyOutcomes(conn, writes, null, at));
  } catch (err) {
    if (!(err instanceof FenceMismatch)) throw err;
  }
  applied ??= await withTransaction(pool, async (conn) => {
    const [current] = await conn.query<FencedClaimRow[]>(OUTCOME_LOCK, [
      partitionsOf(writes),
      writes.map((w) => [idToBin(w.job.id), w.job.attempt]),
    ]);
    return applyOutcomes(conn, writes, new Set(current.map((r) => key(r.id, Number(r.attempt)))), at);
  });
  await releaseHolds(pool, writes);
  // The follow-ups' parts on the global keyspace (a run's end gives its quota place back: D61).
  await afterCommit(pool, applied.finished);
  if (applied.followUps && onFollowUps) onFollowUps(applied.followUps);
  return applied.lost;
}

/**
 * Frees the tenant slots and flow holds the batch's attempts held, once its transaction committed:
 * they are in the global keyspace (docs/sharding.md), so never in the shard's transaction. Every
 * write's attempt has ended, current or lost, whatever became of its job (the call it guarded is
 * over); each is freed only while that attempt holds it. If this fails they run out with the
 * attempt's lease, which nobody renews any more: the tenant runs under its limit meanwhile.
 */
async function releaseHolds(pool: Pool, writes: readonly OutcomeWrite[]): Promise<void> {
  try {
    await releaseTenantSlots(pool, writes.map(claimOf));
    await releaseFlowHolds(
      pool,
      writes.filter((w) => w.job.flowHold).map((w) => ({ id: w.job.id, attempt: w.job.attempt })),
    );
  } catch {
    // Committed outcomes stand; the slots and holds expire (above).
  }
}

class FenceMismatch extends Error {}

/** What a batch's transaction did: the lost writes, what to report, the finish path's context. */
interface Applied {
  lost: OutcomeWrite[];
  followUps: FollowUpReport | null;
  finished: FinishContext;
}

async function applyOutcomes(
  conn: PoolConnection,
  writes: OutcomeWrite[],
  live: Set<string> | null,
  at: Date | null,
): Promise<Applied> {
  const current = live ? writes.filter((w) => live.has(key(w.job.id, w.job.attempt))) : writes;
  if (current.length > 0 && (await updateJobs(conn, current, at)) !== current.length) {
    throw new FenceMismatch();
  }
  await writeAttempts(conn, writes, at);
  const finished = await finishJobs(conn, current.map(endOf));
  const lost = live ? writes.filter((w) => !live.has(key(w.job.id, w.job.attempt))) : [];
  const followUps = current.some(isReported)
    ? { callbackJobs: finished.callbackJobs, pausedTasks: finished.pausedTasks }
    : null;
  return { lost, followUps, finished };
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
  const partition = partitionOf(w);
  return {
    ...claimOf(w),
    partition,
    state: to === 'retry' || to === 'give_back' ? 'pending' : to,
    followUps: job.followUps ?? null,
    workflowNode:
      job.workflowId && job.nodeId ? { workflowId: job.workflowId, nodeId: job.nodeId, partition } : null,
    responseBody: w.responseBody ?? null,
  };
}

/**
 * The fenced job updates of a batch; returns the rows they matched. Jobs that finished the same
 * way share one plain update (at a peak, the whole batch is one); the rest, whose next state
 * depends on the row (a retry, a park or a give-back meet a requested cancel), go through one
 * single-table update that takes each row's values from a CASE on its id per column
 * (outcome-apply.sql, D57). Every statement is keyed by the batch's partitions.
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
      partitionsOf(group),
      ids,
      group.map((w, i) => [ids[i], w.job.attempt]),
    ]);
    matched += res.affectedRows;
  }
  if (rest.length > 0) {
    const apply = withNamedCases(OUTCOME_APPLY(at), applyCases(rest), [
      partitionsOf(rest),
      rest.map((w) => idToBin(w.job.id)),
      rest.map((w) => [idToBin(w.job.id), w.job.attempt]),
    ]);
    const [res] = await conn.query<ResultSetHeader>(apply.sql, apply.params);
    matched += res.affectedRows;
  }
  return matched;
}

/**
 * The per-row values of outcome-apply.sql, a list of (id, value) per CASE: each lists only the
 * rows whose value is not its ELSE (NULL, or 0), so a row's CASE compares its id with those alone.
 */
function applyCases(rest: readonly OutcomeWrite[]): Record<string, [Buffer, unknown][]> {
  const cases: Record<string, [Buffer, unknown][]> = {
    next: [],
    status: [],
    error: [],
    given_back: [],
    delay: [],
    deadline: [],
    heartbeat: [],
  };
  for (const { job, transition: t } of rest) {
    const id = idToBin(job.id);
    cases.next!.push([id, nextState(t)]);
    if ('lastStatus' in t && t.lastStatus !== null) cases.status!.push([id, t.lastStatus]);
    if ('lastError' in t && t.lastError != null) cases.error!.push([id, t.lastError.slice(0, MAX_ERROR)]);
    if (t.to === 'give_back') cases.given_back!.push([id, 1]);
    if (t.to === 'retry') cases.delay!.push([id, Math.max(0, Math.round(t.delayMs))]);
    if (t.to === 'parked') {
      cases.deadline!.push([id, t.deadlineSeconds]);
      cases.heartbeat!.push([id, t.heartbeatSeconds]);
    }
  }
  return cases;
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
    await conn.query(parked.sql, [...parked.params, partitionsOf(writes)]);
    return;
  }
  const plain = withRows(OUTCOME_ATTEMPTS(at), columns, rows);
  await conn.query(plain.sql, [...plain.params, partitionsOf(writes)]);
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
