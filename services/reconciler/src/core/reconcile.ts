import type { ReconcilerMetrics } from '../metrics.ts';
import type { ExpiredClaimReleaser } from '../ports.ts';

// One reconciler pass. Safe with several replicas: each batch locks what it changes with
// SKIP LOCKED and every update is conditional on the state it read.
export class Reconciler {
  readonly #release: ExpiredClaimReleaser;
  readonly #metrics: ReconcilerMetrics;
  readonly #batchSize: number;

  constructor(deps: { release: ExpiredClaimReleaser; metrics: ReconcilerMetrics; batchSize: number }) {
    this.#release = deps.release;
    this.#metrics = deps.metrics;
    this.#batchSize = deps.batchSize;
  }

  async runOnce(): Promise<boolean> {
    const released = await this.#release(this.#batchSize);
    this.#metrics.released.inc(released);
    return released >= this.#batchSize;
  }
}
