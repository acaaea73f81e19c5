import {
  createHttpServer,
  installErrorHandler,
  type Logger,
  type ReadinessCheck,
  registerOpsRoutes,
} from '@dsched/runtime';
import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import type { JobApiMetrics } from './metrics.ts';
import type { JobControl, JobLookup, TenantByKeyHash } from './ports.ts';
import { registerCallbackRoutes } from './routes/callbacks.ts';
import { registerCancelRoute } from './routes/cancel.ts';
import { registerJobRoutes } from './routes/jobs.ts';

export interface JobApiDeps {
  logger: Logger;
  registry: Registry;
  ready: ReadinessCheck;
  isShuttingDown?: () => boolean;
  jobs: JobLookup;
  tenantByKey: TenantByKeyHash;
  control: JobControl;
  metrics: JobApiMetrics;
  /** Uniform in [0, 1), for the backoff jitter of a failure reported through complete. */
  random: () => number;
  /** How far each heartbeat pushes a parked job's deadline. */
  heartbeatExtendSeconds: number;
}

export function buildApp(deps: JobApiDeps): FastifyInstance {
  const app = createHttpServer(deps.logger);
  installErrorHandler(app);
  registerOpsRoutes(app, deps);
  registerJobRoutes(app, deps);
  registerCancelRoute(app, deps);
  registerCallbackRoutes(app, deps);
  return app;
}
