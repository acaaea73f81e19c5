import {
  ARCHIVE_NODE_BUCKET_SIZE,
  type ArchivedWorkflow,
  archivedGraphFits,
  NodePlacement,
} from '@dsched/domain';
import type { ArchiverMetrics } from '../metrics.ts';
import type { ArchivableRun, Failpoint, FinishedWorkflowSource, WorkflowHistoryWriter } from '../ports.ts';

// Finished workflow runs move to history like jobs (invariant 5, decision D29): written to
// Cassandra first, then marked archived in MySQL (fenced by the state and updated_at the copy
// was read from), then deleted from MySQL in batches. A crash before the mark repeats the copy,
// which places every node where it was and overwrites it; a crash after it goes on deleting. The
// run is read a page of nodes at a time, so memory does not depend on its size.

/** Dependencies one read (and one concurrent write) of the copy takes. */
const EDGE_PAGE = 5000;

export class WorkflowArchiver {
  readonly #source: FinishedWorkflowSource;
  readonly #write: WorkflowHistoryWriter;
  readonly #metrics: ArchiverMetrics;
  readonly #batchSize: number;
  readonly #deleteBatchSize: number;
  readonly #afterWrite: Failpoint;
  readonly #groups: () => readonly { partitions: readonly number[] }[];

  constructor(deps: {
    source: FinishedWorkflowSource;
    write: WorkflowHistoryWriter;
    metrics: ArchiverMetrics;
    /** Runs one pass takes. */
    batchSize: number;
    /** Rows one MySQL delete statement takes. */
    deleteBatchSize: number;
    afterWrite?: Failpoint | undefined;
    /** The groups of partitions, one per shard (a shard map's `groups`); each pass serves each. */
    groups: () => readonly { partitions: readonly number[] }[];
  }) {
    this.#source = deps.source;
    this.#write = deps.write;
    this.#metrics = deps.metrics;
    this.#batchSize = deps.batchSize;
    this.#deleteBatchSize = deps.deleteBatchSize;
    this.#afterWrite = deps.afterWrite ?? (() => undefined);
    this.#groups = deps.groups;
  }

  /** One batch of runs of each group; true when one was full, so the loop runs again at once. */
  async runOnce(): Promise<boolean> {
    let full = false;
    for (const { partitions } of this.#groups()) {
      if (await this.#runGroup(partitions)) full = true;
    }
    return full;
  }

  async #runGroup(partitions: readonly number[]): Promise<boolean> {
    const runs = await this.#source.select(this.#batchSize, partitions);
    for (const run of runs) {
      if (!run.archived) {
        if (!(await this.#copy(run))) continue;
        this.#afterWrite();
        // Changed since the copy (a node retry reopened it): it stays live; the copy is a stale
        // version no reader looks up, and a later pass copies it again.
        if (!(await this.#source.mark(run))) continue;
      }
      while ((await this.#source.deleteBatch(run, this.#deleteBatchSize)) > 0);
      this.#metrics.workflowsArchived.inc();
    }
    return runs.length >= this.#batchSize;
  }

  /** Writes the run to history, nodes first and its summary last; false when it must wait. */
  async #copy(run: ArchivableRun): Promise<boolean> {
    const record = await this.#source.summary(run.tenantId, run.id);
    if (!record || record.updatedAt.getTime() !== run.updatedAt.getTime()) return false;
    const copy = { workflowId: run.id, version: run.updatedAt.getTime() };
    const placement = new NodePlacement();
    let after: string | undefined;
    for (;;) {
      const page = await this.#source.nodePage(run, after, ARCHIVE_NODE_BUCKET_SIZE);
      // A node job not archived yet: the run follows its jobs into history, never before them.
      if (page.liveJobs > 0) return false;
      if (page.nodes.length === 0) break;
      const placed = page.nodes.map((node) => ({ node, place: placement.place(node.state) }));
      await this.#write.nodes(copy, placed);
      // A page is one bucket: pages and buckets are both ARCHIVE_NODE_BUCKET_SIZE consecutive nodes.
      const parentBucket = placed[0]!.place.bucket;
      const firstParent = page.nodes[0]!.nodeId;
      const lastParent = page.nodes.at(-1)!.nodeId;
      let cursor: [string, string] | null = null;
      for (;;) {
        const edges = await this.#source.edgePage(run, {
          firstParent,
          lastParent,
          after: cursor,
          limit: EDGE_PAGE,
        });
        if (edges.length === 0) break;
        await this.#write.parents(
          copy,
          edges.map(([parent, child]) => ({ parent, child, parentBucket })),
        );
        if (edges.length < EDGE_PAGE) break;
        cursor = edges.at(-1)!;
      }
      if (page.nodes.length < ARCHIVE_NODE_BUCKET_SIZE) break;
      after = lastParent;
    }
    const archived: ArchivedWorkflow = {
      tenantId: run.tenantId,
      version: copy.version,
      record,
      edges: archivedGraphFits(record) ? await this.#source.edges(run.id, record.edgeCount) : null,
    };
    await this.#write.run(archived);
    return true;
  }
}
