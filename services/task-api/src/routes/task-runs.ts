import { backfillSchema, idParamsSchema } from '@dsched/domain';
import { defineRoute, parseWith, pathId, STANDARD_ERRORS } from '@dsched/runtime';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { backfill, triggerNow } from '../core/task-runs.ts';
import type { RateLimiter, TaskRuns, TenantDirectory } from '../ports.ts';
import { RATE_LIMITED } from './task-lifecycle.ts';
import { tenantGuard } from './tenant-guard.ts';

// POST /v1/tasks/{id}/trigger and /backfill: runs asked for explicitly, as jobs with keys of their own.

export const taskRunRouteDocs = [
  defineRoute({
    method: 'post',
    path: '/v1/tasks/{id}/trigger',
    summary: 'Run the task now, as a job of its own',
    description:
      'With an Idempotency-Key header (up to 40 of A-Za-z0-9._:-), asking again while that job is ' +
      'live answers the same job.',
    tags: ['tasks'],
    auth: 'tenant',
    params: idParamsSchema,
    responses: {
      202: { description: 'the job', schema: z.object({ jobId: z.string() }) },
      400: STANDARD_ERRORS[400],
      401: STANDARD_ERRORS[401],
      404: STANDARD_ERRORS[404],
      429: RATE_LIMITED,
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/tasks/{id}/backfill',
    summary: 'Run the schedule’s occurrences in [from, to) as backfill jobs (asking twice runs them once)',
    tags: ['tasks'],
    auth: 'tenant',
    params: idParamsSchema,
    body: backfillSchema,
    responses: {
      202: {
        description: 'occurrences in the range, and jobs made by this request',
        schema: z.object({ count: z.number().int(), created: z.number().int() }),
      },
      400: STANDARD_ERRORS[400],
      401: STANDARD_ERRORS[401],
      404: STANDARD_ERRORS[404],
      429: RATE_LIMITED,
    },
  }),
];
export function registerTaskRunRoutes(
  app: FastifyInstance,
  deps: { runs: TaskRuns; tenants: TenantDirectory; rateLimit: RateLimiter },
): void {
  const tenantOf = tenantGuard(deps);

  app.post('/v1/tasks/:id/trigger', async (request, reply) => {
    const tenant = await tenantOf(request);
    const key = request.headers['idempotency-key'];
    const result = await triggerNow(
      deps.runs,
      tenant,
      pathId(request.params, 'resource'),
      key === undefined ? undefined : String(key),
    );
    return reply.status(202).send(result);
  });

  app.post('/v1/tasks/:id/backfill', async (request, reply) => {
    const tenant = await tenantOf(request);
    const id = pathId(request.params, 'resource');
    const body = parseWith(backfillSchema, request.body);
    return reply.status(202).send(await backfill(deps.runs, tenant, id, body));
  });
}
