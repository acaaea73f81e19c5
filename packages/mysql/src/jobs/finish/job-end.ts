import type { EndedJob, FinishFollowUps, FollowUpReport, TraceContext } from '@dsched/domain';
import type { Pool, PoolConnection } from 'mysql2/promise';

// The vocabulary of the finish path (finish-jobs.ts): what a path ended, and what a follow-up is.

/** What one path ended, in the caller's transaction, its fenced update having matched. */
export interface JobEnd {
  id: string;
  /** The attempt that ended (the fencing token the path's update carried). */
  attempt: number;
  /**
   * The job's partition (the shard key), which keys the follow-ups' statements (docs/sharding.md):
   * its row's, which every path that ends a job has read (a job stored before the key may sit in
   * another partition than its id names: D54).
   */
  partition: number;
  /**
   * What the job became: a final state; `pending` when the attempt ended and the job waits for
   * another (a retry after backoff, a give-back); `parked` when the call answered 202 and the job
   * waits for its completion through job-api (the call ended, the attempt did not).
   */
  state: 'succeeded' | 'dead' | 'cancelled' | 'pending' | 'parked';
  /** What its final outcome sets off (its row's callbacks, failure count); null: nothing. */
  followUps: FinishFollowUps | null;
  /** A workflow node's job: its node, whose run the end moves on, and the run's partition (the job row's). */
  workflowNode: { workflowId: string; nodeId: string; partition: number } | null;
  /**
   * The tenant slot the ended attempt held (an executor's claim of a limited tenant's job): freed by
   * the outcome after its commit (outcomes.ts), not by a follow-up.
   */
  slot?: { tenantId: string; slot: number } | null;
  /** The call's capped response body (the executor's outcome). */
  responseBody?: string | null;
  /** The target's report of a 202 job through job-api: its output as JSON text, and its error. */
  report?: { output: string | null; error: string | null } | null;
  /**
   * The job's stored trace context and lane, read by the path's own lookup of the row (no
   * statement of its own): a sampled one makes the end a span of the occurrence's trace.
   */
  trace?: TraceContext | null;
  lane?: string;
}

/**
 * When a follow-up runs: `record`, what the ended attempt leaves (its output, its callback
 * job, its task's streak, the hold of a retry in a paused run); `tell`, what the end tells other
 * rows (the walk: a node's children); `settle`, what ends with it (runs with nothing left to run).
 */
export const FOLLOW_UP_PHASES = ['record', 'tell', 'settle'] as const;
export type FollowUpPhase = (typeof FOLLOW_UP_PHASES)[number];

/** What one finishJobs call's follow-ups did, and what later ones read of earlier ones. */
export interface FinishContext extends FollowUpReport {
  /** Workflow runs the follow-ups touched (the walk, by hex id, with their partitions), for the run ends of `settle`. */
  runs: Map<string, { id: Buffer; partition: number }>;
  /** The ends in a sampled trace, for the path to make their spans once it committed. */
  traced: EndedJob[];
}

/** One follow-up: one small module, one or two statements for a whole batch of ends. */
export interface FollowUp {
  name: string;
  phase: FollowUpPhase;
  /**
   * It acts on workflow node jobs' ends: finishJobs refuses to end a node job while no registered
   * follow-up says so (the workflows layer not loaded), rather than leave its run unwalked.
   */
  nodeJobs?: boolean;
  run(conn: PoolConnection, ends: readonly JobEnd[], context: FinishContext): Promise<void>;
  /**
   * Its part on the global keyspace, after the path's transaction committed (never in it: docs/
   * sharding.md), for a path that calls afterCommit; best effort: what it leaves undone, a pass
   * of the reconciler finishes.
   */
  afterCommit?(pool: Pool, context: FinishContext): Promise<void>;
}

/** The distinct partitions of the ends (finishJobs has filled them in), ascending: the follow-ups' key. */
export function partitionsOfEnds(ends: readonly JobEnd[]): number[] {
  return [...new Set(ends.map((e) => e.partition))].sort((a, b) => a - b);
}

/** The ends that are final outcomes: succeeded or dead (what callbacks and streaks report). */
export function finalOutcomes(ends: readonly JobEnd[]): JobEnd[] {
  return ends.filter((e) => e.state === 'succeeded' || e.state === 'dead');
}
