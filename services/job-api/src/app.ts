import {
  answerUndeclaredMethods,
  createHttpServer,
  installAuthThrottle,
  installErrorHandler,
  type Logger,
  type ReadinessCheck,
  refuseUndeclaredInput,
  registerOpsRoutes,
  serveOpenApi,
  type TrustProxy,
} from '@dsched/runtime';
import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import type { JobApiMetrics } from './metrics.ts';
import { jobApiDocument } from './openapi.ts';
import type {
  DatabaseClock,
  DeadLetterQueue,
  JobControl,
  JobLookup,
  JobSource,
  LiveJobs,
  TenantByKeyHash,
} from './ports.ts';
import { registerCallbackRoutes } from './routes/callbacks.ts';
import { registerCancelRoute } from './routes/cancel.ts';
import { type ConsoleOptions, registerConsole } from './routes/console.ts';
import { registerDlqRoutes } from './routes/dlq.ts';
import { registerHistoryRoutes } from './routes/history.ts';
import { registerJobRoutes } from './routes/jobs.ts';

export interface JobApiDeps {
  logger: Logger;
  registry: Registry;
  ready: ReadinessCheck;
  isShuttingDown?: () => boolean;
  /** Failed authentications one address may make per window before 429s (default 20 per 60 s). */
  authThrottle?: { maxFailures: number; windowS: number };
  /** Which peers may name the client in X-Forwarded-For (TRUST_PROXY); nobody when absent. */
  trustProxy?: TrustProxy;
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
  /** The console under /ui: task-api's URL for the page (undefined: asked at sign-in). */
  console?: ConsoleOptions;
}

export function buildApp(deps: JobApiDeps): FastifyInstance {
  const app = createHttpServer(deps.logger, { trustProxy: deps.trustProxy });
  installErrorHandler(app);
  installAuthThrottle(app, deps.authThrottle ?? { maxFailures: 20, windowS: 60 });
  registerOpsRoutes(app, deps);
  // Each route's OpenAPI entry sits beside its handler and is listed in openapi.ts.
  registerJobRoutes(app, deps);
  registerHistoryRoutes(app, deps);
  registerDlqRoutes(app, deps);
  registerCancelRoute(app, deps);
  registerCallbackRoutes(app, deps);
  const document = jobApiDocument();
  refuseUndeclaredInput(app, document);
  answerUndeclaredMethods(app, document);
  serveOpenApi(app, document);
  registerConsole(app, deps.console ?? {});
  return app;
}
