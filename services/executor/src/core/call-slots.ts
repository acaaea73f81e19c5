import type { CallAbortHook } from './call-abort.ts';

// The calls a lane runs at once. A lane may hold a few claims more than it has slots (its claim
// ahead, lane-worker.ts): those wait here, in claim order, for a slot to free, so a finished call
// is followed by the next one at once instead of after a claim's round trip. A wait ends early,
// without a slot, when the job's call is aborted (cancel, lost claim, shutdown).
export class CallSlots {
  #free: number;
  readonly #waiting: (() => void)[] = [];

  constructor(slots: number) {
    this.#free = slots;
  }

  /**
   * True with a slot taken, or false (aborted already), at once when it can say; otherwise a
   * promise of true once a slot is granted, or false (no slot) when `abort` fires first.
   */
  take(abort: CallAbortHook): boolean | Promise<boolean> {
    if (abort.reason) return false;
    if (this.#free > 0) {
      this.#free--;
      return true;
    }
    return new Promise((resolve) => {
      const grant = () => {
        abort.onAbort(undefined);
        resolve(true);
      };
      this.#waiting.push(grant);
      abort.onAbort(() => {
        const at = this.#waiting.indexOf(grant);
        if (at >= 0) this.#waiting.splice(at, 1);
        resolve(false);
      });
    });
  }

  /** Frees a slot taken by take(): the longest waiter gets it. */
  release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#free++;
  }

  /** Claims waiting for a slot. */
  get waiting(): number {
    return this.#waiting.length;
  }
}
