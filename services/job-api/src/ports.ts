import type {
  CallbackResult,
  CancelResult,
  CompletionDecision,
  Cursor,
  JobState,
  JobView,
  LockedJob,
  Tags,
  Tenant,
} from '@dsched/domain';

export type { CallbackResult, CancelResult, CompletionDecision, LockedJob };

export interface JobLookup {
  /** A job of the tenant in MySQL (live or in the DLQ), or null. */
  live(tenantId: string, id: string): Promise<JobView | null>;
  /** A job of the tenant in history, or null. */
  archived(tenantId: string, id: string): Promise<JobView | null>;
}

export type TenantByKeyHash = (hash: Buffer) => Promise<Tenant | null>;

/** Newest first; `more` says the source had more than it returned. */
export interface Slice {
  items: JobView[];
  more: boolean;
}

export interface RunsQuery {
  tenantId: string;
  taskId: string;
  /** Every one of these tags (docs/tags.md). */
  tags?: Tags | undefined;
  from: Date;
  cursor: Cursor;
  limit: number;
}

export interface JobsQuery {
  tenantId: string;
  state?: JobState | undefined;
  tags?: Tags | undefined;
  from: Date;
  cursor: Cursor;
  limit: number;
}

/** One newest-first source of jobs (MySQL for live jobs, Cassandra for history). */
export interface JobSource {
  taskRuns(q: RunsQuery): Promise<Slice>;
  tenantJobs(q: JobsQuery): Promise<Slice>;
}

export interface LiveJobs extends JobSource {
  /** The ids among `ids` that still have a MySQL row (MySQL is authoritative while it has one). */
  liveIds(ids: string[]): Promise<Set<string>>;
  taskBelongsTo(tenantId: string, taskId: string): Promise<boolean>;
}

export interface DeadLetterQueue {
  /** Redrives the tenant's dead jobs among `ids` (of `taskId` when given); returns those redriven. */
  redrive(tenantId: string, ids: string[], taskId?: string): Promise<string[]>;
  /** Redrives up to `cap` dead jobs of a task; returns those redriven. */
  redriveTask(tenantId: string, taskId: string, cap: number): Promise<string[]>;
}

/** The database clock (invariant 1): the default end of a range is its `now`. */
export type DatabaseClock = () => Promise<Date>;

/** job-api's conditional writes on a live job (docs/async-completion.md). */
export interface JobControl {
  cancel(tenantId: string, id: string): Promise<CancelResult>;
  heartbeat(args: {
    tenantId: string;
    id: string;
    attempt: number;
    extendSeconds: number;
    progress?: unknown;
  }): Promise<CallbackResult<{ heartbeatBy: Date; deadlineAt: Date | null; cancelRequested: boolean }>>;
  complete(
    args: { tenantId: string; id: string; attempt: number; errorClass: string | null },
    decide: (job: LockedJob) => CompletionDecision,
  ): Promise<CallbackResult<CompletionDecision>>;
}
