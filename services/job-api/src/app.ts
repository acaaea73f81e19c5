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
import type { JobApiMetrics } from './metrics.ts';
import type {
  DatabaseClock,
  DeadLetterQueue,
  JobControl,
  JobLookup,
  JobSource,
  LiveJobs,
  TenantByKeyHash,
} from './ports.ts';
import { callbackRoutes, registerCallbackRoutes } from './routes/callbacks.ts';
import { cancelRoute, registerCancelRoute } from './routes/cancel.ts';
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
  control: JobControl;
  metrics: JobApiMetrics;
  /** Uniform in [0, 1), for the backoff jitter of a failure reported through complete. */
  random: () => number;
  /** How far each heartbeat pushes a parked job's heartbeat timeout (lease_expires_at); its deadline stays. */
  heartbeatExtendSeconds: number;
}

export function buildApp(deps: JobApiDeps): FastifyInstance {
  const app = createHttpServer(deps.logger);
  installErrorHandler(app);
  registerOpsRoutes(app, deps);
  const openapi = new OpenApiDocument(
    {
      title: 'dsched job-api',
      version: '1',
      description:
        'Job status, history, the DLQ and its redrive, cancel, and the callbacks of asynchronous jobs.',
    },
    { errorSchema },
  );
  registerJobRoutes(app, deps);
  openapi.add(getJobRoute);
  registerHistoryRoutes(app, deps);
  openapi.add(historyRoutes);
  registerDlqRoutes(app, deps);
  openapi.add(dlqRoutes);
  registerCancelRoute(app, deps);
  openapi.add(cancelRoute);
  registerCallbackRoutes(app, deps);
  openapi.add(callbackRoutes);
  serveOpenApi(app, openapi);
  return app;
}
