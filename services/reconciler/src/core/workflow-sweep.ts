import type { ReconcilerMetrics } from '../metrics.ts';
import type { WorkflowGaugeReader, WorkflowSweeper } from '../ports.ts';

/**
 * Walks the running workflows a page per pass, so that none stays running forever: outcomes no
 * walk applied are applied, walks left at their bound are taken on, runs with nothing left to run
 * are finished and runs past their deadline failed. The cursor only spreads the work over passes;
 * losing it (a restart, another replica) costs a repeat, never a miss, because every step is
 * conditional.
 */
export class WorkflowSweep {
  readonly #sweep: WorkflowSweeper;
  readonly #metrics: ReconcilerMetrics;
  readonly #batchSize: number;
  readonly #gauges: WorkflowGaugeReader | undefined;
  #after: string | null = null;

  constructor(deps: {
    sweep: WorkflowSweeper;
    metrics: ReconcilerMetrics;
    batchSize: number;
    /** Feeds the runs-by-state and walk queue gauges, once per cycle over the running runs. */
    gauges?: WorkflowGaugeReader;
  }) {
    this.#sweep = deps.sweep;
    this.#gauges = deps.gauges;
    this.#metrics = deps.metrics;
    this.#batchSize = deps.batchSize;
  }

  async runOnce(): Promise<boolean> {
    const pass = await this.#sweep(this.#after, this.#batchSize);
    this.#after = pass.nextAfter;
    this.#metrics.workflowsRepaired.inc({ repair: 'finished' }, pass.finished);
    this.#metrics.workflowsRepaired.inc({ repair: 'node_outcome' }, pass.repaired);
    this.#metrics.workflowsRepaired.inc({ repair: 'deadline' }, pass.pastDeadline);
    this.#metrics.workflowsRepaired.inc({ repair: 'held' }, pass.held);
    this.#metrics.scheduledRunsStarted.inc(pass.started);
    if (pass.nextAfter === null && this.#gauges) {
      const counts = await this.#gauges();
      this.#metrics.runs.set({ state: 'running' }, counts.running);
      this.#metrics.runs.set({ state: 'paused' }, counts.paused);
      this.#metrics.walkQueue.set(counts.walkQueue);
    }
    return pass.full;
  }
}
