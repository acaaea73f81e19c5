import type { CallAbort } from '../ports.ts';

// How a lane stops one call (cancel, lost claim, shutdown), made for every job. An AbortController
// per job, with a listener added and removed by the caller, was ~2% of the executor's CPU
// (docs/performance.md): an AbortSignal is an EventTarget, built whether or not anything ever
// aborts, which almost never happens. This is a field and a callback.
export class CallAbortHook implements CallAbort {
  #reason: Error | undefined;
  #listener: ((reason: Error) => void) | undefined;

  get reason(): Error | undefined {
    return this.#reason;
  }

  onAbort(listener: ((reason: Error) => void) | undefined): void {
    this.#listener = listener;
    if (listener && this.#reason) listener(this.#reason);
  }

  /** Stops the call with `reason` (the first reason stands). */
  abort(reason: Error): void {
    if (this.#reason) return;
    this.#reason = reason;
    this.#listener?.(reason);
  }

  /** Resolves after `ms`, or at once when the call is aborted meanwhile (the hold of a claim made ahead). */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.onAbort(undefined);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.onAbort(done);
    });
  }
}
