import type { ReconcilerMetrics } from '../metrics.ts';
import type { ClaimStore, GoneExecutors } from '../ports.ts';

// The reconciler's passes. Safe with several replicas: each batch locks what it changes with
// SKIP LOCKED, so two replicas take disjoint batches, and every update is fenced by the attempt
// it read, so a claim renewed or finished meanwhile is left alone.

/** The groups of partitions, one per shard (a shard map's `groups`): each pass serves each. */
export type Groups = () => readonly { shard: string; partitions: readonly number[] }[];

/**
 * Expired claims, asynchronous jobs past their deadline and the quota places of ended runs left
 * owed (D61), one batch of each per group per pass.
 */
export class Reconciler {
  readonly #store: ClaimStore;
  readonly #metrics: ReconcilerMetrics;
  readonly #batchSize: number;
  readonly #groups: Groups;

  constructor(deps: { store: ClaimStore; metrics: ReconcilerMetrics; batchSize: number; groups: Groups }) {
    this.#store = deps.store;
    this.#metrics = deps.metrics;
    this.#batchSize = deps.batchSize;
    this.#groups = deps.groups;
  }

  /** Returns true when a batch was full, so the loop runs again at once. */
  async runOnce(): Promise<boolean> {
    const full = (r: { released: number; dead: number }) => r.released + r.dead >= this.#batchSize;
    let again = false;
    for (const { partitions } of this.#groups()) {
      const expired = await this.#store.releaseExpired(this.#batchSize, partitions);
      this.#metrics.count('lease_expired', expired);
      const late = await this.#store.failPastDeadline(this.#batchSize, partitions);
      this.#metrics.count('deadline', late);
      const quotas = await this.#store.releaseRunQuotas(this.#batchSize, partitions);
      if (full(expired) || full(late) || quotas >= this.#batchSize) again = true;
    }
    return again;
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
  readonly #groups: Groups;

  constructor(deps: {
    store: ClaimStore;
    gone: GoneExecutors;
    metrics: ReconcilerMetrics;
    batchSize: number;
    groups: Groups;
  }) {
    this.#store = deps.store;
    this.#gone = deps.gone;
    this.#metrics = deps.metrics;
    this.#batchSize = deps.batchSize;
    this.#groups = deps.groups;
  }

  async runOnce(): Promise<boolean> {
    const owners = await this.#store.runningOwners();
    if (owners.length === 0) return false;
    const gone = await this.#gone(owners);
    if (gone.length === 0) return false;
    let again = false;
    for (const { partitions } of this.#groups()) {
      const r = await this.#store.releaseClaimsOf(gone, this.#batchSize, partitions);
      this.#metrics.count('executor_gone', r);
      if (r.released + r.dead >= this.#batchSize) again = true;
    }
    return again;
  }
}

/** Refreshes the ready-backlog and DLQ-size gauges. */
export async function refreshGauges(store: ClaimStore, metrics: ReconcilerMetrics): Promise<boolean> {
  const g = await store.gauges();
  for (const [lane, n] of Object.entries(g.readyBacklog)) metrics.readyBacklog.set({ lane }, n);
  metrics.dlqSize.set(g.dlqSize);
  return false;
}
