import type { JobState, Lane, Priority, RetryPolicy, Target } from '../model.ts';
import type { TraceContext } from '../wire/trace-context.ts';
import type { JobView } from '../wire/views.ts';
import type { FinishFollowUps } from './callbacks.ts';

// The job state machine (ARCHITECTURE.md, docs/glossary.md), the twin of task-lifecycle.ts: which
// states a job moves between, who moves it, and the values the services and the MySQL adapter
// pass each other about a job. Pure types and one table: the statements that apply a transition
// live in packages/mysql/src/jobs, each fenced by the job's attempt (its fencing token).

/** Who may move a job from one state to another, and why. */
export interface JobStateChange {
  from: JobState;
  to: JobState;
  by: 'executor' | 'job-api' | 'task-api' | 'reconciler';
  why: string;
}

/**
 * Every state change a job can make. `failed` is in `JOB_STATES` because the jobs list's state
 * filter (and the column) accept it, but no transition leads there: a call that fails is retried
 * (back to pending) or dead; so it is absent from this table on purpose.
 */
export const JOB_STATE_CHANGES: readonly JobStateChange[] = [
  { from: 'pending', to: 'running', by: 'executor', why: 'claimed: attempt + 1, a claim lease' },
  { from: 'pending', to: 'cancelled', by: 'job-api', why: 'cancelled before a claim' },
  { from: 'pending', to: 'cancelled', by: 'executor', why: 'cancel requested, found at claim' },
  { from: 'running', to: 'succeeded', by: 'executor', why: 'the target answered 2xx' },
  { from: 'running', to: 'pending', by: 'executor', why: 'retry after a backoff, or given back' },
  { from: 'running', to: 'dead', by: 'executor', why: 'a permanent failure, or attempts exhausted' },
  { from: 'running', to: 'cancelled', by: 'executor', why: 'the call was aborted by a cancel' },
  { from: 'running', to: 'running', by: 'executor', why: 'parked: the target answered 202' },
  { from: 'running', to: 'succeeded', by: 'job-api', why: 'a parked job completed' },
  { from: 'running', to: 'pending', by: 'job-api', why: 'a parked job failed, attempts remain' },
  { from: 'running', to: 'dead', by: 'job-api', why: 'a parked job failed on its last attempt' },
  { from: 'running', to: 'cancelled', by: 'job-api', why: 'a parked job cancelled' },
  { from: 'running', to: 'pending', by: 'reconciler', why: 'claim lease expired, or past its deadline' },
  { from: 'running', to: 'dead', by: 'reconciler', why: 'the same, on its last attempt' },
  { from: 'dead', to: 'pending', by: 'job-api', why: 'redriven from the DLQ: a new attempt group' },
  { from: 'pending', to: 'cancelled', by: 'task-api', why: 'its task was edited, paused or deleted' },
  {
    from: 'pending',
    to: 'succeeded',
    by: 'executor',
    why: 'a sleep node woke, or a wait timed out to succeed',
  },
  { from: 'pending', to: 'dead', by: 'executor', why: 'a wait node timed out to fail' },
  { from: 'pending', to: 'succeeded', by: 'task-api', why: 'a wait node was signalled' },
];

/** What an executor's attempt row records of the call. */
export interface AttemptRecord {
  status: number | null;
  errorClass: string | null;
  error: string | null;
  durationMs: number;
}

/** What the executor writes when an attempt ends. */
export type JobTransition =
  | {
      to: 'succeeded' | 'dead' | 'cancelled';
      lastStatus: number | null;
      lastError: string | null;
    }
  | { to: 'retry'; lastStatus: number | null; lastError: string | null; delayMs: number }
  /** Given back unfinished (executor shutdown): pending at once; max_attempts rises by one, so it does not count. */
  | { to: 'give_back'; lastError: string }
  /**
   * The target answered 202: it completes through job-api within `deadlineSeconds`, and
   * heartbeats at least every `heartbeatSeconds` (the first within that long of now).
   */
  | { to: 'parked'; lastStatus: number; heartbeatSeconds: number; deadlineSeconds: number };

/** A job an executor has claimed, with everything its call needs. */
export interface ClaimedJob {
  id: string;
  tenantId: string;
  taskId: string | null;
  kind: string;
  /** A workflow node's job: its run and node (its outcome advances the run). */
  workflowId: string | null;
  nodeId: string | null;
  /** The row's partition (its task's or run's: docs/sharding.md); the claim sets it. */
  partition?: number;
  scheduledFor: Date;
  priority: Priority;
  lane: Lane;
  /** The claim's fencing token: every write about this claim carries it. */
  attempt: number;
  maxAttempts: number;
  target: Target;
  retry: RetryPolicy;
  signingSecret: string;
  /** The tenant slot this claim holds, when the tenant has a concurrency limit. */
  tenantSlot: number | null;
  /** The claim holds a flow control hold (its job names a flow control key): freed by its outcome. */
  flowHold?: boolean;
  /** The tenant's fair-share weight when claimed (metrics of dispatch share by weight); 1 if unknown. */
  tenantWeight?: number;
  /**
   * The attempt's start on the database clock: the claim's time, or the job's run_at when it was
   * claimed ahead of it (see `leadMs` of the claim). For schedule lag on the one clock.
   */
  claimedAt: Date;
  /**
   * How long after the claim returned the job is due (0 unless it was claimed ahead): start the call
   * then. Counted from when the database clock was read, so never early, late by a round trip at most.
   */
  dueInMs: number;
  /** The executor that holds the claim. */
  owner: string;
  /** What the job's final outcome sets off (a callback job, its task's failure count); null: nothing. */
  followUps: FinishFollowUps | null;
  /** The occurrence's trace, stored with the job when it was born (null: a job born before traces were). */
  trace?: TraceContext | null;
}

/** Where a claim stopped in its lane's claim order: the last job it locked. */
export interface ClaimCursor {
  priority: number;
  runAt: Date;
  id: Buffer;
  /** The start tag, for a cursor of the fair claim order. */
  tag?: number;
}

export interface ClaimResult {
  jobs: ClaimedJob[];
  /** Jobs the locking read took (claimed, deferred or cancelled): `limit` means there may be more. */
  locked: number;
  /** The last job the locking read took, to resume after (see claim-select-after.sql). */
  cursor: ClaimCursor | null;
  /** Jobs of tenants at their concurrency limit, moved later in the claim order. */
  deferred: number;
  /** Jobs whose cancel was requested, cancelled instead of claimed. */
  cancelled: number;
  /** Jobs over their flow control key's limits, moved later (docs/flow-control.md). */
  flowDeferred: number;
  /** The cancelled ones in a sampled trace (the finish path's traced ends), for their spans. */
  ended?: EndedJob[];
}

/** The claim an outcome is about: its fence, and the tenant slot it holds if any. */
export interface ClaimRef {
  id: string;
  attempt: number;
  tenantId?: string;
  tenantSlot?: number | null;
  /** It holds a flow control hold (ClaimedJob.flowHold). */
  flowHold?: boolean;
  /** Set on a workflow node's job: its outcome also advances the run (mysql workflow-walk.ts). */
  workflowId?: string | null;
  nodeId?: string | null;
  /** The row's partition, as claimed: a node job's is its run's, which keys the walk (docs/sharding.md). */
  partition?: number;
}

/** A claim as its outcome writes it: who took it and when (its attempt row's executor and start). */
export interface HeldClaim extends ClaimRef {
  owner: string;
  claimedAt: Date;
  /** What the job's final outcome sets off (its row's callbacks, failure count); null: nothing. */
  followUps?: FinishFollowUps | null;
}

export interface OutcomeWrite {
  job: HeldClaim;
  transition: JobTransition;
  attempt: AttemptRecord;
  /** The capped response body: a callback event's (jobs with callbacks) or a workflow node's output (node jobs). */
  responseBody?: string | null;
}

/** What renewing an executor's claim leases found. */
export interface LeaseReport {
  /** Claims no longer this executor's (reclaimed, finished through job-api, cancelled). */
  lost: ClaimRef[];
  /** Claims still held whose cancel was requested. */
  cancelRequested: ClaimRef[];
}

/** A job row with its attempts: what job-api shows and what the archiver writes to history. */
export interface JobRecord {
  tenantId: string;
  view: JobView;
  /** The occurrence's trace context (null: a job made before traces were stored, or history). */
  trace?: TraceContext | null;
  /** When its row was made: the start of the occurrence's root span, when the archiver owes it. */
  bornAt?: Date;
}

/** What job-api's decisions read of a locked job. */
export interface LockedJob {
  state: JobState;
  attempt: number;
  maxAttempts: number;
  retry: RetryPolicy;
  /** An executor holds a claim on it (its call is in flight). */
  claimed: boolean;
  /** Parked: running, no executor call, waiting for complete before deadlineAt. */
  parked: boolean;
  cancelRequested: boolean;
  deadlineAt: Date | null;
  /** The claim lease, or for a parked job its heartbeat timeout. */
  leaseExpiresAt: Date | null;
  /** What its final outcome sets off (callback job, failure count); null: nothing. */
  followUps: FinishFollowUps | null;
  /** A workflow node's job: whose output its completion's `output` becomes. */
  workflowNode?: { workflowId: string; nodeId: string; partition: number } | null;
  /** A scheduled workflow's occurrence job (lane `workflow`): running while the run it started is. */
  startsWorkflow?: boolean;
}

export type CancelResult = 'cancelled' | 'cancel_requested' | 'already_cancelled' | 'finished' | 'not_found';

/** What job-api decided a parked job's completion does. */
export type CompletionDecision =
  | { to: 'succeeded' | 'dead'; output: unknown; error: string | null }
  | { to: 'retry'; output: unknown; error: string | null; delayMs: number };

export type CallbackResult<T> =
  | { kind: 'ok'; value: T }
  | { kind: 'not_found' }
  | { kind: 'stale'; job: LockedJob };

/** What one reconciler batch did: jobs given back for another attempt, and jobs moved to the DLQ. */
export interface ReleaseResult {
  released: number;
  dead: number;
  /** Tasks the dead ones paused (pauseAfterFailures); absent when none. */
  pausedTasks?: number;
}

/**
 * A job's attempt one path ended (the finish path's ends), in a sampled trace: what the span of
 * that end is made from (docs/tracing.md), after the ending transaction committed.
 */
export interface EndedJob {
  id: string;
  attempt: number;
  /** What the job became (the finish path's states: `pending` for a retry or a give-back). */
  state: 'succeeded' | 'dead' | 'cancelled' | 'pending' | 'parked';
  lane: string;
  /** The occurrence's stored context: the span of the end is its child. */
  trace: TraceContext;
}

/** Told of the traced ends of a path's transaction once it committed (tracing on only). */
export type JobsEnded = (ends: readonly EndedJob[]) => void;

export interface MaintenanceGauges {
  readyBacklog: Record<string, number>;
  dlqSize: number;
}
