import type { DueBatchDecision, HeldLease, PartitionScope, SkipReason } from '@dsched/domain';

export type { HeldLease, PartitionScope };

// What the scheduler's core needs from the outside, named for its use.

export interface BatchResult {
  /** The database clock the batch decided with (invariant 1). */
  now: Date;
  dueTasks: number;
  jobsInserted: number;
  scheduledFor: Date[];
  skipped: Partial<Record<SkipReason, number>>;
  /** Partitions whose lease was gone when the batch checked it: nothing was written for them. */
  lostPartitions: number[];
  /** A cap cut the batch short: more may be due. */
  full: boolean;
}

/**
 * Materialises one capped batch of due occurrences in one transaction: reads and locks the due
 * tasks with the database clock, runs `decide` on them and writes what it returns.
 */
export type DueMaterialiser = (scope: PartitionScope, decide: DueBatchDecision) => Promise<BatchResult>;

/** Partition leases and group membership; expiry is decided by the database clock. */
export interface PartitionLeaseStore {
  ensure(partitions: number): Promise<void>;
  /** Refreshes this replica's membership row. */
  heartbeat(holder: string, ttlMs: number): Promise<void>;
  /** How many replicas are live. */
  members(): Promise<number>;
  /** Returns the leases still held after renewing. */
  renew(holder: string, held: HeldLease[], ttlMs: number): Promise<HeldLease[]>;
  acquire(holder: string, want: number, partitions: number, ttlMs: number): Promise<HeldLease[]>;
  release(holder: string, held: HeldLease[]): Promise<void>;
  leave(holder: string): Promise<void>;
  forgetDeadMembers(): Promise<void>;
}
