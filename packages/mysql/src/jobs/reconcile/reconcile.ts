import {
  allPartitions,
  DEFAULT_PARTITIONS,
  type JobsEnded,
  type MaintenanceGauges,
  type ReleaseResult,
} from '@dsched/domain';
import type { Pool, PoolConnection, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import { binToId } from '../../ids.ts';
import { databaseNow } from '../../pool.ts';
import { loadSql } from '../../sql.ts';
import { binToTrace } from '../../trace-context.ts';
import { withTransaction } from '../../transaction.ts';
import { finishJobs } from '../finish/index.ts';
import { followUpsOfRow } from '../follow-ups/index.ts';

// The reconciler's statements. Each pass takes one batch: a locking select that skips rows
// another replica holds (so replicas share the work instead of queueing on it), one fenced update
// of the batch, one update closing the batch's attempt rows. Nothing loops per row.
//
// Time is a parameter: a pass reads the database clock once (`databaseNow`) and every statement
// of it takes that instant, so its select and its fenced update agree on now, and a test passes
// `at` to step past a lease or a deadline instead of sleeping or rewriting the rows.

const SELECT_EXPIRED = loadSql(import.meta.url, './release-expired-select.sql');
const RELEASE_EXPIRED = loadSql(import.meta.url, './release-expired-update.sql');
const SELECT_PAST_DEADLINE = loadSql(import.meta.url, './deadline-select.sql');
const FAIL_PAST_DEADLINE = loadSql(import.meta.url, './deadline-update.sql');
const SELECT_OF_OWNERS = loadSql(import.meta.url, './owner-select.sql');
const RELEASE_OF_OWNERS = loadSql(import.meta.url, './owner-update.sql');
const RUNNING_OWNERS = loadSql(import.meta.url, './running-owners.sql');
const CLOSE_ATTEMPTS = loadSql(import.meta.url, './close-abandoned-attempts.sql');
const INSERT_ATTEMPTS = loadSql(import.meta.url, './abandoned-attempts-insert.sql');
const READY_BACKLOG = loadSql(import.meta.url, './ready-backlog.sql');
const DLQ_SIZE = loadSql(import.meta.url, './dlq-size.sql');

/** release-expired-select.sql, deadline-select.sql, owner-select.sql. */
interface ReleasableRow extends RowDataPacket {
  id: Buffer;
  attempt: number;
  /** 1 when this attempt was the last one allowed. */
  spent: number;
  task_id: Buffer | null;
  has_callbacks: number;
  counts_failures: number;
  workflow_id: Buffer | null;
  node_id: string | null;
  lane: string;
  trace_context: Buffer | null;
}

/** running-owners.sql. */
interface OwnerRow extends RowDataPacket {
  claimed_by: string;
}

/** ready-backlog.sql (per lane) and dlq-size.sql (lane absent). */
interface CountRow extends RowDataPacket {
  lane?: string;
  n: number;
}

const NONE: ReleaseResult = { released: 0, dead: 0 };

/**
 * The group a pass serves when its caller names none: every partition of the default count. Tests
 * only; the reconciler passes each group of its shard map (docs/sharding.md).
 */
const EVERY = allPartitions(DEFAULT_PARTITIONS);

/**
 * What sets one pass apart from the others: its locking select, its fenced update (each with its
 * parameters at the pass's instant) and what the attempt rows it ends say.
 */
interface Pass {
  /** The group of partitions the pass serves: every statement is keyed by it. */
  partitions: readonly number[];
  select: string;
  selectParams: (now: Date) => unknown[];
  update: string;
  /** The batch's ids and (id, attempt) pairs, in primary-key order. */
  updateParams: (now: Date, ids: Buffer[], pairs: unknown[][]) => unknown[];
  attemptEnd: { errorClass: string; error: string };
}

/**
 * One pass, in one transaction: the database clock read once (or `at`, in tests), one locking
 * select of a batch, its fenced update, the batch's attempt rows and the finish path. Tells
 * `onEnded` (the reconciler's spans, tracing on) of its ends in sampled traces once it committed.
 */
async function runPass(
  pool: Pool,
  pass: Pass,
  onEnded: JobsEnded | undefined,
  at: Date | null,
): Promise<ReleaseResult> {
  const { result, traced } = await withTransaction(pool, async (conn) => {
    const now = await databaseNow(conn, at);
    const [rows] = await conn.query<ReleasableRow[]>(pass.select, pass.selectParams(now));
    return releaseBatch(conn, now, rows, pass);
  });
  if (onEnded && traced.length > 0) onEnded(traced);
  return result;
}

async function releaseBatch(
  conn: PoolConnection,
  now: Date,
  rows: ReleasableRow[],
  pass: Pass,
): Promise<{ result: ReleaseResult; traced: Parameters<JobsEnded>[0] }> {
  if (rows.length === 0) return { result: NONE, traced: [] };
  // Primary-key order: the same lock order as every other multi-row write.
  rows.sort((a, b) => Buffer.compare(a.id, b.id));
  const ids = rows.map((r) => r.id);
  const pairs = rows.map((r) => [r.id, r.attempt]);
  const { errorClass, error } = pass.attemptEnd;
  // A claimed job's attempt row is written here from the job row, before the update forgets the
  // executor; a parked job's attempt row exists (open) and is closed after it.
  const group = pass.partitions;
  await conn.query(INSERT_ATTEMPTS, [now, now, errorClass, error, now, now, group, ids, pairs]);
  const [res] = await conn.query<ResultSetHeader>(pass.update, pass.updateParams(now, ids, pairs));
  if (res.affectedRows === 0) return { result: NONE, traced: [] };
  await conn.query(CLOSE_ATTEMPTS, [now, errorClass, error, now, group, ids, pairs]);
  // The rows stay locked from the select to here, so the update changed exactly those rows and
  // `spent` (read under the lock) says which of them went to the DLQ, the others back to pending.
  // Either way an attempt ended here, as one an executor recorded: the finish path follows it.
  const { pausedTasks, traced } = await finishJobs(
    conn,
    rows.map((r) => ({
      id: binToId(r.id),
      attempt: Number(r.attempt),
      partition: Number(r.partition),
      state: Number(r.spent) === 1 ? 'dead' : 'pending',
      followUps: followUpsOfRow(r),
      workflowNode:
        r.workflow_id && r.node_id
          ? { workflowId: binToId(r.workflow_id), nodeId: String(r.node_id), partition: Number(r.partition) }
          : null,
      trace: binToTrace(r.trace_context),
      lane: String(r.lane),
    })),
  );
  const dead = rows.filter((r) => Number(r.spent) === 1).length;
  return {
    result: { released: res.affectedRows - dead, dead, ...(pausedTasks > 0 ? { pausedTasks } : {}) },
    traced,
  };
}

// The three passes. `at`: the instant of the pass instead of the database clock (tests; production
// passes nothing).

/** Gives back one batch of expired claims (to pending, or to the DLQ when attempts are spent). */
export function releaseExpiredClaims(
  pool: Pool,
  limit: number,
  onEnded?: JobsEnded,
  at: Date | null = null,
  partitions: readonly number[] = EVERY,
): Promise<ReleaseResult> {
  const pass: Pass = {
    partitions,
    select: SELECT_EXPIRED,
    selectParams: (now) => [now, partitions, limit],
    update: RELEASE_EXPIRED,
    updateParams: (now, ids, pairs) => [now, now, now, partitions, ids, pairs, now],
    attemptEnd: { errorClass: 'lease_expired', error: 'claim lease expired before the outcome was recorded' },
  };
  return runPass(pool, pass, onEnded, at);
}

/** Fails one batch of asynchronous jobs past their deadline (retry after backoff, or the DLQ). */
export function failPastDeadline(
  pool: Pool,
  limit: number,
  onEnded?: JobsEnded,
  at: Date | null = null,
  partitions: readonly number[] = EVERY,
): Promise<ReleaseResult> {
  const pass: Pass = {
    partitions,
    select: SELECT_PAST_DEADLINE,
    selectParams: (now) => [now, partitions, limit],
    update: FAIL_PAST_DEADLINE,
    updateParams: (now, ids, pairs) => [now, now, now, partitions, ids, pairs, now],
    attemptEnd: { errorClass: 'deadline', error: 'no completion before the deadline' },
  };
  return runPass(pool, pass, onEnded, at);
}

/** Gives back one batch of the claims held by executors that are known to be gone. */
export async function releaseClaimsOf(
  pool: Pool,
  owners: string[],
  limit: number,
  onEnded?: JobsEnded,
  at: Date | null = null,
  partitions: readonly number[] = EVERY,
): Promise<ReleaseResult> {
  if (owners.length === 0) return NONE;
  const pass: Pass = {
    partitions,
    select: SELECT_OF_OWNERS,
    selectParams: () => [owners, partitions, limit],
    update: RELEASE_OF_OWNERS,
    updateParams: (now, ids, pairs) => [now, now, now, partitions, ids, pairs, owners],
    attemptEnd: { errorClass: 'executor_gone', error: 'the executor holding the claim is gone' },
  };
  return runPass(pool, pass, onEnded, at);
}

/** The executors holding synchronous claims now. */
export async function runningClaimOwners(pool: Pool, limit = 10_000): Promise<string[]> {
  const [rows] = await pool.query<OwnerRow[]>(RUNNING_OWNERS, [limit]);
  return rows.map((r) => String(r.claimed_by));
}

/** The queue's health at a glance: due pending jobs per lane and the DLQ's size. */
export async function readMaintenanceGauges(pool: Pool): Promise<MaintenanceGauges> {
  const [[backlog], [dlq]] = await Promise.all([
    pool.query<CountRow[]>(READY_BACKLOG),
    pool.query<CountRow[]>(DLQ_SIZE),
  ]);
  const readyBacklog: Record<string, number> = { critical: 0, default: 0, long: 0 };
  for (const r of backlog) readyBacklog[String(r.lane)] = Number(r.n);
  return { readyBacklog, dlqSize: Number(dlq[0]!.n) };
}
