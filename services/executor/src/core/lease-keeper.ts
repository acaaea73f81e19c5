import type { Logger } from '@dsched/runtime';
import type { ExecutorMetrics } from '../metrics.ts';
import type { LeaseRenewer } from '../ports.ts';
import type { LaneWorker } from './lane-worker.ts';

// Every TTL/3 renews the claim leases of every call this process has in flight, all lanes, in one
// statement. The renewal skips jobs whose cancel was requested, and their calls are aborted here:
// the backstop of the cancel watch (cancel-watch.ts), which delivers a cancel within a second. A claim found lost (reclaimed after a lease expiry, completed through
// job-api) has its call aborted too: its result could only be dropped by the fence.
export class LeaseKeeper {
  readonly #renew: LeaseRenewer;
  readonly #lanes: LaneWorker[];
  readonly #metrics: ExecutorMetrics;
  readonly #logger: Logger;

  constructor(renew: LeaseRenewer, lanes: LaneWorker[], metrics: ExecutorMetrics, logger: Logger) {
    this.#renew = renew;
    this.#lanes = lanes;
    this.#metrics = metrics;
    this.#logger = logger;
  }

  async runOnce(): Promise<boolean> {
    const held = this.#lanes.flatMap((lane) => lane.held().map((claim) => ({ lane, claim })));
    if (held.length === 0) return false;
    const report = await this.#renew(held.map((h) => h.claim));
    const laneOf = new Map(held.map((h) => [`${h.claim.id}:${h.claim.attempt}`, h.lane]));
    for (const claim of report.cancelRequested) {
      laneOf.get(`${claim.id}:${claim.attempt}`)?.abort(claim, 'cancel');
    }
    for (const claim of report.lost) {
      if (laneOf.get(`${claim.id}:${claim.attempt}`)?.abort(claim, 'lost')) {
        this.#metrics.claimsLost.inc();
        this.#logger.warn({ jobId: claim.id, attempt: claim.attempt }, 'claim lost: call aborted');
      }
    }
    return false;
  }
}
