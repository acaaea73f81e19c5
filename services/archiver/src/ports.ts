import type {
  ArchivableRun,
  ArchivedWorkflow,
  JobRecord,
  NodePlace,
  NodeRecord,
  WorkflowRecord,
} from '@dsched/domain';

export type { ArchivableRun, JobRecord };

/**
 * The archiver works a group of partitions at a time (one shard on Vitess: docs/sharding.md), so
 * each statement and transaction of a batch stays on one shard.
 */
export interface FinishedJobSource {
  /** Terminal jobs of the group ready for history, oldest first, with their attempts. */
  select(limit: number, partitions: readonly number[]): Promise<JobRecord[]>;
  /** Deletes the given jobs of the group if they are still the terminal rows that were archived. */
  delete(jobs: { id: string; attempt: number }[], partitions: readonly number[]): Promise<number>;
  /** Seconds since the oldest job waiting for the archiver became archivable. */
  lagSeconds(): Promise<number>;
}

/** Pending jobs already due, counted up to `cap`: how busy delivery is right now. */
export type DeliveryBacklog = (cap: number) => Promise<number>;

/** Writes jobs to history; idempotent, so a rewrite after a crash is harmless. */
export type HistoryWriter = (records: JobRecord[]) => Promise<void>;

/** Called between the history write and the MySQL delete; a test switch makes it crash. */
export type Failpoint = () => void;

/** Finished workflow runs in MySQL, read a page at a time and deleted in batches. */
export interface FinishedWorkflowSource {
  /** Finished runs of the group ready for history, oldest first. */
  select(limit: number, partitions: readonly number[]): Promise<ArchivableRun[]>;
  /** The run as the API shows it, or null once it is gone or marked. */
  summary(tenantId: string, id: string): Promise<WorkflowRecord | null>;
  /** A page of its nodes in node id order, and how many of them still have their job in MySQL. */
  nodePage(
    run: { id: string; partition: number },
    afterNodeId: string | undefined,
    limit: number,
  ): Promise<{ nodes: NodeRecord[]; liveJobs: number }>;
  /** Dependencies whose parent id is in [firstParent, lastParent], after a (parent, child) cursor. */
  edgePage(
    run: { id: string; partition: number },
    q: { firstParent: string; lastParent: string; after: [string, string] | null; limit: number },
  ): Promise<[string, string][]>;
  /** Up to `limit` of a small run's dependencies, for its graph. */
  edges(id: string, limit: number): Promise<[string, string][]>;
  /** Marks the run archived if it is still as selected; false when it changed. */
  mark(run: ArchivableRun): Promise<boolean>;
  /** Deletes one batch of a marked run's rows; 0 when nothing is left. */
  deleteBatch(run: { id: string; partition: number }, limit: number): Promise<number>;
}

/** Where a copy of a run lives in history: the run and the version it was copied at. */
export interface WorkflowCopy {
  workflowId: string;
  version: number;
}

/** Writes runs to history; every write idempotent, so a copy repeated after a crash is harmless. */
export interface WorkflowHistoryWriter {
  nodes(copy: WorkflowCopy, nodes: { node: NodeRecord; place: NodePlace }[]): Promise<void>;
  parents(
    copy: WorkflowCopy,
    edges: { parent: string; child: string; parentBucket: number }[],
  ): Promise<void>;
  /** The summary, written last. */
  run(archived: ArchivedWorkflow): Promise<void>;
}
