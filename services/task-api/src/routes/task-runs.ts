import { backfillSchema } from '@dsched/domain';
import type { FastifyInstance } from 'fastify';
import { backfill, triggerNow } from '../core/task-runs.ts';
import type { RateLimiter, TaskRuns, TenantDirectory } from '../ports.ts';
import { parseBody, parseId } from './parse.ts';
import { tenantGuard } from './tenant-guard.ts';

// POST /v1/tasks/{id}/trigger and /backfill: runs asked for explicitly, as jobs with keys of their own.
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
      parseId(request.params),
      key === undefined ? undefined : String(key),
    );
    return reply.status(202).send(result);
  });

  app.post('/v1/tasks/:id/backfill', async (request, reply) => {
    const tenant = await tenantOf(request);
    const id = parseId(request.params);
    const body = parseBody(backfillSchema, request.body);
    return reply.status(202).send(await backfill(deps.runs, tenant, id, body));
  });
}
