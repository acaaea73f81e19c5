import type { ReconcilerMetrics } from '../metrics.ts';
import type { ClaimStore, GoneExecutors } from '../ports.ts';

// The reconciler's passes. Safe with several replicas: each batch locks what it changes with
// SKIP LOCKED, so two replicas take disjoint batches, and every update is fenced by the attempt
// it read, so a claim renewed or finished meanwhile is left alone.

/** Expired claims and asynchronous jobs past their deadline, one batch of each per pass. */
export class Reconciler {
  readonly #store: ClaimStore;
  readonly #metrics: ReconcilerMetrics;
  readonly #batchSize: number;

  constructor(deps: { store: ClaimStore; metrics: ReconcilerMetrics; batchSize: number }) {
    this.#store = deps.store;
    this.#metrics = deps.metrics;
    this.#batchSize = deps.batchSize;
  }

  /** Returns true when a batch was full, so the loop runs again at once. */
  async runOnce(): Promise<boolean> {
    const expired = await this.#store.releaseExpired(this.#batchSize);
    this.#metrics.count('lease_expired', expired);
    const late = await this.#store.failPastDeadline(this.#batchSize);
    this.#metrics.count('deadline', late);
    const full = (r: { released: number; dead: number }) => r.released + r.dead >= this.#batchSize;
    return full(expired) || full(late);
  }
}

/**
 * The Kubernetes accelerator: asks which executors holding claims are gone and gives their jobs
 * back at once instead of waiting out the lease. When the API cannot say (unreachable, forbidden),
 * nothing is released: the lease path still holds.
 */
export class GoneExecutorSweep {
  readonly #store: ClaimStore;
  readonly #gone: GoneExecutors;
  readonly #metrics: ReconcilerMetrics;
  readonly #batchSize: number;

  constructor(deps: {
    store: ClaimStore;
    gone: GoneExecutors;
    metrics: ReconcilerMetrics;
    batchSize: number;
  }) {
    this.#store = deps.store;
    this.#gone = deps.gone;
    this.#metrics = deps.metrics;
    this.#batchSize = deps.batchSize;
  }

  async runOnce(): Promise<boolean> {
    const owners = await this.#store.runningOwners();
    if (owners.length === 0) return false;
    const gone = await this.#gone(owners);
    if (gone.length === 0) return false;
    const r = await this.#store.releaseClaimsOf(gone, this.#batchSize);
    this.#metrics.count('executor_gone', r);
    return r.released + r.dead >= this.#batchSize;
  }
}

/** Refreshes the ready-backlog and DLQ-size gauges. */
export async function refreshGauges(store: ClaimStore, metrics: ReconcilerMetrics): Promise<boolean> {
  const g = await store.gauges();
  for (const [lane, n] of Object.entries(g.readyBacklog)) metrics.readyBacklog.set({ lane }, n);
  metrics.dlqSize.set(g.dlqSize);
  return false;
}
