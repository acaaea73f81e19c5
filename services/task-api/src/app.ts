import {
  createHttpServer,
  installErrorHandler,
  type Logger,
  type ReadinessCheck,
  registerOpsRoutes,
} from '@dsched/runtime';
import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import type { DatabaseClock, TaskRepository, TenantDirectory } from './ports.ts';
import { registerAdminRoutes } from './routes/admin.ts';
import { registerTaskRoutes } from './routes/tasks.ts';

export interface TaskApiDeps {
  logger: Logger;
  registry: Registry;
  ready: ReadinessCheck;
  isShuttingDown?: () => boolean;
  tenants: TenantDirectory;
  tasks: TaskRepository;
  now: DatabaseClock;
  adminToken: string;
}

export function buildApp(deps: TaskApiDeps): FastifyInstance {
  const app = createHttpServer(deps.logger);
  installErrorHandler(app);
  registerOpsRoutes(app, deps);
  registerAdminRoutes(app, deps);
  registerTaskRoutes(app, deps);
  return app;
}
