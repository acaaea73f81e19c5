import { cancelRequestSchema } from '@dsched/domain';
import { authenticateTenant, parsePathId, parseRequestBody } from '@dsched/runtime';
import type { FastifyInstance } from 'fastify';
import { getJob } from '../core/get-job.ts';
import { type ControlDeps, cancelJob } from '../core/job-control.ts';
import type { JobLookup, TenantByKeyHash } from '../ports.ts';

export { cancelRequestSchema };

// POST /v1/jobs/{id}/cancel → 200 job. A pending or parked job is cancelled at once; one an
// executor is calling is marked (cancelRequested: true) and its call aborted within one lease
// renewal period. A finished job answers 409; cancelling a cancelled job is a no-op.
export function registerCancelRoute(
  app: FastifyInstance,
  deps: ControlDeps & { jobs: JobLookup; tenantByKey: TenantByKeyHash },
): void {
  app.post('/v1/jobs/:id/cancel', async (request) => {
    const tenant = await authenticateTenant(request, deps.tenantByKey);
    const id = parsePathId(request.params, 'job');
    parseRequestBody(cancelRequestSchema, request.body);
    await cancelJob(deps, tenant.id, id);
    return getJob(deps.jobs, tenant.id, id);
  });
}
