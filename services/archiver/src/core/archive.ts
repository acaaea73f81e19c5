import type { ArchiverMetrics } from '../metrics.ts';
import type { Failpoint, FinishedJobSource, HistoryWriter } from '../ports.ts';

// One archiver pass (invariant 5): write to history first, delete from MySQL second. A crash
// between the two leaves the job in both places; the next pass rewrites it (a no-op) and
// deletes it. Nothing is deleted that was not written. Several replicas may run: they can pick
// the same rows, which costs a rewrite and a delete that matches nothing, never a loss.
export class Archiver {
  readonly #source: FinishedJobSource;
  readonly #write: HistoryWriter;
  readonly #metrics: ArchiverMetrics;
  readonly #batchSize: number;
  readonly #afterWrite: Failpoint;

  constructor(deps: {
    source: FinishedJobSource;
    write: HistoryWriter;
    metrics: ArchiverMetrics;
    batchSize: number;
    afterWrite?: Failpoint;
  }) {
    this.#source = deps.source;
    this.#write = deps.write;
    this.#metrics = deps.metrics;
    this.#batchSize = deps.batchSize;
    this.#afterWrite = deps.afterWrite ?? (() => undefined);
  }

  /** One batch; returns true when it was full, so the loop runs again at once. */
  async runOnce(): Promise<boolean> {
    const records = await this.#source.select(this.#batchSize);
    if (records.length > 0) {
      await this.#write(records);
      this.#afterWrite();
      await this.#source.delete(records.map((r) => ({ id: r.view.id, attempt: r.view.attempt })));
      this.#metrics.archived.inc(records.length);
    }
    const full = records.length >= this.#batchSize;
    // The lag is measured when the archiver has caught up with what it saw (a short batch), so a
    // backlog shows as a growing lag and the query costs nothing while draining.
    if (!full) this.#metrics.lag.set(await this.#source.lagSeconds());
    return full;
  }
}
