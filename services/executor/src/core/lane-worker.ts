import type { CallResult, Lane } from '@dsched/domain';
import type { ExecutorMetrics, LaneMetrics } from '../metrics.ts';
import type { ClaimedJob, ClaimRef, JobClaimer, TargetCaller } from '../ports.ts';
import { CallAbortHook } from './call-abort.ts';
import { CallSlots } from './call-slots.ts';
import type { OutcomeBatcher } from './outcome-batcher.ts';
import { type AbortReason, type ParkTimes, settle } from './transitions.ts';

export interface LaneWorkerDeps {
  claim: JobClaimer;
  call: TargetCaller;
  outcomes: OutcomeBatcher;
  metrics: ExecutorMetrics;
  /** Uniform in [0, 1), for backoff jitter. */
  random: () => number;
  /** Milliseconds on a monotonic clock, for call durations only. */
  monotonicMs: () => number;
  /** How long a job that answered 202 may go without a heartbeat, and in all. */
  park: ParkTimes;
}

export interface LaneOptions {
  lane: Lane;
  /** Calls this lane runs at once: its slots, which no other lane can take. */
  concurrency: number;
  /** The most jobs one claim asks for. */
  maxBatch: number;
  /** Free slots at which a finished call wakes the claim loop early (1: at once). */
  refillAt: number;
  /**
   * Claims the lane may hold beyond its slots (default 0): they wait in claim order for a slot
   * (call-slots.ts), so a slot that frees starts the next call at once, not after a claim's round
   * trip. Their leases run and are renewed like those of the calls in flight.
   */
  ahead?: number;
}

interface InFlight {
  job: ClaimedJob;
  abort: CallAbortHook;
  abortedBy?: AbortReason;
  /** The call has not returned yet (after it, only the outcome write is pending). */
  calling: boolean;
  /** It holds one of the lane's call slots (from before its call until the call returns). */
  slot: boolean;
  done: Promise<void>;
}

// One lane of an executor: claims as many jobs as it has free slots (up to a batch), calls each,
// hands each outcome to the batcher, and frees the slot once the outcome is written. A lane's
// slots are its own, so a `long` lane full of ten-minute calls never holds back `default`.
export class LaneWorker {
  readonly lane: Lane;
  readonly #opts: LaneOptions;
  readonly #deps: LaneWorkerDeps;
  readonly #metrics: LaneMetrics;
  readonly #inFlight = new Map<string, InFlight>();
  readonly #slots: CallSlots;
  #onRefill: () => void = () => undefined;

  constructor(opts: LaneOptions, deps: LaneWorkerDeps) {
    this.lane = opts.lane;
    this.#opts = opts;
    this.#deps = deps;
    this.#metrics = deps.metrics.forLane(opts.lane);
    this.#slots = new CallSlots(opts.concurrency);
    deps.metrics.watchInFlight(opts.lane, () => this.#inFlight.size);
  }

  /** Called when enough slots are free that claiming now is worth it. */
  onRefill(fn: () => void): void {
    this.#onRefill = fn;
  }

  get inFlight(): number {
    return this.#inFlight.size;
  }

  /** Claims the lane can take now: its slots and its claim ahead, less the claims it holds. */
  get free(): number {
    return this.#opts.concurrency + (this.#opts.ahead ?? 0) - this.#inFlight.size;
  }

  /** Claims into the free slots; true when the claim came back full (so it should run again now). */
  async runOnce(): Promise<boolean> {
    const limit = Math.min(this.free, this.#opts.maxBatch);
    if (limit <= 0) return false;
    const end = this.#metrics.claimQuery.startTimer();
    const result = await this.#deps.claim(this.lane, limit);
    end();
    this.#metrics.claimBatch.observe(result.jobs.length);
    if (result.deferred > 0) this.#deps.metrics.tenantDeferred.inc(result.deferred);
    if (result.flowDeferred > 0) this.#deps.metrics.flowDeferred.inc(result.flowDeferred);
    if (result.cancelled > 0) this.#metrics.outcome('cancelled').inc(result.cancelled);
    for (const job of result.jobs) this.#start(job);
    return result.jobs.length === limit && this.free > 0;
  }

  /** The claims whose outcome is not written yet: their leases must be kept alive. */
  held(): ClaimRef[] {
    return [...this.#inFlight.values()].map(({ job }) => ({
      id: job.id,
      attempt: job.attempt,
      ...(job.partition === undefined ? {} : { partition: job.partition }),
      tenantId: job.tenantId,
      tenantSlot: job.tenantSlot,
      ...(job.flowHold ? { flowHold: true } : {}),
    }));
  }

  /** Aborts the call of one claim (cancel requested, claim lost); false when no call is running. */
  abort(claim: ClaimRef, reason: AbortReason): boolean {
    const entry = this.#inFlight.get(claimKey(claim));
    if (!entry?.calling) return false;
    entry.abortedBy ??= reason;
    entry.abort.abort(new Error(`call aborted: ${reason}`));
    return true;
  }

  /**
   * Shutdown: waits for the calls in flight up to `graceMs`, then aborts the rest, which are given
   * back (fenced, not counted as attempts). Resolves when every outcome is written.
   */
  async drain(graceMs: number): Promise<number> {
    const all = Promise.all([...this.#inFlight.values()].map((f) => f.done));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([all, new Promise((r) => (timer = setTimeout(r, graceMs)))]);
    clearTimeout(timer);
    const left = [...this.#inFlight.values()];
    for (const f of left) this.abort(f.job, 'shutdown');
    await Promise.all(left.map((f) => f.done));
    return left.length;
  }

  #start(job: ClaimedJob): void {
    const key = claimKey(job);
    const entry: InFlight = {
      job,
      abort: new CallAbortHook(),
      calling: true,
      slot: false,
      done: Promise.resolve(),
    };
    this.#inFlight.set(key, entry);
    entry.done = this.#execute(entry).finally(() => {
      if (entry.slot) this.#slots.release();
      this.#inFlight.delete(key);
      if (this.free >= this.#opts.refillAt) this.#onRefill();
    });
  }

  async #execute(entry: InFlight): Promise<void> {
    const { job } = entry;
    const { metrics } = this.#deps;
    // A job claimed ahead of its due time (the critical lane's lead) is held until then: the claim
    // is made, the slot taken and the lease running, so the call goes out on the instant. A cancel
    // or a lost claim meanwhile aborts the wait, and the call, which then never leaves.
    if (job.dueInMs > 0) await entry.abort.sleep(job.dueInMs);
    // A claim taken ahead waits for a slot; aborted meanwhile, it goes on without one, and its call
    // (the hook already fired) ends at once as aborted.
    // A free slot is taken at once, without a promise to wait on (the common case).
    const slot = this.#slots.take(entry.abort);
    entry.slot = typeof slot === 'boolean' ? slot : await slot;
    const lateS = Math.max(0, (job.claimedAt.getTime() - job.scheduledFor.getTime()) / 1000);
    this.#metrics.scheduleLag[job.priority].observe(lateS);
    metrics.jobStarted(job.tenantId, job.tenantWeight ?? 1, lateS);
    // A node job's scheduled time is when the walk made it (the node became ready): its first
    // attempt's lag is the ready-to-dispatch latency of the walk.
    if (job.workflowId && job.attempt === 1) metrics.nodeDispatchLatency.observe(lateS);
    const startedAt = this.#deps.monotonicMs();
    // Aborted before it started (while held to its due instant, or waiting for a slot): no call.
    const result: CallResult = entry.abort.reason
      ? { kind: 'error', errorClass: 'aborted', message: String(entry.abort.reason) }
      : await this.#deps.call(job, entry.abort);
    entry.calling = false;
    // The call is over: its slot goes to the next claim waiting for one (the claim itself stays
    // held, and counted against the lane's claims, until its outcome is written).
    if (entry.slot) {
      entry.slot = false;
      this.#slots.release();
    }
    const durationMs = this.#deps.monotonicMs() - startedAt;
    this.#metrics.attemptDuration.observe(durationMs / 1000);
    if (result.kind === 'error' && result.errorClass === 'refused') metrics.targetsRefused.inc();
    const settled = settle(job, result, {
      durationMs,
      random: this.#deps.random(),
      park: this.#deps.park,
      abortedBy: entry.abortedBy,
    });
    const written = await this.#deps.outcomes.submit({
      job,
      transition: settled.transition,
      attempt: settled.attempt,
      ...(result.kind === 'response' && result.body !== undefined ? { responseBody: result.body } : {}),
    });
    if (written === 'stale') metrics.staleResults.inc();
    if (written !== 'applied') return;
    this.#metrics.outcome(settled.outcome).inc();
    if (job.workflowId && ['succeeded', 'dead', 'cancelled'].includes(settled.outcome)) {
      metrics.nodeCompletions.inc({ outcome: settled.outcome });
    }
    if (settled.outcome === 'dead') metrics.dlqAdditions.inc();
  }
}

export function claimKey(c: { id: string; attempt: number }): string {
  return `${c.id}:${c.attempt}`;
}
