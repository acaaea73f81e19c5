import {
  bulkRedriveSchema,
  dlqQuerySchema,
  idParamsSchema,
  jobViewSchema,
  pageSchema,
  redriveResultSchema,
} from '@dsched/domain';
import { authenticateTenant, defineRoute, parseWith, pathId, STANDARD_ERRORS } from '@dsched/runtime';
import type { FastifyInstance } from 'fastify';
import { type ListDeps, listDlq } from '../core/lists.ts';
import { redriveMany, redriveOne } from '../core/redrive.ts';
import type { DeadLetterQueue, JobLookup, TenantByKeyHash } from '../ports.ts';

export const dlqListRoute = defineRoute({
  method: 'get',
  path: '/v1/dlq',
  summary: 'The dead-letter queue: the tenant’s dead jobs, newest first, paged',
  tags: ['dlq'],
  auth: 'tenant',
  query: dlqQuerySchema,
  responses: {
    200: { description: 'a page of dead jobs', schema: pageSchema('jobs', jobViewSchema) },
    400: STANDARD_ERRORS[400],
    401: STANDARD_ERRORS[401],
  },
});

export const redriveOneRoute = defineRoute({
  method: 'post',
  path: '/v1/jobs/{id}/retry',
  summary: 'Redrive one dead job: a new attempt group, the same id and Idempotency-Key',
  tags: ['dlq'],
  auth: 'tenant',
  params: idParamsSchema,
  responses: {
    200: { description: 'the job, pending again', schema: jobViewSchema },
    401: STANDARD_ERRORS[401],
    404: STANDARD_ERRORS[404],
    409: { description: 'conflict: the job is not in the dead-letter queue' },
  },
});

export const redriveBulkRoute = defineRoute({
  method: 'post',
  path: '/v1/dlq/retry',
  summary: 'Redrive dead jobs in bulk, by ids, by task, or both (ids of that task)',
  tags: ['dlq'],
  auth: 'tenant',
  body: bulkRedriveSchema,
  responses: {
    200: {
      description: 'the jobs redriven (ids not dead or not the tenant’s are left alone)',
      schema: redriveResultSchema,
    },
    400: STANDARD_ERRORS[400],
    401: STANDARD_ERRORS[401],
  },
});

export const dlqRoutes = [dlqListRoute, redriveOneRoute, redriveBulkRoute];

export function registerDlqRoutes(
  app: FastifyInstance,
  deps: ListDeps & { dlq: DeadLetterQueue; jobs: JobLookup; tenantByKey: TenantByKeyHash },
): void {
  app.get('/v1/dlq', async (request) => {
    const tenant = await authenticateTenant(request, deps.tenantByKey);
    const page = await listDlq(deps, tenant.id, parseWith(dlqQuerySchema, request.query));
    return { jobs: page.items, ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}) };
  });

  app.post('/v1/jobs/:id/retry', async (request) => {
    const tenant = await authenticateTenant(request, deps.tenantByKey);
    return redriveOne(deps, tenant.id, pathId(request.params, 'job'));
  });

  app.post('/v1/dlq/retry', async (request) => {
    const tenant = await authenticateTenant(request, deps.tenantByKey);
    return redriveMany(deps, tenant.id, parseWith(bulkRedriveSchema, request.body));
  });
}
