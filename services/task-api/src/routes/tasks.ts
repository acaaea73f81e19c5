import { createTaskSchema, notFound, taskView } from '@dsched/domain';
import { parseWith, pathId } from '@dsched/runtime';
import type { FastifyInstance } from 'fastify';
import { applyTasks } from '../core/task-apply.ts';
import { createTask } from '../core/tasks.ts';
import type { DatabaseClock, RateLimiter, TaskRepository, TenantDirectory } from '../ports.ts';
import { tenantGuard } from './tenant-guard.ts';

export function registerTaskRoutes(
  app: FastifyInstance,
  deps: {
    tasks: TaskRepository;
    tenants: TenantDirectory;
    now: DatabaseClock;
    rateLimit: RateLimiter;
    /** An apply's file may hold scheduled workflows: it takes bodies as large as a workflow's. */
    workflowMaxBodyBytes: number;
  },
): void {
  const tenantOf = tenantGuard(deps);

  // `::` is fastify's literal colon: the route is POST /v1/tasks:apply.
  app.post('/v1/tasks::apply', { bodyLimit: deps.workflowMaxBodyBytes }, async (request) => {
    const tenant = await tenantOf(request);
    return applyTasks(deps, tenant, request.body);
  });

  app.post('/v1/tasks', async (request, reply) => {
    const tenant = await tenantOf(request);
    const body = parseWith(createTaskSchema, request.body);
    const task = await createTask(deps, tenant, body);
    return reply.status(201).header('etag', `"${task.version}"`).send(taskView(task));
  });

  app.get('/v1/tasks/:id', async (request, reply) => {
    const tenant = await tenantOf(request);
    const task = await deps.tasks.get(tenant.id, pathId(request.params, 'resource'));
    if (!task) throw notFound('task');
    return reply.header('etag', `"${task.version}"`).send(taskView(task));
  });
}
