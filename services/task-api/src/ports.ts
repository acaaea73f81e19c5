import type {
  ApplyPlan,
  ArchivedWorkflow,
  Cursor,
  NewTenant,
  NodeRecord,
  NodeState,
  Operation,
  OperationAction,
  OperationFilter,
  QuotaPatch,
  Schedule,
  SignalRequest,
  SignalResult,
  Tags,
  Task,
  TaskChange,
  Tenant,
  WorkflowPlan,
  WorkflowRecord,
  WorkflowState,
  WorkflowSummary,
} from '@dsched/domain';

// What the core of task-api needs from the outside, named for its use.

export interface TenantDirectory {
  /** Stores a new tenant; its signing secret is stored sealed. */
  create(tenant: NewTenant, key: { hash: Buffer; prefix: string }): Promise<void>;
  get(id: string): Promise<Tenant | null>;
  update(id: string, patch: QuotaPatch): Promise<boolean>;
  rotateKey(id: string, key: { hash: Buffer; prefix: string }): Promise<boolean>;
  findByKeyHash(hash: Buffer): Promise<Tenant | null>;
}

export interface TaskRepository {
  /** Stores a new task; false when the tenant's maxTasks is reached (checked atomically). */
  insert(task: Task): Promise<boolean>;
  get(tenantId: string, id: string): Promise<Task | null>;
  /** A page of the tenant's live tasks in id order, after `afterId`. */
  list(
    tenantId: string,
    page: { limit: number; afterId?: string; state?: 'active' | 'paused'; key?: string; tags?: Tags },
  ): Promise<Task[]>;
  /**
   * Runs `decide` on the task under its row lock with the database clock and applies the change it
   * returns (null: none). Null when the task is not found.
   */
  change(
    tenantId: string,
    id: string,
    decide: (task: Task, now: Date) => TaskChange | null,
  ): Promise<{ task: Task; changed: boolean } | null>;
  /**
   * Reads the tenant's keyed tasks (`keys`, or every keyed one when null) under their row locks with
   * the database clock, lets `decide` plan, and writes the plan in the same transaction (nothing for
   * a dry run; nothing at all when a write fails or the creates exceed maxTasks).
   */
  apply(
    tenantId: string,
    keys: string[] | null,
    how: { decide: (keyed: Task[], now: Date) => ApplyPlan; quotaExceeded: () => Error },
  ): Promise<ApplyPlan>;
}

/** Runs asked for explicitly; null when the task is not found. */
export interface TaskRuns {
  trigger(
    tenantId: string,
    taskId: string,
    discriminator: string | null,
  ): Promise<{ jobId: string; created: boolean } | null>;
  backfill(
    tenantId: string,
    taskId: string,
    plan: (schedule: Schedule, now: Date) => Date[],
  ): Promise<{ count: number; created: number } | null>;
}

/** Takes one request's token from the tenant's bucket, shared by every replica; false over the limit. */
export type RateLimiter = (tenantId: string, perSecond: number) => Promise<boolean>;

/** The database clock (invariant 1). */
export type DatabaseClock = () => Promise<Date>;

/** One page of the runs list, from one store: strictly before `cursor`, not before `from`. */
export interface RunsListQuery {
  tenantId: string;
  state?: WorkflowState | undefined;
  name?: string | undefined;
  tags?: Tags | undefined;
  from: Date;
  cursor: Cursor;
  limit: number;
}

/** What an operation on a run found: done, or why not. */
export type RunOperationResult = 'done' | 'not_found' | 'not_running';

export type { SignalRequest, SignalResult } from '@dsched/domain';

/** Workflow runs: stored, read and steered in MySQL, where the executor walks them. */
export interface WorkflowStore {
  /** Stores a checked run and makes its roots' jobs, in one transaction; false over maxTasks. */
  insert(plan: WorkflowPlan): Promise<boolean>;
  /** A live run (null: missing, another tenant's, or moved to history). */
  get(tenantId: string, id: string): Promise<WorkflowRecord | null>;
  /** A page of the tenant's live runs, newest first by creation (the runs list). */
  list(q: RunsListQuery): Promise<WorkflowSummary[]>;
  /** Whether the run is still live: asked after reading a page of it (a run being archived is not). */
  isLive(tenantId: string, id: string): Promise<boolean>;
  /** A page of a run's nodes in node id order, after `afterNodeId`. */
  listNodes(
    workflowId: string,
    page: { limit: number; afterNodeId?: string; state?: NodeState },
  ): Promise<NodeRecord[]>;
  /** Up to `limit` of a run's dependencies as [parent node id, child node id]. */
  listEdges(workflowId: string, limit: number): Promise<[string, string][]>;
  /** A page of one node's parents with their outputs, in parent id order; null: no such node. */
  listParents(
    workflowId: string,
    nodeId: string,
    page: { limit: number; afterNodeId?: string },
  ): Promise<NodeRecord[] | null>;
  /** One node of a run (the caller checked the run is the tenant's); null: no such node. */
  getNode(workflowId: string, nodeId: string): Promise<NodeRecord | null>;
  /** Signals a wait node (docs/workflows.md "Signals"): its job succeeds with the payload. */
  signal(req: SignalRequest): Promise<SignalResult>;
  cancel(tenantId: string, id: string): Promise<RunOperationResult>;
  setPaused(tenantId: string, id: string, paused: boolean): Promise<RunOperationResult>;
  retryNode(
    tenantId: string,
    id: string,
    nodeId: string,
  ): Promise<RunOperationResult | 'archived' | 'node_not_found' | 'node_not_retryable' | 'over_quota'>;
}

/**
 * Finished runs moved to history (Cassandra). A read that cannot reach it raises
 * storeUnavailable('history'): 503 with Retry-After (decision D20).
 */
export interface WorkflowHistory {
  get(tenantId: string, id: string): Promise<ArchivedWorkflow | null>;
  /** A page of the tenant's archived runs, newest first by creation; `more`: it had more. */
  list(q: RunsListQuery): Promise<{ items: WorkflowSummary[]; more: boolean }>;
  /** A page of nodes in node id order, from the bucket the previous page ended in. */
  listNodes(
    run: ArchivedWorkflow,
    page: { limit: number; afterNodeId?: string; bucket?: number; state?: NodeState },
  ): Promise<NodeRecord[]>;
  /** A page of one node's parents with their outputs, in parent id order; null: no such node. */
  listParents(
    run: ArchivedWorkflow,
    nodeId: string,
    page: { limit: number; afterNodeId?: string },
  ): Promise<NodeRecord[] | null>;
  /** One node of a run in history, whoever's (a signal URL's token proves the right), or null. */
  node(workflowId: string, nodeId: string): Promise<NodeRecord | null>;
}

/** Bulk operations (docs/bulk-operations.md): task-api starts, reads, lists and cancels them. */
export interface BulkOperations {
  /** Counts what the filter matches and, unless a dry run, stores the operation (running). */
  start(args: {
    id: string;
    tenantId: string;
    action: OperationAction;
    filter: OperationFilter;
    dryRun: boolean;
  }): Promise<{ matched: number; operation: Operation | null }>;
  get(tenantId: string, id: string): Promise<Operation | null>;
  /** Newest first, strictly before `beforeId` (null: from the newest). */
  list(tenantId: string, beforeId: string | null, limit: number): Promise<Operation[]>;
  /** Marks a running operation to stop before its next batch; the operation as it is now. */
  cancel(tenantId: string, id: string): Promise<Operation | null>;
}
