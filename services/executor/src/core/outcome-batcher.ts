import type { Logger } from '@dsched/runtime';
import type { OutcomeWrite, OutcomeWriter } from '../ports.ts';

export type WriteResult = 'applied' | 'stale' | 'failed';

interface Pending {
  write: OutcomeWrite;
  since: number;
  resolve: (r: WriteResult) => void;
}

// Outcomes of calls that end close together are written together: one write runs at a time and
// the outcomes that arrive meanwhile make up the next batch (group commit), so an idle executor
// writes each outcome at once and a busy one writes hundreds per transaction.
// A batch holds outcomes of one group of partitions (`groupOf`: the partitions of one shard,
// docs/sharding.md), so its transaction commits on one shard; the first outcome waiting picks the
// group, and the others wait for a batch of their own. Without `groupOf`, one group.
// A write that fails (database unreachable) is retried until `giveUpAfterMs`, about a lease: after
// that the reconciler has given the job back anyway, and the result is dropped.
export class OutcomeBatcher {
  readonly #write: OutcomeWriter;
  readonly #maxBatch: number;
  readonly #retryMs: number;
  readonly #giveUpAfterMs: number;
  readonly #now: () => number;
  readonly #logger: Logger;
  readonly #groupOf: ((write: OutcomeWrite) => string) | undefined;
  #queue: Pending[] = [];
  #pumping: Promise<void> | undefined;

  constructor(opts: {
    write: OutcomeWriter;
    maxBatch: number;
    retryMs: number;
    giveUpAfterMs: number;
    now: () => number;
    logger: Logger;
    /** The group an outcome belongs to (its job's shard); absent: every outcome is of one. */
    groupOf?: (write: OutcomeWrite) => string;
  }) {
    this.#groupOf = opts.groupOf;
    this.#write = opts.write;
    this.#maxBatch = opts.maxBatch;
    this.#retryMs = opts.retryMs;
    this.#giveUpAfterMs = opts.giveUpAfterMs;
    this.#now = opts.now;
    this.#logger = opts.logger;
  }

  submit(write: OutcomeWrite): Promise<WriteResult> {
    return new Promise((resolve) => {
      this.#queue.push({ write, since: this.#now(), resolve });
      this.#pumping ??= this.#pump().finally(() => {
        this.#pumping = undefined;
      });
    });
  }

  /** Resolves when every outcome submitted so far has been written (or given up). */
  async flush(): Promise<void> {
    while (this.#pumping) await this.#pumping;
  }

  /** The next batch: up to maxBatch outcomes of the group of the first one waiting. */
  #nextBatch(): Pending[] {
    const groupOf = this.#groupOf;
    if (!groupOf) return this.#queue.splice(0, this.#maxBatch);
    const group = groupOf(this.#queue[0]!.write);
    const batch: Pending[] = [];
    const rest: Pending[] = [];
    for (const p of this.#queue) {
      (batch.length < this.#maxBatch && groupOf(p.write) === group ? batch : rest).push(p);
    }
    this.#queue = rest;
    return batch;
  }

  async #pump(): Promise<void> {
    while (this.#queue.length > 0) {
      const batch = this.#nextBatch();
      try {
        const lost = new Set(await this.#write(batch.map((p) => p.write)));
        for (const p of batch) p.resolve(lost.has(p.write) ? 'stale' : 'applied');
      } catch (err) {
        const now = this.#now();
        const expired = batch.filter((p) => now - p.since >= this.#giveUpAfterMs);
        const retry = batch.filter((p) => now - p.since < this.#giveUpAfterMs);
        this.#logger.error(
          { err, batch: batch.length, dropped: expired.length },
          'could not record outcomes; retrying',
        );
        for (const p of expired) p.resolve('failed');
        this.#queue.unshift(...retry);
        if (retry.length > 0) await new Promise((r) => setTimeout(r, this.#retryMs));
      }
    }
  }
}
