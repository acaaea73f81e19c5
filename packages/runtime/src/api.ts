import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import { createLogger, type Logger } from './logger.ts';
import { createRegistry } from './metrics.ts';
import { handleShutdown, type ShutdownStep } from './shutdown.ts';

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
  build: (ctx: { logger: Logger; registry: Registry; isShuttingDown: () => boolean }) => Promise<ApiParts>;
}): Promise<{ logger: Logger }> {
  const logger = createLogger(options.service, options.logLevel);
  const registry = createRegistry(options.service);
  let shuttingDown = () => false;
  const parts = await options.build({ logger, registry, isShuttingDown: () => shuttingDown() });
  shuttingDown = handleShutdown(
    logger,
    [{ name: 'http', run: () => parts.app.close() }, ...parts.stopSteps],
    { graceMs: options.graceMs },
  ).shuttingDown;
  await parts.app.listen({ port: options.port, host: options.host });
  return { logger };
}
