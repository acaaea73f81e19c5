import type { MaintenanceGauges, ReleaseResult } from '@dsched/domain';

export type { MaintenanceGauges, ReleaseResult };

/** The reconciler's statements on the queue, each one batch. */
export interface ClaimStore {
  releaseExpired(limit: number): Promise<ReleaseResult>;
  failPastDeadline(limit: number): Promise<ReleaseResult>;
  releaseClaimsOf(owners: string[], limit: number): Promise<ReleaseResult>;
  runningOwners(): Promise<string[]>;
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

/** One pass over a page of running workflows, after a cursor (null: from the first). */
export type WorkflowSweeper = (after: string | null, limit: number) => Promise<WorkflowSweepPass>;
