import {
  createOperationSchema,
  idParamsSchema,
  listOperationsQuerySchema,
  operationView,
  operationViewSchema,
} from '@dsched/domain';
import { defineRoute, parseWith, pathId, STANDARD_ERRORS } from '@dsched/runtime';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  cancelBulkOperation,
  listOperationPage,
  readOperation,
  startBulkOperation,
} from '../core/operations.ts';
import type { BulkOperations, RateLimiter, TenantDirectory } from '../ports.ts';
import { RATE_LIMITED } from './task-lifecycle.ts';
import { tenantGuard } from './tenant-guard.ts';

// POST /v1/operations, GET /v1/operations and /v1/operations/{id}, POST /v1/operations/{id}/cancel:
// bulk actions by filter, carried out by the reconciler in batches (docs/bulk-operations.md).

const tenantErrors = { 401: STANDARD_ERRORS[401], 404: STANDARD_ERRORS[404], 429: RATE_LIMITED };

export const operationRouteDocs = [
  defineRoute({
    method: 'post',
    path: '/v1/operations',
    summary: 'Start a bulk operation: cancel, pause, resume, redrive or retry what a filter matches',
    description:
      'The filter is required (at least one of taskId, tag, from, to): an operation never acts on ' +
      'everything. It is counted now (`matched`) and carried out by the reconciler in batches; ' +
      'follow it at GET /v1/operations/{id}. With `dryRun: true` it is only counted: nothing is ' +
      'changed or stored.',
    tags: ['operations'],
    auth: 'tenant',
    body: createOperationSchema,
    responses: {
      200: {
        description: 'a dry run: what the operation would touch now',
        schema: z.object({ dryRun: z.literal(true), matched: z.number().int() }),
      },
      202: { description: 'the operation, running', schema: operationViewSchema },
      400: STANDARD_ERRORS[400],
      401: STANDARD_ERRORS[401],
      429: RATE_LIMITED,
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/operations',
    summary: 'The tenant’s bulk operations, newest first, paged',
    tags: ['operations'],
    auth: 'tenant',
    query: listOperationsQuerySchema,
    responses: {
      200: {
        description: 'a page of operations; nextPageToken while more remain',
        schema: z.object({ operations: z.array(operationViewSchema), nextPageToken: z.string().optional() }),
      },
      400: STANDARD_ERRORS[400],
      401: STANDARD_ERRORS[401],
      429: RATE_LIMITED,
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/operations/{id}',
    summary: 'A bulk operation: its state and progress (matched, done, failed)',
    tags: ['operations'],
    auth: 'tenant',
    params: idParamsSchema,
    responses: { 200: { description: 'the operation', schema: operationViewSchema }, ...tenantErrors },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/operations/{id}/cancel',
    summary: 'Cancel a running bulk operation: it stops before its next batch',
    description: 'What its finished batches changed stays changed. A finished operation answers 409.',
    tags: ['operations'],
    auth: 'tenant',
    params: idParamsSchema,
    responses: {
      200: { description: 'the operation, cancelRequested set', schema: operationViewSchema },
      ...tenantErrors,
      409: { description: 'conflict: the operation already ended' },
    },
  }),
];

export function registerOperationRoutes(
  app: FastifyInstance,
  deps: { operations: BulkOperations; tenants: TenantDirectory; rateLimit: RateLimiter },
): void {
  const tenantOf = tenantGuard(deps);

  app.post('/v1/operations', async (request, reply) => {
    const tenant = await tenantOf(request);
    const body = parseWith(createOperationSchema, request.body);
    const { matched, operation } = await startBulkOperation(deps.operations, tenant, body);
    if (!operation) return reply.status(200).send({ dryRun: true, matched });
    request.log.info(
      { tenantId: tenant.id, operationId: operation.id, action: body.action, matched },
      'operation started',
    );
    return reply.status(202).send(operationView(operation));
  });

  app.get('/v1/operations', async (request) => {
    const tenant = await tenantOf(request);
    const query = parseWith(listOperationsQuerySchema, request.query);
    const page = await listOperationPage(deps.operations, tenant, query);
    return {
      operations: page.operations.map(operationView),
      ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}),
    };
  });

  app.get('/v1/operations/:id', async (request) => {
    const tenant = await tenantOf(request);
    return operationView(await readOperation(deps.operations, tenant, pathId(request.params, 'resource')));
  });

  app.post('/v1/operations/:id/cancel', async (request) => {
    const tenant = await tenantOf(request);
    const id = pathId(request.params, 'resource');
    return operationView(await cancelBulkOperation(deps.operations, tenant, id));
  });
}
