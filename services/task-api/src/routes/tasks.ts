import { createTaskSchema, notFound, taskView } from '@dsched/domain';
import { authenticateTenant } from '@dsched/runtime';
import type { FastifyInstance } from 'fastify';
import { createTask } from '../core/tasks.ts';
import type { DatabaseClock, TaskRepository, TenantDirectory } from '../ports.ts';
import { parseBody, parseId } from './parse.ts';

export function registerTaskRoutes(
  app: FastifyInstance,
  deps: { tasks: TaskRepository; tenants: TenantDirectory; now: DatabaseClock },
): void {
  const lookup = (hash: Buffer) => deps.tenants.findByKeyHash(hash);

  app.post('/v1/tasks', async (request, reply) => {
    const tenant = await authenticateTenant(request, lookup);
    const body = parseBody(createTaskSchema, request.body);
    const task = await createTask(deps, tenant, body);
    return reply.status(201).send(taskView(task));
  });

  app.get('/v1/tasks/:id', async (request) => {
    const tenant = await authenticateTenant(request, lookup);
    const task = await deps.tasks.get(tenant.id, parseId(request.params));
    if (!task) throw notFound('task');
    return taskView(task);
  });
}
