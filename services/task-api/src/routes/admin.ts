import { notFound } from '@dsched/domain';
import { authenticateAdmin, parseWith, pathId } from '@dsched/runtime';
import type { FastifyInstance } from 'fastify';
import {
  createTenant,
  createTenantSchema,
  patchTenantSchema,
  rotateTenantKey,
  tenantView,
} from '../core/tenants.ts';
import type { DatabaseClock, TenantDirectory } from '../ports.ts';

export function registerAdminRoutes(
  app: FastifyInstance,
  deps: { tenants: TenantDirectory; now: DatabaseClock; adminToken: string },
): void {
  app.addHook('onRequest', async (request) => {
    if (request.url.startsWith('/v1/admin/')) authenticateAdmin(request, deps.adminToken);
  });

  app.post('/v1/admin/tenants', async (request, reply) => {
    const body = parseWith(createTenantSchema, request.body);
    return reply.status(201).send(await createTenant(deps, body));
  });

  app.get('/v1/admin/tenants/:id', async (request) => {
    const id = pathId(request.params, 'resource');
    const tenant = await deps.tenants.get(id);
    if (!tenant) throw notFound('tenant');
    return tenantView(tenant);
  });

  app.patch('/v1/admin/tenants/:id', async (request) => {
    const id = pathId(request.params, 'resource');
    const body = parseWith(patchTenantSchema, request.body);
    if (!(await deps.tenants.update(id, body))) throw notFound('tenant');
    const tenant = await deps.tenants.get(id);
    if (!tenant) throw notFound('tenant');
    return tenantView(tenant);
  });

  app.post('/v1/admin/tenants/:id/keys', async (request, reply) => {
    const id = pathId(request.params, 'resource');
    return reply.status(201).send(await rotateTenantKey(deps, id));
  });
}
