import { errorSchema } from '@dsched/domain';
import {
  createHttpServer,
  installErrorHandler,
  type Logger,
  OpenApiDocument,
  type ReadinessCheck,
  registerOpsRoutes,
  serveOpenApi,
} from '@dsched/runtime';
import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import type {
  DatabaseClock,
  DeadLetterQueue,
  JobLookup,
  JobSource,
  LiveJobs,
  TenantByKeyHash,
} from './ports.ts';
import { dlqRoutes, registerDlqRoutes } from './routes/dlq.ts';
import { historyRoutes, registerHistoryRoutes } from './routes/history.ts';
import { getJobRoute, registerJobRoutes } from './routes/jobs.ts';

export interface JobApiDeps {
  logger: Logger;
  registry: Registry;
  ready: ReadinessCheck;
  isShuttingDown?: () => boolean;
  jobs: JobLookup;
  tenantByKey: TenantByKeyHash;
  live: LiveJobs;
  history: JobSource;
  dlq: DeadLetterQueue;
  now: DatabaseClock;
}

export function buildApp(deps: JobApiDeps): FastifyInstance {
  const app = createHttpServer(deps.logger);
  installErrorHandler(app);
  registerOpsRoutes(app, deps);
  const openapi = new OpenApiDocument(
    { title: 'dsched job-api', version: '1', description: 'Job status, history, the DLQ and its redrive.' },
    { errorSchema },
  );
  registerJobRoutes(app, deps);
  openapi.add(getJobRoute);
  registerHistoryRoutes(app, deps);
  openapi.add(historyRoutes);
  registerDlqRoutes(app, deps);
  openapi.add(dlqRoutes);
  serveOpenApi(app, openapi);
  return app;
}
