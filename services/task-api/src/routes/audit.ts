import { auditQuerySchema, auditResultSchema, idParamsSchema } from '@dsched/domain';
import {
  authenticateTenant,
  defineRoute,
  parseWith,
  pathId,
  STANDARD_ERRORS,
  type TenantLookup,
} from '@dsched/runtime';
import type { FastifyInstance } from 'fastify';
import { type AuditSources, auditTask } from '../core/audit.ts';

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
  deps: { audit: AuditSources; tenants: { findByKeyHash: TenantLookup } },
): void {
  app.get('/v1/tasks/:id/audit', async (request) => {
    const tenant = await authenticateTenant(request, (hash) => deps.tenants.findByKeyHash(hash));
    const taskId = pathId(request.params, 'task');
    return auditTask(deps.audit, tenant.id, taskId, parseWith(auditQuerySchema, request.query));
  });
}
