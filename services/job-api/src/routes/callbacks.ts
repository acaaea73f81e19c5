import {
  completeRequestSchema,
  heartbeatRequestSchema,
  heartbeatResponseSchema,
  idParamsSchema,
  jobViewSchema,
} from '@dsched/domain';
import { authenticateTenant, defineRoute, parseWith, pathId, STANDARD_ERRORS } from '@dsched/runtime';
import type { FastifyInstance } from 'fastify';
import { getJob } from '../core/get-job.ts';
import { type ControlDeps, complete, heartbeat } from '../core/job-control.ts';
import type { JobLookup, TenantByKeyHash } from '../ports.ts';

export { completeRequestSchema, heartbeatRequestSchema };

// The asynchronous completion protocol (docs/async-completion.md): a target that answered 202
// heartbeats and completes with the attempt token it was called with (Dsched-Attempt).

const STALE = { description: 'conflict: the attempt is not the job’s current attempt of a running job' };

export const callbackRoutes = [
  defineRoute({
    method: 'post',
    path: '/v1/jobs/{id}/heartbeat',
    summary: 'Heartbeat of an asynchronous (202) job: pushes its heartbeat timeout out, keeps its progress',
    tags: ['async'],
    auth: 'tenant',
    params: idParamsSchema,
    body: heartbeatRequestSchema,
    responses: {
      200: { description: 'the new deadline', schema: heartbeatResponseSchema },
      400: STANDARD_ERRORS[400],
      401: STANDARD_ERRORS[401],
      404: STANDARD_ERRORS[404],
      409: STALE,
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/jobs/{id}/complete',
    summary: 'Completion of an asynchronous (202) job: succeeded, or failed (retried while attempts remain)',
    tags: ['async'],
    auth: 'tenant',
    params: idParamsSchema,
    body: completeRequestSchema,
    responses: {
      200: { description: 'the job as it now is', schema: jobViewSchema },
      400: STANDARD_ERRORS[400],
      401: STANDARD_ERRORS[401],
      404: STANDARD_ERRORS[404],
      409: STALE,
    },
  }),
];

export function registerCallbackRoutes(
  app: FastifyInstance,
  deps: ControlDeps & { jobs: JobLookup; tenantByKey: TenantByKeyHash },
): void {
  app.post('/v1/jobs/:id/heartbeat', async (request) => {
    const tenant = await authenticateTenant(request, deps.tenantByKey);
    const id = pathId(request.params, 'job');
    const body = parseWith(heartbeatRequestSchema, request.body);
    return heartbeat(deps, tenant.id, id, body);
  });

  app.post('/v1/jobs/:id/complete', async (request) => {
    const tenant = await authenticateTenant(request, deps.tenantByKey);
    const id = pathId(request.params, 'job');
    const body = parseWith(completeRequestSchema, request.body);
    await complete(deps, tenant.id, id, body);
    return getJob(deps.jobs, tenant.id, id);
  });
}
