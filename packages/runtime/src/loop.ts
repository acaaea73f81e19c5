import { EventEmitter } from 'node:events';
import type { Logger } from './logger.ts';

// A background loop: runOnce() inside a start/stop shell. runOnce returns whether it did a full
// batch; a full batch runs again at once, a short one waits for the interval. Errors are logged
// and backed off, never fatal. Tests await the 'pass' event instead of sleeping.
export interface LoopEvents {
  pass: [result: { full: boolean }];
  failure: [err: unknown];
}

export class Loop extends EventEmitter<LoopEvents> {
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #stopped = true;
  #wake: (() => void) | undefined;
  readonly name: string;
  readonly #runOnce: () => Promise<boolean>;
  readonly #intervalMs: number;
  readonly #logger: Logger;
  readonly #errorBackoffMs: number;

  constructor(opts: {
    name: string;
    runOnce: () => Promise<boolean>;
    intervalMs: number;
    logger: Logger;
    errorBackoffMs?: number;
  }) {
    super();
    this.name = opts.name;
    this.#runOnce = opts.runOnce;
    this.#intervalMs = opts.intervalMs;
    this.#logger = opts.logger;
    this.#errorBackoffMs = opts.errorBackoffMs ?? Math.max(opts.intervalMs, 500);
  }

  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#running = this.#run();
  }

  /** Runs the next pass now instead of waiting out the interval. */
  wake(): void {
    this.#wake?.();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.wake();
    await this.#running;
  }

  get stopped(): boolean {
    return this.#stopped;
  }

  async #run(): Promise<void> {
    while (!this.#stopped) {
      let delay = this.#intervalMs;
      try {
        const full = await this.#runOnce();
        this.emit('pass', { full });
        if (full) delay = 0;
      } catch (err) {
        this.#logger.error({ err, loop: this.name }, 'loop pass failed');
        this.emit('failure', err);
        delay = this.#errorBackoffMs;
      }
      if (this.#stopped) break;
      if (delay === 0) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        continue;
      }
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
        this.#timer = setTimeout(resolve, delay);
      });
      clearTimeout(this.#timer);
      this.#wake = undefined;
    }
  }
}
