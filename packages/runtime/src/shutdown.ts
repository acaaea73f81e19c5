import type { Logger } from './logger.ts';

export interface ShutdownStep {
  name: string;
  run: () => Promise<void>;
}

// SIGTERM/SIGINT run the steps in order (stop taking work, finish or give back what is held,
// close pools), then exit 0. A second signal or the grace period running out exits 1 at once.
export function handleShutdown(
  logger: Logger,
  steps: ShutdownStep[],
  options: { graceMs: number; exit?: (code: number) => void },
): { shuttingDown: () => boolean; shutdown: (reason: string) => Promise<void> } {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let started = false;

  async function shutdown(reason: string): Promise<void> {
    if (started) {
      logger.warn({ reason }, 'second shutdown request: exiting now');
      exit(1);
      return;
    }
    started = true;
    logger.info({ reason }, 'shutting down');
    const timer = setTimeout(() => {
      logger.error({ graceMs: options.graceMs }, 'shutdown grace period exceeded: exiting');
      exit(1);
    }, options.graceMs + 5_000);
    timer.unref();
    let code = 0;
    for (const step of steps) {
      try {
        await step.run();
      } catch (err) {
        code = 1;
        logger.error({ err, step: step.name }, 'shutdown step failed');
      }
    }
    clearTimeout(timer);
    logger.info('stopped');
    exit(code);
  }

  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  return { shuttingDown: () => started, shutdown };
}

/** Logs a fatal start-up error (bad configuration, unreachable dependency) and exits non-zero. */
export function exitOnStartupError(service: string, err: unknown): never {
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`${service}: ${message}\n`);
  process.exit(1);
}
