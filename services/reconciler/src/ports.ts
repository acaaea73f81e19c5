import type { MaintenanceGauges, Operation, ReleaseResult } from '@dsched/domain';

export type { MaintenanceGauges, ReleaseResult };

/**
 * The reconciler's statements on the queue, each one batch of one group of partitions (one shard
 * on Vitess: docs/sharding.md).
 */
export interface ClaimStore {
  releaseExpired(limit: number, partitions: readonly number[]): Promise<ReleaseResult>;
  failPastDeadline(limit: number, partitions: readonly number[]): Promise<ReleaseResult>;
  releaseClaimsOf(owners: string[], limit: number, partitions: readonly number[]): Promise<ReleaseResult>;
  runningOwners(): Promise<string[]>;
  /**
   * Gives back the quota places of runs whose end committed but whose ender died before giving
   * them back (decision D61); returns how many.
   */
  releaseRunQuotas(limit: number, partitions: readonly number[]): Promise<number>;
  gauges(): Promise<MaintenanceGauges>;
}

/** Of the given executor instance ids, those known to be gone (their pod no longer exists). */
export type GoneExecutors = (owners: string[]) => Promise<string[]>;

/** What one pass of the workflow sweep did (see WorkflowSweep). */
export interface WorkflowSweepPass {
  nextAfter: string | null;
  finished: number;
  repaired: number;
  /** Node jobs of paused runs held that no pause or outcome had held. */
  held: number;
  /** Runs started by workflow tasks' occurrences. */
  started: number;
  pastDeadline: number;
  full: boolean;
}

/** Running runs, paused and not. */
/** The workflow gauges: runs still running (dispatching or paused), and nodes on the walk queue. */
export type WorkflowGaugeReader = () => Promise<{ running: number; paused: number; walkQueue: number }>;

/**
 * One pass over a page of the running workflows of one group of partitions (one shard on Vitess:
 * docs/sharding.md), after that group's cursor (null: from the first).
 */
export type WorkflowSweeper = (
  after: string | null,
  limit: number,
  partitions: readonly number[],
) => Promise<WorkflowSweepPass>;

/** What one batch of a bulk operation did: `lost`, the lease was no longer the worker's. */
export type OperationBatch = { kind: 'lost' } | { kind: 'ran'; operation: Operation; changed: number };

/** The store's side of bulk operations (docs/bulk-operations.md), as the operation worker uses it. */
export interface OperationStore {
  /** Takes the lease of one running operation whose lease is free or expired, as `owner`. */
  take(owner: string, leaseMs: number): Promise<Operation | null>;
  /** Runs the next batch of the operation `owner` holds (one transaction). */
  runBatch(
    id: string,
    owner: string,
    options: { batchSize: number; leaseMs: number },
  ): Promise<OperationBatch>;
  /** Gives the lease back between batches. */
  release(id: string, owner: string): Promise<void>;
}
