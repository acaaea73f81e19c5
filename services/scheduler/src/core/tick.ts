import { type DueBatchDecision, type DueBatchLimits, dueBatchDecision } from '@dsched/domain';
import type { SchedulerMetrics } from '../metrics.ts';
import type { DueMaterialiser, PartitionScope } from '../ports.ts';

// One scheduler pass: materialise due occurrences batch by batch, each batch its own short
// transaction that reads `now` from MySQL and checks the leases, until every batch comes back short
// (a large due set drains within the tick) or the per-tick cap of batches is reached.
//
// A batch holds the partitions of one shard only (invariant 12, docs/sharding.md): the held
// partitions are grouped by the shard that holds them, and the groups take turns, a batch each per
// round, so a shard with a large due set does not keep the others waiting for the next tick. On one
// primary there is one group.
export class SchedulerTick {
  readonly #materialise: DueMaterialiser;
  readonly #scope: () => PartitionScope;
  readonly #shardOf: (partition: number) => string;
  readonly #onLost: (partitions: number[]) => void;
  readonly #metrics: SchedulerMetrics;
  readonly #maxBatches: number;
  readonly #decide: DueBatchDecision;

  constructor(deps: {
    materialise: DueMaterialiser;
    /** The partitions to work on now (the lease keeper's, or all when leases are off). */
    scope: () => PartitionScope;
    /** The shard that holds a partition (the shard map's; on one primary the same for all). */
    shardOf: (partition: number) => string;
    /** Partitions a batch found no longer leased. */
    onLost: (partitions: number[]) => void;
    metrics: SchedulerMetrics;
    maxBatchesPerTick: number;
    /** What a batch may write: the plan limits and the job cap. */
    limits: DueBatchLimits;
  }) {
    this.#materialise = deps.materialise;
    this.#scope = deps.scope;
    this.#shardOf = deps.shardOf;
    this.#onLost = deps.onLost;
    this.#metrics = deps.metrics;
    this.#maxBatches = deps.maxBatchesPerTick;
    this.#decide = dueBatchDecision(deps.limits);
  }

  /** True when the batch cap stopped a tick that still had due work: the loop runs again at once. */
  async runOnce(): Promise<boolean> {
    const stop = this.#metrics.tickDuration.startTimer();
    let due = 0;
    let batches = 0;
    // Shards whose last batch was cut short by a cap (or found a lease gone): they go again.
    let again: Set<string> | null = null;
    try {
      while (batches < this.#maxBatches) {
        // Read each round: a lost lease leaves the scope, and the shard map may have been refreshed.
        const groups = byShard(this.#scope(), this.#shardOf);
        const turn: [string, PartitionScope][] = [...groups].filter(([s]) => again === null || again.has(s));
        if (turn.length === 0) break;
        again = new Set();
        for (const [shard, scope] of turn) {
          if (batches >= this.#maxBatches) {
            again.add(shard);
            break;
          }
          batches++;
          const r = await this.#materialise(scope, this.#decide);
          due += r.dueTasks;
          this.#metrics.jobsMaterialised.inc(r.jobsInserted);
          const now = r.now.getTime();
          for (const at of r.scheduledFor)
            this.#metrics.lag.observe(Math.max(0, (now - at.getTime()) / 1000));
          this.#metrics.recordSkips(r.skipped);
          if (r.lostPartitions.length > 0) this.#onLost(r.lostPartitions);
          if (r.full || r.lostPartitions.length > 0) again.add(shard);
        }
      }
      return again !== null && again.size > 0;
    } finally {
      this.#metrics.dueTasks.set(due);
      stop();
    }
  }
}

/** The scope split by shard, in order of each shard's first partition in the scope. */
export function byShard(
  scope: PartitionScope,
  shardOf: (partition: number) => string,
): Map<string, PartitionScope> {
  const out = new Map<string, PartitionScope>();
  if ('unleased' in scope) {
    for (const p of scope.unleased) {
      const s = shardOf(p);
      const g = out.get(s);
      if (g && 'unleased' in g) g.unleased.push(p);
      else out.set(s, { unleased: [p] });
    }
    return out;
  }
  for (const h of scope.held) {
    const s = shardOf(h.partition);
    const g = out.get(s);
    if (g && 'held' in g) g.held.push(h);
    else out.set(s, { holder: scope.holder, held: [h] });
  }
  return out;
}
