import type { ScheduleCalendar } from './calendar/calendar-types.ts';
import type { IntervalSchedule } from './calendar/interval.ts';

// The nouns of dsched and their closed vocabularies. Everything here is plain data.

/** Tags on a task or a workflow run, copied to its jobs (docs/tags.md; limits in wire/tags.ts). */
export type Tags = Record<string, string>;

export const PRIORITIES = ['critical', 'high', 'normal', 'low'] as const;
export type Priority = (typeof PRIORITIES)[number];

/** Stored as a small integer so that `ORDER BY priority` puts critical first. */
export const PRIORITY_RANK: Record<Priority, number> = { critical: 0, high: 1, normal: 2, low: 3 };

export function priorityFromRank(rank: number): Priority {
  const p = PRIORITIES[rank];
  if (p === undefined) throw new Error(`unknown priority rank ${rank}`);
  return p;
}

export const LANES = ['critical', 'default', 'long'] as const;
export type Lane = (typeof LANES)[number];

/** A target whose timeout exceeds this runs in the `long` lane unless a lane is given. */
export const LONG_LANE_TIMEOUT_MS = 60_000;

export function laneFor(priority: Priority, timeoutMs: number, requested?: Lane): Lane {
  if (requested) return requested;
  if (priority === 'critical') return 'critical';
  return timeoutMs > LONG_LANE_TIMEOUT_MS ? 'long' : 'default';
}

export const TRIGGER_RULES = ['all_success', 'all_done', 'one_failed'] as const;
/** What a node does with failed parents (docs/workflows.md); decided by triggerDecision. */
export type TriggerRule = (typeof TRIGGER_RULES)[number];

/** What a node asks to be called with, besides its own body. */
export const NODE_INPUTS = ['none', 'parents'] as const;
export type NodeInputs = (typeof NODE_INPUTS)[number];

export const FAILURE_POLICIES = ['continue', 'fail_fast'] as const;
export type FailurePolicy = (typeof FAILURE_POLICIES)[number];

/**
 * What a workflow node does (docs/workflows.md): `call` its target; `sleep` until a time, calling
 * nothing; `wait` for a signal, up to a timeout; `map`: one call of its target per item of a
 * parent's output (a JSON array), made at run time as item nodes.
 */
export const NODE_KINDS = ['call', 'sleep', 'wait', 'map'] as const;
export type NodeKind = (typeof NODE_KINDS)[number];

/** What a `wait` node does when its timeout comes before a signal. */
export const WAIT_TIMEOUT_OUTCOMES = ['fail', 'succeed'] as const;
export type WaitTimeoutOutcome = (typeof WAIT_TIMEOUT_OUTCOMES)[number];

/** One node of a workflow body, defaults applied. */
export interface WorkflowBodyNode {
  id: string;
  kind: NodeKind;
  /** A `call` node's target (required for it; refused on the other kinds). */
  target?: Target | undefined;
  /** A `sleep` node's wake: a duration (`10m`) from when it is reached, or an instant. */
  sleep?: { for?: string | undefined; until?: string | undefined } | undefined;
  /** A `wait` node's timeout in seconds, and what its end at the timeout is. */
  wait?: { timeoutS: number; onTimeout: WaitTimeoutOutcome } | undefined;
  /** A `map` node's parent whose output it maps over, the target each item is sent to, and a cap. */
  map?: MapSpec | undefined;
  dependsOn: string[];
  retry: RetryPolicy;
  priority: Priority;
  trigger: TriggerRule;
  inputs: NodeInputs;
  flowControl?:
    | { key: string; parallelism?: number | undefined; ratePerSecond?: number | undefined }
    | undefined;
}

/**
 * The body of POST /v1/workflows as validated, defaults applied (wire/workflow-spec.ts checks that
 * its schema yields exactly this), and as a workflow task stores it.
 */
export interface WorkflowBody {
  name: string;
  nodes: WorkflowBodyNode[];
  failurePolicy: FailurePolicy;
  maxParallel?: number | undefined;
  deadlineS?: number | undefined;
  metadata?: Record<string, unknown> | undefined;
  tags?: Tags | undefined;
}

/** The body of POST /v1/workflows a task starts a run of at each occurrence. */
export type TaskWorkflow = WorkflowBody;

/**
 * The lane of a workflow task's occurrence jobs: no executor claims it (they claim their own
 * lanes); the reconciler starts each one's run. Not one of LANES: a task cannot ask for it.
 */
export const WORKFLOW_START_LANE = 'workflow' as Lane;

/**
 * The lanes of the node jobs of `sleep` and `wait` nodes: no executor claims them (no call, no
 * slot); the executor's node waker ends them when due (run_at: the wake time, or the wait's
 * timeout), through the finish path. Not LANES: neither a task nor a call node can ask for them.
 */
export const SLEEP_LANE = 'sleep' as Lane;
export const WAIT_LANE = 'wait' as Lane;
/**
 * The lane of a `map` node's job: no executor claims it; the node waker expands the node into its
 * items in slices when it is due, and ends it when its items have (workflow-map.ts, D49).
 */
export const MAP_LANE = 'map' as Lane;

/** A `map` node's request: the parent whose output (a JSON array) it maps over, each item's call. */
export interface MapSpec {
  over: string;
  target: Target;
  maxItems: number;
}

/** What a workflow task's `target` column holds: never called (its jobs are in WORKFLOW_START_LANE). */
export const WORKFLOW_TASK_TARGET: Target = {
  url: 'dsched:workflow',
  method: 'POST',
  headers: {},
  timeoutMs: 30_000,
};

export const TASK_STATES = ['active', 'paused', 'deleted'] as const;
export type TaskState = (typeof TASK_STATES)[number];

export const JOB_STATES = ['pending', 'running', 'succeeded', 'failed', 'dead', 'cancelled'] as const;
export type JobState = (typeof JOB_STATES)[number];

/** States a job never leaves on its own; the archiver moves them to history. */
export const TERMINAL_JOB_STATES: readonly JobState[] = ['succeeded', 'dead', 'cancelled'];

/** How a job came to be; part of its occurrence key so that each path has keys of its own. */
export const JOB_KINDS = ['scheduled', 'trigger', 'backfill', 'workflow', 'callback'] as const;
export type JobKind = (typeof JOB_KINDS)[number];

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Target {
  url: string;
  method: HttpMethod;
  headers: Record<string, string>;
  /** A string is sent as is; any other JSON value is sent as application/json. */
  body?: unknown;
  timeoutMs: number;
}

export interface DstPolicy {
  repeated: 'first' | 'last' | 'both';
  skipped: 'shift' | 'skip';
}

/**
 * `text`: the words the schedule was given in (schedule-text.ts), kept to show beside what they
 * parsed to. `calendar`: days it does not fire on (calendar.ts). A once schedule's `timezone` only
 * says in which zone its description shows the time.
 */
export type Schedule =
  | { type: 'once'; at: Date; timezone?: string; text?: string }
  | {
      type: 'cron';
      expression: string;
      timezone: string;
      dst: DstPolicy;
      calendar?: ScheduleCalendar;
      text?: string;
    }
  | IntervalSchedule;

/** Where dsched reports a job's final outcome: a URL per outcome, each POSTed a signed event. */
/** Flow control as stored on a task and copied to its jobs (docs/flow-control.md). */
export interface FlowControl {
  key: string;
  parallelism: number | null;
  ratePerSecond: number | null;
}

export interface TaskCallbacks {
  onSuccess?: string;
  onDead?: string;
}

export interface RetryRule {
  status: number | '4xx' | '5xx';
  action: 'retry' | 'dead';
}

export interface RetryPolicy {
  maxAttempts: number;
  initialBackoffMs: number;
  maxBackoffMs: number;
  rules: RetryRule[];
}

export type MisfirePolicy = 'fire_once' | 'fire_all' | 'skip';
export type OverlapPolicy = 'allow' | 'forbid';

export interface Task {
  id: string;
  tenantId: string;
  name: string;
  /** The tenant's own name for the task, unique among its live tasks (schedules as code); null: none. */
  key?: string | null;
  schedule: Schedule;
  target: Target;
  priority: Priority;
  lane: Lane;
  retry: RetryPolicy;
  misfirePolicy: MisfirePolicy;
  overlapPolicy: OverlapPolicy;
  metadata: Record<string, unknown> | null;
  /** Copied to every job made from the task (docs/tags.md); null: none. */
  tags: Tags | null;
  /** Each occurrence runs at a deterministic instant in [t, t + jitterS s); 0: at t. */
  jitterS: number;
  /** Pause after this many dead occurrences in a row (cron and interval tasks); null: never. */
  pauseAfterFailures: number | null;
  callbacks: TaskCallbacks | null;
  /** Limits shared with the tenant's other tasks of the same key (docs/flow-control.md); absent: none. */
  flowControl?: FlowControl | null;
  /** A scheduled workflow: each occurrence starts one run of this body (then `target` is unused). */
  workflow: TaskWorkflow | null;
  state: TaskState;
  /** Why the task is paused when dsched paused it (pauseAfterFailures); null otherwise. */
  pausedReason: string | null;
  nextFireAt: Date | null;
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

/** A tenant's concurrency limit is kept as that many slot rows in MySQL; this bounds it. */
export const MAX_TENANT_CONCURRENCY = 10_000;

/** A tenant as services read it. Its signing secret is read only by the executor, with its claims. */
export interface Tenant {
  id: string;
  name: string;
  maxTasks: number | null;
  maxConcurrency: number | null;
  rateLimitPerSecond: number | null;
  /** Its share of a saturated lane relative to other tenants (docs/fair-share.md); 1 by default. */
  weight: number;
  createdAt: Date;
}

/** A tenant being created, with the signing secret shown once and then stored sealed. */
export interface NewTenant extends Tenant {
  signingSecret: string;
}

/** An admin's change to a tenant's name and quotas; an absent field stays, null lifts the limit. */
export interface QuotaPatch {
  name?: string;
  maxTasks?: number | null;
  maxConcurrency?: number | null;
  rateLimitPerSecond?: number | null;
  weight?: number;
}
