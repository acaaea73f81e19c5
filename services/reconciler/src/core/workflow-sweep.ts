import type { ReconcilerMetrics } from '../metrics.ts';
import type { WorkflowGaugeReader, WorkflowSweeper } from '../ports.ts';
import type { Groups } from './reconcile.ts';

/**
 * Walks the running workflows a page per pass, so that none stays running forever: outcomes no
 * walk applied are applied, walks left at their bound are taken on, runs with nothing left to run
 * are finished and runs past their deadline failed. The cursor only spreads the work over passes;
 * losing it (a restart, another replica) costs a repeat, never a miss, because every step is
 * conditional. Each pass serves every group of partitions (one shard on Vitess: docs/sharding.md)
 * with a page of that group's runs after that group's own cursor, so no statement of the sweep
 * reaches two shards.
 */
export class WorkflowSweep {
  readonly #sweep: WorkflowSweeper;
  readonly #metrics: ReconcilerMetrics;
  readonly #batchSize: number;
  readonly #gauges: WorkflowGaugeReader | undefined;
  readonly #groups: Groups;
  /** Each group's cursor, by its shard (a group absent: from its first run). */
  readonly #after = new Map<string, string>();

  constructor(deps: {
    sweep: WorkflowSweeper;
    metrics: ReconcilerMetrics;
    batchSize: number;
    /** Feeds the runs-by-state and walk queue gauges, once per cycle over the running runs. */
    gauges?: WorkflowGaugeReader;
    /** The groups of partitions, one per shard (the shard map's). */
    groups: Groups;
  }) {
    this.#groups = deps.groups;
    this.#sweep = deps.sweep;
    this.#gauges = deps.gauges;
    this.#metrics = deps.metrics;
    this.#batchSize = deps.batchSize;
  }

  async runOnce(): Promise<boolean> {
    let full = false;
    let wrapped = true;
    const shards = new Set<string>();
    for (const { shard, partitions } of this.#groups()) {
      shards.add(shard);
      const pass = await this.#sweep(this.#after.get(shard) ?? null, this.#batchSize, partitions);
      if (pass.nextAfter === null) this.#after.delete(shard);
      else {
        this.#after.set(shard, pass.nextAfter);
        wrapped = false;
      }
      this.#metrics.workflowsRepaired.inc({ repair: 'finished' }, pass.finished);
      this.#metrics.workflowsRepaired.inc({ repair: 'node_outcome' }, pass.repaired);
      this.#metrics.workflowsRepaired.inc({ repair: 'deadline' }, pass.pastDeadline);
      this.#metrics.workflowsRepaired.inc({ repair: 'held' }, pass.held);
      this.#metrics.scheduledRunsStarted.inc(pass.started);
      if (pass.full) full = true;
    }
    // A resharding's cut-over replaces shards: their cursors go with them.
    for (const shard of this.#after.keys()) if (!shards.has(shard)) this.#after.delete(shard);
    if (wrapped && this.#gauges) {
      const counts = await this.#gauges();
      this.#metrics.runs.set({ state: 'running' }, counts.running);
      this.#metrics.runs.set({ state: 'paused' }, counts.paused);
      this.#metrics.walkQueue.set(counts.walkQueue);
    }
    return full;
  }
}
