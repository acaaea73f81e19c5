import { type DueBatchDecision, type DueBatchLimits, dueBatchDecision } from '@dsched/domain';
import type { SchedulerMetrics } from '../metrics.ts';
import type { DueMaterialiser, PartitionScope } from '../ports.ts';

// One scheduler pass: materialise due occurrences batch by batch, each batch its own short
// transaction that reads `now` from MySQL and checks the leases, until a batch comes back short
// (a large due set drains within the tick) or the per-tick cap of batches is reached.
export class SchedulerTick {
  readonly #materialise: DueMaterialiser;
  readonly #scope: () => PartitionScope;
  readonly #onLost: (partitions: number[]) => void;
  readonly #metrics: SchedulerMetrics;
  readonly #maxBatches: number;
  readonly #decide: DueBatchDecision;

  constructor(deps: {
    materialise: DueMaterialiser;
    /** The partitions to work on now (the lease keeper's, or all when leases are off). */
    scope: () => PartitionScope;
    /** Partitions a batch found no longer leased. */
    onLost: (partitions: number[]) => void;
    metrics: SchedulerMetrics;
    maxBatchesPerTick: number;
    /** What a batch may write: the plan limits and the job cap. */
    limits: DueBatchLimits;
  }) {
    this.#materialise = deps.materialise;
    this.#scope = deps.scope;
    this.#onLost = deps.onLost;
    this.#metrics = deps.metrics;
    this.#maxBatches = deps.maxBatchesPerTick;
    this.#decide = dueBatchDecision(deps.limits);
  }

  /** True when the batch cap stopped a tick that still had due work: the loop runs again at once. */
  async runOnce(): Promise<boolean> {
    const stop = this.#metrics.tickDuration.startTimer();
    let due = 0;
    let more = false;
    try {
      for (let i = 0; i < this.#maxBatches; i++) {
        const scope = this.#scope();
        if ('held' in scope && scope.held.length === 0) break;
        const r = await this.#materialise(scope, this.#decide);
        due += r.dueTasks;
        this.#metrics.jobsMaterialised.inc(r.jobsInserted);
        const now = r.now.getTime();
        for (const at of r.scheduledFor) this.#metrics.lag.observe(Math.max(0, (now - at.getTime()) / 1000));
        this.#metrics.recordSkips(r.skipped);
        if (r.lostPartitions.length > 0) this.#onLost(r.lostPartitions);
        more = r.full;
        if (!r.full && r.lostPartitions.length === 0) break;
      }
      return more;
    } finally {
      this.#metrics.dueTasks.set(due);
      stop();
    }
  }
}
