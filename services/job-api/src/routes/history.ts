import {
  idParamsSchema,
  jobListQuerySchema,
  jobViewSchema,
  pageSchema,
  runsQuerySchema,
} from '@dsched/domain';
import {
  authenticateTenant,
  defineRoute,
  HISTORY_UNAVAILABLE,
  parseWith,
  pathId,
  STANDARD_ERRORS,
} from '@dsched/runtime';
import type { FastifyInstance } from 'fastify';
import { type ListDeps, listTaskRuns, listTenantJobs } from '../core/lists.ts';
import type { TenantByKeyHash } from '../ports.ts';

export const taskRunsRoute = defineRoute({
  method: 'get',
  path: '/v1/tasks/{id}/runs',
  summary: 'A task’s runs in a time range, newest first, live and archived, paged',
  tags: ['history'],
  auth: 'tenant',
  params: idParamsSchema,
  query: runsQuerySchema,
  responses: {
    200: { description: 'a page of runs', schema: pageSchema('runs', jobViewSchema) },
    ...STANDARD_ERRORS,
    503: HISTORY_UNAVAILABLE,
  },
});

export const tenantJobsRoute = defineRoute({
  method: 'get',
  path: '/v1/jobs',
  summary: 'The tenant’s jobs by state and time range, newest first, live and archived, paged',
  tags: ['history'],
  auth: 'tenant',
  query: jobListQuerySchema,
  responses: {
    200: { description: 'a page of jobs', schema: pageSchema('jobs', jobViewSchema) },
    400: STANDARD_ERRORS[400],
    401: STANDARD_ERRORS[401],
    503: HISTORY_UNAVAILABLE,
  },
});

export const historyRoutes = [taskRunsRoute, tenantJobsRoute];

export function registerHistoryRoutes(
  app: FastifyInstance,
  deps: ListDeps & { tenantByKey: TenantByKeyHash },
): void {
  app.get('/v1/tasks/:id/runs', async (request) => {
    const tenant = await authenticateTenant(request, deps.tenantByKey);
    const taskId = pathId(request.params, 'task');
    const q = parseWith(runsQuerySchema, request.query);
    const page = await listTaskRuns(deps, tenant.id, taskId, q);
    return { runs: page.items, ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}) };
  });

  app.get('/v1/jobs', async (request) => {
    const tenant = await authenticateTenant(request, deps.tenantByKey);
    const q = parseWith(jobListQuerySchema, request.query);
    const page = await listTenantJobs(deps, tenant.id, q);
    return { jobs: page.items, ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}) };
  });
}
