import { isId, notFound } from '@dsched/domain';
import { authenticateTenant } from '@dsched/runtime';
import type { FastifyInstance } from 'fastify';
import { getJob } from '../core/get-job.ts';
import type { JobLookup, TenantByKeyHash } from '../ports.ts';

export function registerJobRoutes(
  app: FastifyInstance,
  deps: { jobs: JobLookup; tenantByKey: TenantByKeyHash },
): void {
  app.get('/v1/jobs/:id', async (request) => {
    const tenant = await authenticateTenant(request, deps.tenantByKey);
    const { id } = request.params as { id: string };
    if (!isId(id)) throw notFound('job');
    return getJob(deps.jobs, tenant.id, id);
  });
}
