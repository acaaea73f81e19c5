import type { CancelWatcher } from '../ports.ts';
import type { LaneWorker } from './lane-worker.ts';

// Every EXECUTOR_CANCEL_POLL_MS asks which of the calls this process has in flight had their cancel
// requested, in one statement, and aborts those calls (undici closes the request). The lease
// renewal notices a cancel too, but only every TTL / 3 (40 s at the default lease): this is what
// makes a running call's cancel take effect within about a second. An aborted call ends in the
// cancelled transition like any cancel (transitions.ts), written by the outcome batcher.
export class CancelWatch {
  readonly #watch: CancelWatcher;
  readonly #lanes: LaneWorker[];

  constructor(watch: CancelWatcher, lanes: LaneWorker[]) {
    this.#watch = watch;
    this.#lanes = lanes;
  }

  /** One pass; resolves with the number of calls it aborted. */
  async runOnce(): Promise<number> {
    const held = this.#lanes.flatMap((lane) => lane.held().map((claim) => ({ lane, claim })));
    if (held.length === 0) return 0;
    const requested = await this.#watch(held.map((h) => h.claim));
    if (requested.length === 0) return 0;
    const laneOf = new Map(held.map((h) => [`${h.claim.id}:${h.claim.attempt}`, h.lane]));
    let aborted = 0;
    for (const claim of requested) {
      if (laneOf.get(`${claim.id}:${claim.attempt}`)?.abort(claim, 'cancel')) aborted++;
    }
    return aborted;
  }
}
