import type { SecretsKeyring } from '@dsched/domain';
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
import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import type { AuditSources } from './core/audit.ts';
import { taskApiDocument } from './openapi.ts';
import type {
  BulkOperations,
  DatabaseClock,
  RateLimiter,
  TaskRepository,
  TaskRuns,
  TenantDirectory,
  WorkflowHistory,
  WorkflowStore,
} from './ports.ts';
import { registerAdminRoutes } from './routes/admin.ts';
import { registerAuditRoutes } from './routes/audit.ts';
import { registerOperationRoutes } from './routes/operations.ts';
import { registerSchedulePreviewRoutes } from './routes/schedule-preview.ts';
import { registerTaskLifecycleRoutes } from './routes/task-lifecycle.ts';
import { registerTaskRunRoutes } from './routes/task-runs.ts';
import { registerTaskRoutes } from './routes/tasks.ts';
import { registerWorkflowSignalRoutes } from './routes/workflow-signals.ts';
import { registerWorkflowRoutes } from './routes/workflows.ts';

export interface TaskApiDeps {
  logger: Logger;
  registry: Registry;
  ready: ReadinessCheck;
  isShuttingDown?: () => boolean;
  /** Failed authentications one address may make per window before 429s (default 20 per 60 s). */
  authThrottle?: { maxFailures: number; windowS: number };
  /** Which peers may name the client in X-Forwarded-For (TRUST_PROXY); nobody when absent. */
  trustProxy?: TrustProxy;
  tenants: TenantDirectory;
  tasks: TaskRepository;
  runs: TaskRuns;
  rateLimit: RateLimiter;
  now: DatabaseClock;
  adminToken: string;
  audit: AuditSources;
  workflows: WorkflowStore;
  /** Bulk operations (docs/bulk-operations.md). */
  operations: BulkOperations;
  /** Finished runs moved to history. */
  history: WorkflowHistory;
  /** The largest POST /v1/workflows body (a 100,000-node workflow is tens of megabytes). */
  workflowMaxBodyBytes: number;
  /** SCHEDULER_PARTITIONS: a submitted run's partition is drawn from these (docs/sharding.md). */
  partitions: number;
  /** Derives wait nodes' signal tokens (crypto/signal-token.ts): the secrets keyring. */
  signalKeys: SecretsKeyring;
  /** The origin signal URLs name (TASK_API_PUBLIC_URL); absent: the origin a request came to. */
  publicUrl?: string | undefined;
  /** Web origins allowed to call from a browser (CORS); none when empty or absent. */
  corsOrigins?: readonly string[];
}

export function buildApp(deps: TaskApiDeps): FastifyInstance {
  const app = createHttpServer(deps.logger, { trustProxy: deps.trustProxy });
  installErrorHandler(app);
  installAuthThrottle(app, deps.authThrottle ?? { maxFailures: 20, windowS: 60 });
  registerOpsRoutes(app, deps);
  allowOrigins(app, deps.corsOrigins ?? []);
  // Each route's OpenAPI entry sits beside its handler and is listed in openapi.ts.
  registerAdminRoutes(app, deps);
  registerTaskRoutes(app, deps);
  registerTaskLifecycleRoutes(app, deps);
  registerTaskRunRoutes(app, deps);
  registerAuditRoutes(app, deps);
  registerSchedulePreviewRoutes(app, deps);
  registerWorkflowRoutes(app, deps);
  registerWorkflowSignalRoutes(app, deps);
  registerOperationRoutes(app, deps);
  const document = taskApiDocument();
  refuseUndeclaredInput(app, document);
  answerUndeclaredMethods(app, document);
  serveOpenApi(app, document);
  return app;
}

/**
 * CORS for the pages of the configured origins (the console under job-api's /ui): the headers the
 * client sends (a key, a JSON body, If-Match, Idempotency-Key) and the ETag it reads back.
 */
function allowOrigins(app: FastifyInstance, origins: readonly string[]): void {
  if (origins.length === 0) return;
  void app.register(cors, {
    origin: [...origins],
    methods: ['GET', 'POST', 'PATCH', 'DELETE'],
    allowedHeaders: ['authorization', 'content-type', 'if-match', 'if-none-match', 'idempotency-key'],
    exposedHeaders: ['etag', 'retry-after'],
    maxAge: 600,
  });
}
