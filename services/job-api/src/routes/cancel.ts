import { cancelRequestSchema, idParamsSchema, jobViewSchema } from '@dsched/domain';
import { authenticateTenant, defineRoute, parseWith, pathId, STANDARD_ERRORS } from '@dsched/runtime';
import type { FastifyInstance } from 'fastify';
import { getJob } from '../core/get-job.ts';
import { type ControlDeps, cancelJob } from '../core/job-control.ts';
import type { JobLookup, TenantByKeyHash } from '../ports.ts';

export { cancelRequestSchema };

export const cancelRoute = defineRoute({
  method: 'post',
  path: '/v1/jobs/{id}/cancel',
  summary: 'Cancel a job: at once when pending or parked; a running call is aborted within about a second',
  description:
    'A job an executor is calling is marked (cancelRequested: true) and its call aborted by the ' +
    'executor’s cancel watch (every EXECUTOR_CANCEL_POLL_MS, 1 s), or at the latest at its next lease ' +
    'renewal; a cancelled job never fires. Cancelling a cancelled job is a no-op. No body is needed.',
  tags: ['jobs'],
  auth: 'tenant',
  params: idParamsSchema,
  body: cancelRequestSchema,
  bodyOptional: true,
  responses: {
    200: { description: 'the job as it now is', schema: jobViewSchema },
    400: STANDARD_ERRORS[400],
    401: STANDARD_ERRORS[401],
    404: STANDARD_ERRORS[404],
    409: { description: 'conflict: the job has already finished (succeeded or dead)' },
  },
});

export function registerCancelRoute(
  app: FastifyInstance,
  deps: ControlDeps & { jobs: JobLookup; tenantByKey: TenantByKeyHash },
): void {
  app.post('/v1/jobs/:id/cancel', async (request) => {
    const tenant = await authenticateTenant(request, deps.tenantByKey);
    const id = pathId(request.params, 'job');
    // No body is an empty one; anything sent (null included) is checked.
    parseWith(cancelRequestSchema, request.body === undefined ? {} : request.body);
    await cancelJob(deps, tenant.id, id);
    return getJob(deps.jobs, tenant.id, id);
  });
}
