import type { ArchiverMetrics } from '../metrics.ts';
import type { DeliveryBacklog, Failpoint, FinishedJobSource, HistoryWriter } from '../ports.ts';

// One archiver pass (invariant 5): write to history first, delete from MySQL second. A crash
// between the two leaves the job in both places; the next pass rewrites it (a no-op) and
// deletes it. Nothing is deleted that was not written. Several replicas may run: they can pick
// the same rows, which costs a rewrite and a delete that matches nothing, never a loss.
//
// Archiving is deferrable; delivery is not. While the queue holds a ready backlog (a 09:00 peak)
// the archiver yields: the CPU and I/O its Cassandra writes and MySQL deletes would take go to
// the claims and calls instead. A yield is bounded (`maxYieldMs`), so a backlog that never
// drains cannot make the jobs table grow without end: past the bound it archives as usual.
export interface YieldPolicy {
  backlog: DeliveryBacklog;
  /** Yield while at least this many pending jobs are due (0 turns yielding off). */
  threshold: number;
  /** The longest one yield lasts before archiving resumes regardless. */
  maxYieldMs: number;
  /** Monotonic milliseconds. */
  now: () => number;
}

export class Archiver {
  readonly #source: FinishedJobSource;
  readonly #write: HistoryWriter;
  readonly #metrics: ArchiverMetrics;
  readonly #batchSize: number;
  readonly #afterWrite: Failpoint;
  readonly #yield: YieldPolicy | undefined;
  readonly #workflows: { runOnce(): Promise<boolean> } | undefined;
  readonly #groups: () => readonly { partitions: readonly number[] }[];
  #yieldingSince: number | undefined;

  constructor(deps: {
    source: FinishedJobSource;
    write: HistoryWriter;
    metrics: ArchiverMetrics;
    batchSize: number;
    afterWrite?: Failpoint | undefined;
    yieldTo?: YieldPolicy;
    /** Finished workflow runs, moved once the jobs are caught up (a run follows its node jobs). */
    workflows?: { runOnce(): Promise<boolean> };
    /** The groups of partitions, one per shard (a shard map's `groups`); each pass serves each. */
    groups: () => readonly { partitions: readonly number[] }[];
  }) {
    this.#source = deps.source;
    this.#write = deps.write;
    this.#metrics = deps.metrics;
    this.#batchSize = deps.batchSize;
    this.#afterWrite = deps.afterWrite ?? (() => undefined);
    this.#yield = deps.yieldTo && deps.yieldTo.threshold > 0 ? deps.yieldTo : undefined;
    this.#workflows = deps.workflows;
    this.#groups = deps.groups;
  }

  /** One batch of each group; returns true when one was full, so the loop runs again at once. */
  async runOnce(): Promise<boolean> {
    if (await this.#shouldYield()) return false;
    let full = false;
    for (const { partitions } of this.#groups()) {
      const records = await this.#source.select(this.#batchSize, partitions);
      if (records.length > 0) {
        await this.#write(records);
        this.#afterWrite();
        await this.#source.delete(
          records.map((r) => ({ id: r.view.id, attempt: r.view.attempt })),
          partitions,
        );
        this.#metrics.archived.inc(records.length);
      }
      if (records.length >= this.#batchSize) full = true;
    }
    // The lag is measured when the archiver has caught up with what it saw (a short batch), so a
    // backlog shows as a growing lag and the query costs nothing while draining.
    if (!full) this.#metrics.lag.set(await this.#source.lagSeconds());
    // Runs after jobs: a run moves only once its node jobs have (the same pass, when it caught up).
    const moreRuns = !full && this.#workflows ? await this.#workflows.runOnce() : false;
    return full || moreRuns;
  }

  /** Whether delivery is busy and the current yield has not yet lasted its bound. */
  async #shouldYield(): Promise<boolean> {
    const policy = this.#yield;
    if (!policy) return false;
    const busy = (await policy.backlog(policy.threshold)) >= policy.threshold;
    if (!busy) {
      this.#yieldingSince = undefined;
      this.#metrics.yielding.set(0);
      return false;
    }
    this.#yieldingSince ??= policy.now();
    const yielding = policy.now() - this.#yieldingSince < policy.maxYieldMs;
    this.#metrics.yielding.set(yielding ? 1 : 0);
    return yielding;
  }
}
