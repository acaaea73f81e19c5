import { auditQuerySchema, auditResultSchema, idParamsSchema } from '@dsched/domain';
import { defineRoute, parseWith, pathId, STANDARD_ERRORS } from '@dsched/runtime';
import type { FastifyInstance } from 'fastify';
import { type AuditSources, auditTask } from '../core/audit.ts';
import type { RateLimiter, TenantDirectory } from '../ports.ts';
import { tenantGuard } from './tenant-guard.ts';

export const auditRoute = defineRoute({
  method: 'get',
  path: '/v1/tasks/{id}/audit',
  summary: 'Every occurrence the schedule implies in [from, to) and what became of it',
  description:
    'Statuses: succeeded, dead, cancelled, running, pending, skipped (by policy) or missing. ' +
    'A missing occurrence is a bug and is counted by dsched_audit_missing_total.',
  tags: ['tasks'],
  auth: 'tenant',
  params: idParamsSchema,
  query: auditQuerySchema,
  responses: { 200: { description: 'the audit', schema: auditResultSchema }, ...STANDARD_ERRORS },
});

export function registerAuditRoutes(
  app: FastifyInstance,
  deps: { audit: AuditSources; tenants: TenantDirectory; rateLimit: RateLimiter },
): void {
  // Like every tenant route: the API key, then the tenant's rate limit.
  const tenantOf = tenantGuard(deps);
  app.get('/v1/tasks/:id/audit', async (request) => {
    const tenant = await tenantOf(request);
    const taskId = pathId(request.params, 'task');
    return auditTask(deps.audit, tenant.id, taskId, parseWith(auditQuerySchema, request.query));
  });
}
