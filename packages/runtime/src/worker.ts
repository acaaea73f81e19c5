import type { Registry } from 'prom-client';
import type { JobTraces } from './job-traces.ts';
import { createLogger, type Logger } from './logger.ts';
import type { Loop } from './loop.ts';
import { createRegistry } from './metrics.ts';
import { buildOpsServer, type ReadinessCheck } from './ops-routes.ts';
import { handleShutdown, type ShutdownStep } from './shutdown.ts';
import { startServiceTracing, type Tracing } from './tracing.ts';
import type { TracingConfig } from './tracing-config.ts';

export interface WorkerParts {
  /** The background loops; started after the ops server listens, stopped first on SIGTERM. */
  loops: Loop[];
  ready: ReadinessCheck;
  /** Run after the loops stopped: finish or give back held work, then close pools. */
  stopSteps: ShutdownStep[];
}

/**
 * The shell every worker service shares (scheduler, executor, reconciler, archiver): logger,
 * registry, the ops server on METRICS_PORT, loops, and SIGTERM handling in the right order.
 */
export async function runWorker(options: {
  service: string;
  logLevel: string;
  metricsPort: number;
  graceMs: number;
  /** The OTEL_* variables (baseConfigShape has them): tracing is started before `build`. */
  otel: TracingConfig;
  /** service.instance.id of its spans. */
  instanceId?: string;
  build: (ctx: {
    logger: Logger;
    registry: Registry;
    tracing: Tracing;
    traces: JobTraces;
  }) => Promise<WorkerParts>;
}): Promise<{ logger: Logger }> {
  const logger = createLogger(options.service, options.logLevel);
  const registry = createRegistry(options.service);
  const { tracing, traces } = startServiceTracing(options, logger);
  const parts = await options.build({ logger, registry, tracing, traces });
  let shuttingDown = () => false;
  const ops = buildOpsServer({ logger, registry, ready: parts.ready, isShuttingDown: () => shuttingDown() });
  shuttingDown = handleShutdown(
    logger,
    [
      {
        name: 'stop loops',
        run: async () => {
          await Promise.all(parts.loops.map((l) => l.stop()));
          // From here no pass of any loop runs: what is held is finished or given back next.
          logger.info('loops stopped');
        },
      },
      ...parts.stopSteps,
      { name: 'ops', run: () => ops.close() },
      { name: 'tracing', run: () => tracing.shutdown() },
    ],
    { graceMs: options.graceMs },
  ).shuttingDown;
  await ops.listen({ port: options.metricsPort, host: '0.0.0.0' });
  for (const loop of parts.loops) loop.start();
  logger.info({ loops: parts.loops.map((l) => l.name) }, `${options.service} started`);
  return { logger };
}
