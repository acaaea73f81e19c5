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
import type { AuditSources } from './core/audit.ts';
import type { DatabaseClock, RateLimiter, TaskRepository, TaskRuns, TenantDirectory } from './ports.ts';
import { registerAdminRoutes } from './routes/admin.ts';
import { auditRoute, registerAuditRoutes } from './routes/audit.ts';
import { adminRouteDocs, taskRouteDocs } from './routes/route-docs.ts';
import { registerTaskLifecycleRoutes, taskLifecycleRouteDocs } from './routes/task-lifecycle.ts';
import { registerTaskRunRoutes, taskRunRouteDocs } from './routes/task-runs.ts';
import { registerTaskRoutes } from './routes/tasks.ts';

export interface TaskApiDeps {
  logger: Logger;
  registry: Registry;
  ready: ReadinessCheck;
  isShuttingDown?: () => boolean;
  tenants: TenantDirectory;
  tasks: TaskRepository;
  runs: TaskRuns;
  rateLimit: RateLimiter;
  now: DatabaseClock;
  adminToken: string;
  audit: AuditSources;
}

export function buildApp(deps: TaskApiDeps): FastifyInstance {
  const app = createHttpServer(deps.logger);
  installErrorHandler(app);
  registerOpsRoutes(app, deps);
  const openapi = new OpenApiDocument(
    { title: 'dsched task-api', version: '1', description: 'Tenants, tasks and their audit.' },
    { errorSchema },
  );
  registerAdminRoutes(app, deps);
  openapi.add(adminRouteDocs);
  registerTaskRoutes(app, deps);
  openapi.add(taskRouteDocs);
  registerTaskLifecycleRoutes(app, deps);
  openapi.add(taskLifecycleRouteDocs);
  registerTaskRunRoutes(app, deps);
  openapi.add(taskRunRouteDocs);
  registerAuditRoutes(app, deps);
  openapi.add(auditRoute);
  serveOpenApi(app, openapi);
  return app;
}
