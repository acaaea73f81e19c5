import { idParamsSchema, jobViewSchema } from '@dsched/domain';
import {
  authenticateTenant,
  defineRoute,
  HISTORY_UNAVAILABLE,
  pathId,
  STANDARD_ERRORS,
} from '@dsched/runtime';
import type { FastifyInstance } from 'fastify';
import { getJob } from '../core/get-job.ts';
import type { JobLookup, TenantByKeyHash } from '../ports.ts';

export const getJobRoute = defineRoute({
  method: 'get',
  path: '/v1/jobs/{id}',
  summary: 'One job with its attempts: live from MySQL or archived from history, the same document',
  tags: ['jobs'],
  auth: 'tenant',
  params: idParamsSchema,
  responses: {
    200: { description: 'the job', schema: jobViewSchema },
    401: STANDARD_ERRORS[401],
    404: STANDARD_ERRORS[404],
    503: HISTORY_UNAVAILABLE,
  },
});

export function registerJobRoutes(
  app: FastifyInstance,
  deps: { jobs: JobLookup; tenantByKey: TenantByKeyHash },
): void {
  app.get('/v1/jobs/:id', async (request) => {
    const tenant = await authenticateTenant(request, deps.tenantByKey);
    return getJob(deps.jobs, tenant.id, pathId(request.params, 'job'));
  });
}
