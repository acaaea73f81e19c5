import {
  idParamsSchema,
  invalidArgument,
  listTasksQuerySchema,
  patchTaskSchema,
  type Task,
  taskStateChangeSchema,
  taskView,
} from '@dsched/domain';
import { defineRoute, parseWith, pathId, STANDARD_ERRORS } from '@dsched/runtime';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { editTask, listTaskPage, pause, remove, resume } from '../core/task-lifecycle.ts';
import type { RateLimiter, TaskRepository, TenantDirectory } from '../ports.ts';
import { taskSchema } from './route-docs.ts';
import { tenantGuard } from './tenant-guard.ts';

// GET /v1/tasks, PATCH and DELETE /v1/tasks/{id}, POST /v1/tasks/{id}/pause and /resume.

export const RATE_LIMITED = {
  description: 'resource_exhausted: over the tenant’s rateLimitPerSecond (Retry-After: 1)',
};
const STALE_VERSION = { description: 'failed_precondition: If-Match names another version than the task’s' };
const tenantErrors = { 401: STANDARD_ERRORS[401], 404: STANDARD_ERRORS[404], 429: RATE_LIMITED };

// OpenAPI entries of the routes below, naming the schemas their handlers parse with.
export const taskLifecycleRouteDocs = [
  defineRoute({
    method: 'get',
    path: '/v1/tasks',
    summary: 'The tenant’s tasks, oldest first, paged',
    tags: ['tasks'],
    auth: 'tenant',
    query: listTasksQuerySchema,
    responses: {
      200: {
        description: 'a page of tasks; nextPageToken while more remain',
        schema: z.object({ tasks: z.array(taskSchema), nextPageToken: z.string().optional() }),
      },
      400: STANDARD_ERRORS[400],
      401: STANDARD_ERRORS[401],
      429: RATE_LIMITED,
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/v1/tasks/{id}',
    summary: 'Edit a task (a given field replaces the whole field); bumps its version',
    description:
      'A schedule edit cancels the old schedule’s jobs that were materialised but not started; a ' +
      'target, retry, priority or lane edit replaces them for the same occurrences. Honours If-Match.',
    tags: ['tasks'],
    auth: 'tenant',
    params: idParamsSchema,
    body: patchTaskSchema,
    responses: {
      200: { description: 'the task', schema: taskSchema },
      400: STANDARD_ERRORS[400],
      ...tenantErrors,
      412: STALE_VERSION,
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/v1/tasks/{id}',
    summary: 'Delete a task; its jobs not yet started are cancelled',
    tags: ['tasks'],
    auth: 'tenant',
    params: idParamsSchema,
    responses: { 204: { description: 'deleted' }, ...tenantErrors, 412: STALE_VERSION },
  }),
  ...(['pause', 'resume'] as const).map((action) =>
    defineRoute({
      method: 'post',
      path: `/v1/tasks/{id}/${action}`,
      summary:
        action === 'pause'
          ? 'Pause a task: nothing fires, jobs materialised ahead are cancelled'
          : 'Resume a task from now; occurrences due while paused are skipped',
      tags: ['tasks'],
      auth: 'tenant',
      params: idParamsSchema,
      body: taskStateChangeSchema,
      bodyOptional: true,
      responses: {
        200: { description: 'the task', schema: taskSchema },
        400: STANDARD_ERRORS[400],
        ...tenantErrors,
      },
    }),
  ),
];

/** `If-Match: "3"` (the ETag of a task is its version): the change applies only at that version. */
function expectedVersion(request: FastifyRequest): number | undefined {
  const header = request.headers['if-match'];
  if (header === undefined) return undefined;
  const match = /^(?:W\/)?"?(\d{1,10})"?$/.exec(String(header).trim());
  if (!match) throw invalidArgument('If-Match', 'expected the task version as an ETag, e.g. "3"');
  return Number(match[1]);
}

function sendTask(reply: FastifyReply, task: Task) {
  return reply.header('etag', `"${task.version}"`).send(taskView(task));
}

export function registerTaskLifecycleRoutes(
  app: FastifyInstance,
  deps: { tasks: TaskRepository; tenants: TenantDirectory; rateLimit: RateLimiter },
): void {
  const tenantOf = tenantGuard(deps);

  app.get('/v1/tasks', async (request) => {
    const tenant = await tenantOf(request);
    const query = parseWith(listTasksQuerySchema, request.query);
    const page = await listTaskPage(deps.tasks, tenant, query);
    return {
      tasks: page.tasks.map(taskView),
      ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}),
    };
  });

  app.patch('/v1/tasks/:id', async (request, reply) => {
    const tenant = await tenantOf(request);
    const id = pathId(request.params, 'resource');
    const body = parseWith(patchTaskSchema, request.body);
    return sendTask(reply, await editTask(deps.tasks, tenant, id, body, expectedVersion(request)));
  });

  app.delete('/v1/tasks/:id', async (request, reply) => {
    const tenant = await tenantOf(request);
    await remove(deps.tasks, tenant, pathId(request.params, 'resource'), expectedVersion(request));
    return reply.status(204).send();
  });

  for (const [action, change] of [
    ['pause', pause],
    ['resume', resume],
  ] as const) {
    app.post(`/v1/tasks/:id/${action}`, async (request, reply) => {
      const tenant = await tenantOf(request);
      const id = pathId(request.params, 'resource');
      const { reason } = parseWith(taskStateChangeSchema, request.body);
      const task = await change(deps.tasks, tenant, id);
      request.log.info({ tenantId: tenant.id, taskId: id, action, reason }, `task ${action}d`);
      return sendTask(reply, task);
    });
  }
}
