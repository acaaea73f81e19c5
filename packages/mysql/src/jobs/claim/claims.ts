import {
  type ClaimCursor,
  type ClaimedJob,
  type ClaimResult,
  DEFAULT_PARTITIONS,
  type Lane,
  priorityFromRank,
  type RetryPolicy,
  type Target,
} from '@dsched/domain';
import type { Pool, PoolConnection, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import { binToId, maybeBinToId, uuidFromHex } from '../../ids.ts';
import { readJson } from '../../json.ts';
import { clockedSql, loadSql } from '../../sql.ts';
import { binToTrace } from '../../trace-context.ts';
import { withTransaction } from '../../transaction.ts';
import { finishJobs } from '../finish/index.ts';
import { createFlowKeys, deferFlowControlled, type FlowRow } from '../flow-control/index.ts';
import { followUpsOfRow } from '../follow-ups/index.ts';
import { takeHolds } from './claim-holds.ts';
import { type ClaimTenant, ClaimTenants } from './claim-tenants.ts';

// Every statement of the claim reads the clock as `:now` (clockedSql): NOW(3), or ClaimArgs.at.
const clocked = (file: string) => clockedSql(loadSql(import.meta.url, file));
const CLAIM_SELECT = clocked('./claim-select.sql');
const CLAIM_SELECT_AFTER = clocked('./claim-select-after.sql');
const CLAIM_SELECT_FAIR = clocked('./claim-select-fair.sql');
const CLAIM_SELECT_FAIR_AFTER = clocked('./claim-select-fair-after.sql');
const CLAIM_READ = clocked('./claim-read.sql');
const CLAIM_UPDATE = clocked('./claim-update.sql');
const CLAIM_DEFER = clocked('./claim-defer.sql');
const CLAIM_CANCEL = clocked('./claim-cancel.sql');
const CLAIM_PROBE = clocked('./claim-probe.sql');

/** The claim's locking reads as sent, for the benches and loadtests that EXPLAIN or time them alone. */
export const CLAIM_STATEMENTS = { select: CLAIM_SELECT(), selectFair: CLAIM_SELECT_FAIR() } as const;

/** Every partition of the default SCHEDULER_PARTITIONS: one primary's one group. */
export const ALL_PARTITIONS: readonly number[] = Array.from({ length: DEFAULT_PARTITIONS }, (_, i) => i);

export interface ClaimArgs {
  lane: Lane;
  /**
   * The group of partitions the claim serves: one shard's (docs/sharding.md). Every statement of
   * the claim is keyed by it, so on Vitess it goes to that shard alone. Default: ALL_PARTITIONS
   * (one primary, the default partition count).
   */
  partitions?: readonly number[];
  /**
   * Where the claim reads its jobs' tenants (secret, limit, weight): the executor keeps one for all
   * its claims, so a tenant is read once per its time to live. Default: read every claim.
   */
  tenants?: ClaimTenants;
  limit: number;
  owner: string;
  leaseSeconds: number;
  /** How far a job of a tenant at its limit moves back in the claim order. */
  deferMs?: number;
  /** Resume after this position instead of reading the lane's due range from its head. */
  after?: ClaimCursor | null;
  /**
   * Also claim jobs due within this many milliseconds (default 0: only due ones). The claimer holds
   * such a job until it is due (`ClaimedJob.dueInMs`), so its call is not late by a claim round trip.
   */
  leadMs?: number;
  /**
   * `fair`: by priority, then start tag (weighted fair share between tenants; the lane's due jobs
   * are tagged by tagDueJobs first, docs/fair-share.md). `due` (default): by priority, then run_at
   * (the critical lane, and any lane with fairness off).
   */
  order?: 'fair' | 'due';
  /** How far a job over its flow control key's parallelism moves back (default 100 ms). */
  flowDeferMs?: number;
  /**
   * The instant the claim takes for the database clock: what is due, the lease's end, the times
   * it writes. Tests step time with it instead of sleeping; production leaves it out (NOW(3)).
   */
  at?: Date | null;
  /**
   * Runs between the claim's step 2 (its slots and flow holds committed on the global keyspace)
   * and step 3 (the shard's transaction starting the attempts): a test makes it throw to see what a
   * crash between the two leaves (docs/sharding.md). Production leaves it out.
   */
  afterHolds?: () => Promise<void>;
}

/** claim-select.sql, claim-select-after.sql: the locked ids in claim order. */
interface DueIdRow extends RowDataPacket {
  id: Buffer;
  partition: number;
  priority: number;
  run_at: Date;
  /** claim-select-fair*.sql only. */
  claim_tag?: string | number;
}

/** claim-read.sql. */
interface ClaimRow extends RowDataPacket, FlowRow {
  id: Buffer;
  partition: number;
  tenant_id: Buffer;
  task_id: Buffer | null;
  kind: string;
  workflow_id: Buffer | null;
  node_id: string | null;
  scheduled_for: Date;
  priority: number;
  lane: Lane;
  attempt: number;
  max_attempts: number;
  run_at: Date;
  /** JSON columns: a string or a parsed value, by driver and server (readJson takes both). */
  target: unknown;
  retry: unknown;
  cancel_requested: number;
  trace_context: Buffer | null;
  db_now: Date;
  has_callbacks: number;
  counts_failures: number;
  /** Not a column: the id in hex, set once by claimJobs for its maps and the job's id string. */
  hexId: string;
  /** Not a column: the job's tenant (claim-tenants.sql), set by claimJobs after the read. */
  tenant: ClaimTenant;
}

const READ_EVERY_CLAIM = new ClaimTenants({ ttlMs: 0 });

const NOTHING: ClaimResult = {
  jobs: [],
  locked: 0,
  cursor: null,
  deferred: 0,
  cancelled: 0,
  flowDeferred: 0,
};
const PRIORITY_RANKS = [0, 1, 2, 3];

/** The claim's group of partitions (ClaimArgs.partitions). */
function partitionsOf(args: { partitions?: readonly number[] | undefined }): readonly number[] {
  const group = args.partitions ?? ALL_PARTITIONS;
  if (group.length === 0) throw new Error('claim: an empty group of partitions');
  return group;
}

function lockDue(conn: PoolConnection, args: ClaimArgs): Promise<[DueIdRow[], unknown]> {
  if (args.order === 'fair') return lockFair(conn, args);
  const a = args.after;
  const leadUs = Math.max(0, Math.round((args.leadMs ?? 0) * 1000));
  const group = partitionsOf(args);
  if (!a) return conn.query<DueIdRow[]>(CLAIM_SELECT(args.at), [args.lane, leadUs, group, args.limit]);
  const lower = PRIORITY_RANKS.filter((p) => p > a.priority);
  return conn.query<DueIdRow[]>(CLAIM_SELECT_AFTER(args.at), [
    args.lane,
    leadUs,
    group,
    a.priority,
    a.runAt,
    a.priority,
    a.runAt,
    a.id,
    // IN () is not SQL: -1 is no priority.
    lower.length > 0 ? lower : [-1],
    args.limit,
  ]);
}

function lockFair(conn: PoolConnection, args: ClaimArgs): Promise<[DueIdRow[], unknown]> {
  const a = args.after;
  const leadUs = Math.max(0, Math.round((args.leadMs ?? 0) * 1000));
  const group = partitionsOf(args);
  if (!a || a.tag === undefined)
    return conn.query<DueIdRow[]>(CLAIM_SELECT_FAIR(args.at), [args.lane, leadUs, group, args.limit]);
  const lower = PRIORITY_RANKS.filter((p) => p > a.priority);
  return conn.query<DueIdRow[]>(CLAIM_SELECT_FAIR_AFTER(args.at), [
    args.lane,
    leadUs,
    group,
    a.priority,
    a.tag,
    a.priority,
    a.tag,
    a.runAt,
    a.priority,
    a.tag,
    a.runAt,
    a.id,
    lower.length > 0 ? lower : [-1],
    args.limit,
  ]);
}

/**
 * Claims up to `limit` due jobs of a lane for `owner`, in three steps (docs/sharding.md): a short
 * transaction on the shard locks the ids (skipping rows other claimers hold) and reads those rows
 * by primary key; only when some of them belong to a limited tenant or name a flow control key, a
 * transaction on the global keyspace takes their slots and flow holds and commits (claim-holds.ts);
 * then the shard's transaction starts the attempts, defers the rest, and commits. A fixed number of
 * statements whatever the batch, so the locks are short.
 */
export async function claimJobs(pool: Pool, args: ClaimArgs): Promise<ClaimResult> {
  if (args.limit <= 0) return NOTHING;
  const { result, missingFlowKeys } = await lockAndClaim(pool, args);
  // Keys seen for the first time get their row now, outside the claim: their jobs were deferred.
  await createFlowKeys(pool, missingFlowKeys);
  return result;
}

async function lockAndClaim(
  pool: Pool,
  args: ClaimArgs,
): Promise<{ result: ClaimResult; missingFlowKeys: [Buffer, string][] }> {
  const none = { result: NOTHING, missingFlowKeys: [] };
  return withTransaction(pool, async (conn) => {
    const [locked] = await lockDue(conn, args);
    if (locked.length === 0) return none;
    const last = locked[locked.length - 1]!;
    const position = {
      locked: locked.length,
      cursor: {
        priority: Number(last.priority),
        runAt: last.run_at,
        id: last.id,
        ...(last.claim_tag === undefined ? {} : { tag: Number(last.claim_tag) }),
      },
    };
    // Only the partitions of the locked rows: the same shard as the group, fewer values to send.
    const group = [...new Set(locked.map((r) => Number(r.partition)))];
    const [rows] = await conn.query<ClaimRow[]>(CLAIM_READ(args.at), [locked.map((r) => r.id), group]);
    // db_now was read before this moment: run_at - db_now counted from here is never early.
    const readAt = performance.now();
    // The tenants apart from the shard's transaction (claim-tenants.ts), then back on each row.
    const tenants = await (args.tenants ?? READ_EVERY_CLAIM).get(
      pool,
      rows.map((r) => r.tenant_id),
    );
    // Back into claim order (priority, then run_at): slots go, and calls start, in this order.
    // Each id is turned to hex once (a key for the maps below, and the job's id string).
    const rank = new Map(locked.map((r, i) => [hex(r.id), i]));
    for (const r of rows) {
      r.hexId = hex(r.id);
      r.tenant = tenants.get(hex(r.tenant_id))!;
    }
    const candidates = rows.sort((a, b) => rank.get(a.hexId)! - rank.get(b.hexId)!);

    const toCancel = candidates.filter((r) => Number(r.cancel_requested) === 1);
    const live = candidates.filter((r) => Number(r.cancel_requested) !== 1);
    // Step 2 (docs/sharding.md): the slots and flow holds the candidates need, taken and committed
    // on the global keyspace before this transaction starts an attempt; none to take, no step.
    const holds = await takeHolds(pool, live, live[0]?.db_now ?? new Date(), args);
    const { slots, flow } = holds;
    await args.afterHolds?.();
    const deferred = live.filter((r) => holds.tenantDeferred.has(r.hexId));
    const claimed = live.filter(
      (r) => !holds.tenantDeferred.has(r.hexId) && (r.flow_key === null || flow.admitted.has(r.hexId)),
    );
    const counts: Pick<ClaimResult, 'deferred' | 'cancelled' | 'flowDeferred' | 'ended'> = {
      deferred: deferred.length,
      cancelled: toCancel.length,
      flowDeferred: flow.deferredUntil.size,
    };
    const done = (result: ClaimResult) => ({ result, missingFlowKeys: flow.missing });

    if (toCancel.length > 0) {
      await conn.query(CLAIM_CANCEL(args.at), [toCancel.map((r) => r.id), group]);
      // Found cancelled at claim: its attempt ended before it started (a node's run moves on).
      const { traced } = await finishJobs(
        conn,
        toCancel.map((r) => ({
          id: uuidFromHex(r.hexId),
          attempt: Number(r.attempt),
          partition: Number(r.partition),
          state: 'cancelled' as const,
          followUps: followUpsOfRow(r),
          workflowNode:
            r.workflow_id && r.node_id
              ? { workflowId: binToId(r.workflow_id), nodeId: r.node_id, partition: Number(r.partition) }
              : null,
          trace: binToTrace(r.trace_context),
          lane: r.lane,
        })),
      );
      if (traced.length > 0) counts.ended = traced;
    }
    if (deferred.length > 0) {
      await conn.query(CLAIM_DEFER(args.at), [
        Math.round(args.deferMs ?? 1000),
        deferred.map((r) => r.id),
        group,
      ]);
    }
    await deferFlowControlled(conn, live, flow.deferredUntil, group, args.at);
    if (claimed.length === 0) return done({ jobs: [], ...position, ...counts });

    const ids = claimed.map((r) => r.id);
    const dbNow = claimed[0]!.db_now;
    const [res] = await conn.query<ResultSetHeader>(CLAIM_UPDATE(args.at), [
      args.owner,
      dbNow,
      args.leaseSeconds,
      ids,
      group,
    ]);
    if (res.affectedRows !== ids.length) throw new Error('claim: locked rows changed under the lock');
    const sinceRead = performance.now() - readAt;
    // A claim's jobs mostly share a few tenants: each tenant id is formatted once per claim.
    const tenantIds = new Map<string, string>();
    const tenantIdOf = (bin: Buffer) => {
      const key = hex(bin);
      let id = tenantIds.get(key);
      if (id === undefined) {
        id = uuidFromHex(key);
        tenantIds.set(key, id);
      }
      return id;
    };
    const dbNowMs = dbNow.getTime();
    const jobs = claimed.map(
      (r): ClaimedJob => ({
        id: uuidFromHex(r.hexId),
        tenantId: tenantIdOf(r.tenant_id),
        taskId: maybeBinToId(r.task_id),
        kind: r.kind,
        workflowId: maybeBinToId(r.workflow_id),
        nodeId: r.node_id ?? null,
        partition: Number(r.partition),
        scheduledFor: r.scheduled_for,
        priority: priorityFromRank(Number(r.priority)),
        lane: r.lane,
        attempt: Number(r.attempt) + 1,
        maxAttempts: Number(r.max_attempts),
        target: readJson<Target>(r.target),
        retry: readJson<RetryPolicy>(r.retry),
        // A tenant whose row is gone: no secret, as the LEFT JOIN this replaced gave.
        signingSecret: r.tenant.signingSecret as string,
        tenantSlot: slots.get(r.hexId) ?? null,
        ...(r.flow_key === null ? {} : { flowHold: true }),
        tenantWeight: r.tenant.weight ?? 1,
        claimedAt: new Date(Math.max(r.run_at.getTime(), dbNowMs)),
        dueInMs: Math.max(0, r.run_at.getTime() - dbNowMs - sinceRead),
        owner: args.owner,
        followUps: followUpsOfRow(r),
        trace: binToTrace(r.trace_context),
      }),
    );
    return done({ jobs, ...position, ...counts });
  });
}

/**
 * Whether the lane has a job a claim could take now (or within `leadMs`): one plain indexed read,
 * no transaction, for an idle lane to ask before it claims (claim-probe.sql).
 */
export async function claimableJobsWaiting(
  pool: Pool,
  lane: Lane,
  leadMs = 0,
  at: Date | null = null,
  /** The group of partitions (ClaimArgs.partitions). */
  partitions?: readonly number[],
): Promise<boolean> {
  const leadUs = Math.max(0, Math.round(leadMs * 1000));
  const [rows] = await pool.query<RowDataPacket[]>(CLAIM_PROBE(at), [
    lane,
    leadUs,
    partitionsOf({ partitions }),
  ]);
  return rows.length > 0;
}

/** The claimed jobs only; see claimJobs. */
export async function claimDueJobs(pool: Pool, args: ClaimArgs): Promise<ClaimedJob[]> {
  return (await claimJobs(pool, args)).jobs;
}

function hex(b: Buffer): string {
  return b.toString('hex');
}
