import {
  createHttpServer,
  installErrorHandler,
  type Logger,
  type ReadinessCheck,
  registerOpsRoutes,
} from '@dsched/runtime';
import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import type { DatabaseClock, RateLimiter, TaskRepository, TaskRuns, TenantDirectory } from './ports.ts';
import { registerAdminRoutes } from './routes/admin.ts';
import { registerTaskLifecycleRoutes } from './routes/task-lifecycle.ts';
import { registerTaskRunRoutes } from './routes/task-runs.ts';
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
}

export function buildApp(deps: TaskApiDeps): FastifyInstance {
  const app = createHttpServer(deps.logger);
  installErrorHandler(app);
  registerOpsRoutes(app, deps);
  registerAdminRoutes(app, deps);
  registerTaskRoutes(app, deps);
  registerTaskLifecycleRoutes(app, deps);
  registerTaskRunRoutes(app, deps);
  return app;
}
