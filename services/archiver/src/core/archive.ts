import type { ArchiverMetrics } from '../metrics.ts';
import type { FinishedJobSource, HistoryWriter } from '../ports.ts';

// One archiver pass (invariant 5): write to history first, delete from MySQL second. A crash
// between the two leaves the job in both places; the next pass rewrites it (a no-op) and
// deletes it. Nothing is deleted that was not written.
export class Archiver {
  readonly #source: FinishedJobSource;
  readonly #write: HistoryWriter;
  readonly #metrics: ArchiverMetrics;
  readonly #batchSize: number;

  constructor(deps: {
    source: FinishedJobSource;
    write: HistoryWriter;
    metrics: ArchiverMetrics;
    batchSize: number;
  }) {
    this.#source = deps.source;
    this.#write = deps.write;
    this.#metrics = deps.metrics;
    this.#batchSize = deps.batchSize;
  }

  async runOnce(): Promise<boolean> {
    const records = await this.#source.select(this.#batchSize);
    if (records.length === 0) return false;
    await this.#write(records);
    await this.#source.delete(records.map((r) => ({ id: r.view.id, attempt: r.view.attempt })));
    this.#metrics.archived.inc(records.length);
    return records.length >= this.#batchSize;
  }
}
