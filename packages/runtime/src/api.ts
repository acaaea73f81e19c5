import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import type { JobTraces } from './job-traces.ts';
import { createLogger, type Logger } from './logger.ts';
import { createRegistry } from './metrics.ts';
import { handleShutdown, type ShutdownStep } from './shutdown.ts';
import { startServiceTracing, type Tracing } from './tracing.ts';
import type { TracingConfig } from './tracing-config.ts';

export interface ApiParts {
  /** The service's app (its ops routes included): listened on, and closed first on SIGTERM. */
  app: FastifyInstance;
  /** Run after the app stopped taking requests and drained: close pools. */
  stopSteps: ShutdownStep[];
}

/**
 * The shell both HTTP APIs share (task-api, job-api), the twin of runWorker(): logger, registry,
 * the app, and SIGTERM handling in the right order (the app first, so in-flight requests finish
 * on open pools, then the pools).
 */
export async function runApi(options: {
  service: string;
  logLevel: string;
  port: number;
  host: string;
  graceMs: number;
  /** The OTEL_* variables (baseConfigShape has them): tracing is started before `build`. */
  otel: TracingConfig;
  /** service.instance.id of its spans. */
  instanceId?: string;
  build: (ctx: {
    logger: Logger;
    registry: Registry;
    isShuttingDown: () => boolean;
    tracing: Tracing;
    traces: JobTraces;
  }) => Promise<ApiParts>;
}): Promise<{ logger: Logger }> {
  const logger = createLogger(options.service, options.logLevel);
  const registry = createRegistry(options.service);
  const { tracing, traces } = startServiceTracing(options, logger);
  let shuttingDown = () => false;
  const parts = await options.build({
    logger,
    registry,
    isShuttingDown: () => shuttingDown(),
    tracing,
    traces,
  });
  shuttingDown = handleShutdown(
    logger,
    [
      { name: 'http', run: () => parts.app.close() },
      ...parts.stopSteps,
      { name: 'tracing', run: () => tracing.shutdown() },
    ],
    { graceMs: options.graceMs },
  ).shuttingDown;
  await parts.app.listen({ port: options.port, host: options.host });
  return { logger };
}
