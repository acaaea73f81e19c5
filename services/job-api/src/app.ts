import {
  createHttpServer,
  installErrorHandler,
  type Logger,
  type ReadinessCheck,
  registerOpsRoutes,
} from '@dsched/runtime';
import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import type { JobLookup, TenantByKeyHash } from './ports.ts';
import { registerJobRoutes } from './routes/jobs.ts';

export interface JobApiDeps {
  logger: Logger;
  registry: Registry;
  ready: ReadinessCheck;
  isShuttingDown?: () => boolean;
  jobs: JobLookup;
  tenantByKey: TenantByKeyHash;
}

export function buildApp(deps: JobApiDeps): FastifyInstance {
  const app = createHttpServer(deps.logger);
  installErrorHandler(app);
  registerOpsRoutes(app, deps);
  registerJobRoutes(app, deps);
  return app;
}
