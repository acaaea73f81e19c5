import type { SchedulerMetrics } from '../metrics.ts';
import type { DueMaterialiser } from '../ports.ts';

// One scheduler pass: materialise due occurrences batch by batch until a short batch.
export class SchedulerTick {
  readonly #materialise: DueMaterialiser;
  readonly #metrics: SchedulerMetrics;
  readonly #opts: { partitions: () => number[]; lookaheadS: number; batchSize: number; maxBatches: number };

  constructor(deps: {
    materialise: DueMaterialiser;
    metrics: SchedulerMetrics;
    partitions: () => number[];
    lookaheadS: number;
    batchSize: number;
    maxBatchesPerTick?: number;
  }) {
    this.#materialise = deps.materialise;
    this.#metrics = deps.metrics;
    this.#opts = {
      partitions: deps.partitions,
      lookaheadS: deps.lookaheadS,
      batchSize: deps.batchSize,
      maxBatches: deps.maxBatchesPerTick ?? 100,
    };
  }

  /** Returns false: the next tick waits for the interval (batches already drain within a tick). */
  async runOnce(): Promise<boolean> {
    const partitions = this.#opts.partitions();
    if (partitions.length === 0) return false;
    const stop = this.#metrics.tickDuration.startTimer();
    let due = 0;
    for (let i = 0; i < this.#opts.maxBatches; i++) {
      const r = await this.#materialise({
        partitions,
        lookaheadS: this.#opts.lookaheadS,
        limit: this.#opts.batchSize,
      });
      due += r.dueTasks;
      this.#metrics.jobsMaterialised.inc(r.jobsInserted);
      if (r.dueTasks < this.#opts.batchSize) break;
    }
    this.#metrics.dueSetSize.set(due);
    stop();
    return false;
  }
}
