import { type RunningService, type ServiceName, startService } from './services.ts';

// The services of an end-to-end test as processes, started at once. A start that fails stops the
// ones that did start, so a timed-out setup leaves no stray executor claiming the next run's jobs.

export const SIX_SERVICES = [
  'task-api',
  'scheduler',
  'executor',
  'reconciler',
  'archiver',
  'job-api',
] as const;

/** Short loops for a test that waits on the fleet: ticks, polls and archiver passes in ~100 ms. */
export const FAST_LOOPS = {
  SCHEDULER_TICK_MS: '200',
  EXECUTOR_POLL_MS: '100',
  ARCHIVER_INTERVAL_MS: '200',
  RECONCILER_OPERATION_INTERVAL_MS: '200',
  EXECUTOR_ALLOWED_TARGETS: '127.0.0.0/8',
} as const;

export interface Fleet {
  services: RunningService[];
  /** The running service of that name (the first, when several run). */
  service(name: ServiceName): RunningService;
  stop(): Promise<void>;
}

export async function startFleet(
  env: Record<string, string>,
  names: readonly ServiceName[] = SIX_SERVICES,
  /** Ports chosen ahead, for services whose URLs the others' env must name (CORS, the console). */
  options: { ports?: Partial<Record<ServiceName, number>> } = {},
): Promise<Fleet> {
  const started = await Promise.allSettled(
    names.map((name) => {
      const port = options.ports?.[name];
      return startService(name, env, port === undefined ? {} : { port });
    }),
  );
  const services = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await Promise.all(services.map((s) => s.stop('SIGKILL')));
    throw failed.reason;
  }
  return {
    services,
    service: (name) => {
      const found = services.find((s) => s.name === name);
      if (!found) throw new Error(`no ${name} in this fleet`);
      return found;
    },
    stop: async () => {
      await Promise.all(services.map((s) => s.stop()));
    },
  };
}
