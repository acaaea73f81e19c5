import { ClaimLostError, decideOutcome, type Lane } from '@dsched/domain';
import type { Logger } from '@dsched/runtime';
import type { ExecutorMetrics } from '../metrics.ts';
import type {
  AttemptRecord,
  ClaimedJob,
  JobClaimer,
  JobTransition,
  OutcomeRecorder,
  TargetCaller,
} from '../ports.ts';

export interface LaneWorkerDeps {
  claim: JobClaimer;
  call: TargetCaller;
  record: OutcomeRecorder;
  metrics: ExecutorMetrics;
  logger: Logger;
  /** Uniform in [0, 1), for backoff jitter. */
  random: () => number;
  /** Milliseconds, for durations and lag. */
  now: () => number;
}

// One lane of an executor: claims as many jobs as it has free slots, calls each, records each
// outcome. A lane's slots are its own, so a full `long` lane never holds back `default`.
export class LaneWorker {
  readonly lane: Lane;
  readonly #concurrency: number;
  readonly #deps: LaneWorkerDeps;
  #inFlight = new Map<string, { job: ClaimedJob; abort: AbortController; done: Promise<void> }>();
  #onSlotFreed: () => void = () => undefined;
  #draining = false;

  constructor(lane: Lane, concurrency: number, deps: LaneWorkerDeps) {
    this.lane = lane;
    this.#concurrency = concurrency;
    this.#deps = deps;
  }

  onSlotFreed(fn: () => void): void {
    this.#onSlotFreed = fn;
  }

  get inFlight(): number {
    return this.#inFlight.size;
  }

  /** Claims into the free slots; returns true when it filled them all (so it should poll again now). */
  async runOnce(): Promise<boolean> {
    const free = this.#concurrency - this.#inFlight.size;
    if (free <= 0) return false;
    const jobs = await this.#deps.claim(this.lane, free);
    this.#deps.metrics.claimBatch.observe({ lane: this.lane }, jobs.length);
    for (const job of jobs) this.#start(job);
    return jobs.length === free;
  }

  /** Waits for in-flight calls up to `graceMs`, then aborts the rest; returns the aborted jobs. */
  async drain(graceMs: number): Promise<ClaimedJob[]> {
    this.#draining = true;
    const all = Promise.all([...this.#inFlight.values()].map((f) => f.done));
    await Promise.race([all, new Promise((r) => setTimeout(r, graceMs).unref())]);
    const left = [...this.#inFlight.values()];
    for (const f of left) f.abort.abort(new Error('executor shutting down'));
    await Promise.all(left.map((f) => f.done));
    return left.map((f) => f.job);
  }

  #start(job: ClaimedJob): void {
    const abort = new AbortController();
    const done = this.#execute(job, abort.signal).finally(() => {
      this.#inFlight.delete(job.id);
      this.#deps.metrics.inFlight.set({ lane: this.lane }, this.#inFlight.size);
      this.#onSlotFreed();
    });
    this.#inFlight.set(job.id, { job, abort, done });
    this.#deps.metrics.inFlight.set({ lane: this.lane }, this.#inFlight.size);
  }

  async #execute(job: ClaimedJob, signal: AbortSignal): Promise<void> {
    const { metrics } = this.#deps;
    const startedAt = this.#deps.now();
    metrics.scheduleLag.observe(
      { priority: job.priority },
      Math.max(0, (startedAt - job.scheduledFor.getTime()) / 1000),
    );
    const result = await this.#deps.call(job, signal);
    const durationMs = this.#deps.now() - startedAt;
    metrics.attemptDuration.observe({ lane: this.lane }, durationMs / 1000);
    if (signal.aborted && this.#draining) {
      // Shutdown gave up on this call: hand the job back for another executor, fenced as usual.
      await this.#record(
        job,
        { to: 'retry', lastStatus: null, lastError: 'given back at executor shutdown', delayMs: 0 },
        {
          status: null,
          errorClass: 'aborted',
          error: 'executor shutting down',
          durationMs,
        },
      );
      return;
    }
    const outcome = decideOutcome(result, job, this.#deps.random());
    const status = result.kind === 'response' ? result.status : null;
    const error =
      result.kind === 'error' ? result.message : outcome.type === 'succeeded' ? null : `HTTP ${status}`;
    let transition: JobTransition;
    switch (outcome.type) {
      case 'succeeded':
      case 'accepted': // asynchronous completion (202) is parked by the executor issue; until then 2xx is done
        transition = { to: 'succeeded', lastStatus: status, lastError: null };
        break;
      case 'retry':
        transition = { to: 'retry', lastStatus: status, lastError: outcome.reason, delayMs: outcome.afterMs };
        break;
      case 'dead':
        transition = { to: 'dead', lastStatus: status, lastError: outcome.reason };
        break;
    }
    metrics.outcomes.inc({ outcome: outcome.type });
    await this.#record(job, transition, {
      status,
      errorClass:
        result.kind === 'error' ? result.errorClass : status !== null && status >= 300 ? 'http_status' : null,
      error,
      durationMs,
    });
  }

  async #record(job: ClaimedJob, transition: JobTransition, attempt: AttemptRecord): Promise<void> {
    const { metrics, logger } = this.#deps;
    try {
      await this.#deps.record(job, transition, attempt);
    } catch (err) {
      if (err instanceof ClaimLostError) {
        metrics.staleResults.inc();
        logger.warn({ jobId: job.id, attempt: job.attempt }, 'result dropped: claim lost');
        return;
      }
      // The outcome could not be written (database down): the claim lease expires and the
      // reconciler gives the job back, so it is delivered again rather than lost.
      logger.error({ err, jobId: job.id }, 'could not record outcome');
    }
  }
}
