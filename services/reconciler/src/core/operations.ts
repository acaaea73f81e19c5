import { randomUUID } from 'node:crypto';
import type { Operation } from '@dsched/domain';
import type { Logger } from '@dsched/runtime';
import type { ReconcilerMetrics } from '../metrics.ts';
import type { OperationStore } from '../ports.ts';

/**
 * Carries out bulk operations (docs/bulk-operations.md), one batch per pass: takes the lease of a
 * running operation when it holds none, runs its next batch, and lets it go when the operation
 * ends or the lease is lost. A full pass (a batch ran) runs the next at once, so a replica works
 * one operation through; its lease, renewed by each batch, keeps others off it until this process
 * stops or dies, and then another replica (or this one restarted) goes on from the last batch.
 */
export class OperationWorker {
  readonly #store: OperationStore;
  readonly #metrics: ReconcilerMetrics;
  readonly #logger: Logger;
  readonly #instance: string;
  readonly #batchSize: number;
  readonly #leaseMs: number;
  readonly #pauseMs: number;
  #held: { id: string; owner: string } | null = null;

  constructor(deps: {
    store: OperationStore;
    metrics: ReconcilerMetrics;
    logger: Logger;
    /** This process (the lease owner is it plus a fresh suffix per take). */
    instance: string;
    batchSize: number;
    leaseMs: number;
    /** A wait after each batch, leaving the database to the claim path (0: none). */
    pauseMs: number;
  }) {
    this.#store = deps.store;
    this.#metrics = deps.metrics;
    this.#logger = deps.logger;
    this.#instance = deps.instance;
    this.#batchSize = deps.batchSize;
    this.#leaseMs = deps.leaseMs;
    this.#pauseMs = deps.pauseMs;
  }

  async runOnce(): Promise<boolean> {
    if (!this.#held) {
      const owner = `${this.#instance}:${randomUUID().slice(0, 8)}`;
      const op = await this.#store.take(owner, this.#leaseMs);
      if (!op) return false;
      this.#held = { id: op.id, owner };
      this.#logger.info({ operationId: op.id, action: op.action, done: op.done }, 'operation taken');
    }
    const { id, owner } = this.#held;
    const batch = await this.#store.runBatch(id, owner, {
      batchSize: this.#batchSize,
      leaseMs: this.#leaseMs,
    });
    if (batch.kind === 'lost') {
      this.#held = null;
      this.#logger.warn({ operationId: id }, 'operation lease lost');
      return true;
    }
    const op = batch.operation;
    this.#metrics.operationBatches.inc({ action: op.action });
    this.#metrics.operationChanges.inc({ action: op.action }, batch.changed);
    if (op.state !== 'running') this.#finished(op);
    if (this.#pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, this.#pauseMs));
    return true;
  }

  /** Gives back the lease held between batches (at stop), so another replica goes on at once. */
  async release(): Promise<void> {
    if (!this.#held) return;
    const { id, owner } = this.#held;
    this.#held = null;
    await this.#store.release(id, owner);
  }

  #finished(op: Operation): void {
    this.#held = null;
    this.#metrics.operationsFinished.inc({ action: op.action, state: op.state });
    this.#logger.info(
      {
        operationId: op.id,
        action: op.action,
        state: op.state,
        done: op.done,
        failed: op.failed,
        error: op.error,
      },
      'operation finished',
    );
  }
}
