import { completeRequestSchema, heartbeatRequestSchema } from '@dsched/domain';
import { authenticateTenant, parsePathId, parseRequestBody } from '@dsched/runtime';
import type { FastifyInstance } from 'fastify';
import { getJob } from '../core/get-job.ts';
import { type ControlDeps, complete, heartbeat } from '../core/job-control.ts';
import type { JobLookup, TenantByKeyHash } from '../ports.ts';

export { completeRequestSchema, heartbeatRequestSchema };

// The asynchronous completion protocol (docs/async-completion.md): a target that answered 202
// heartbeats and completes with the attempt token it was called with (Dsched-Attempt).
//   POST /v1/jobs/{id}/heartbeat {attempt, progress?} → 200 {id, attempt, state, deadlineAt, cancelRequested}
//   POST /v1/jobs/{id}/complete {attempt, outcome, output?, error?} → 200 job
// A stale attempt answers 409; another tenant's job 404.
export function registerCallbackRoutes(
  app: FastifyInstance,
  deps: ControlDeps & { jobs: JobLookup; tenantByKey: TenantByKeyHash },
): void {
  app.post('/v1/jobs/:id/heartbeat', async (request) => {
    const tenant = await authenticateTenant(request, deps.tenantByKey);
    const id = parsePathId(request.params, 'job');
    const body = parseRequestBody(heartbeatRequestSchema, request.body);
    return heartbeat(deps, tenant.id, id, body);
  });

  app.post('/v1/jobs/:id/complete', async (request) => {
    const tenant = await authenticateTenant(request, deps.tenantByKey);
    const id = parsePathId(request.params, 'job');
    const body = parseRequestBody(completeRequestSchema, request.body);
    await complete(deps, tenant.id, id, body);
    return getJob(deps.jobs, tenant.id, id);
  });
}
