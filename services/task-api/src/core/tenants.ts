import {
  MAX_TENANT_CONCURRENCY,
  type NewTenant,
  newApiKey,
  newId,
  newSigningSecret,
  notFound,
  type Tenant,
} from '@dsched/domain';
import { z } from 'zod';
import type { DatabaseClock, TenantDirectory } from '../ports.ts';

const quota = z.number().int().min(1).max(1_000_000_000).nullable().optional();

export const createTenantSchema = z.object({
  name: z.string().min(1).max(200),
  maxConcurrency: z.number().int().min(1).max(MAX_TENANT_CONCURRENCY).nullable().optional(),
  maxTasks: quota,
  rateLimitPerSecond: quota,
});

export const patchTenantSchema = createTenantSchema.partial();

export function tenantView(t: Tenant) {
  return {
    id: t.id,
    name: t.name,
    maxConcurrency: t.maxConcurrency,
    maxTasks: t.maxTasks,
    rateLimitPerSecond: t.rateLimitPerSecond,
    createdAt: t.createdAt.toISOString(),
  };
}

/** Creates a tenant; the API key and signing secret are returned here and never again. */
export async function createTenant(
  deps: { tenants: TenantDirectory; now: DatabaseClock },
  req: z.infer<typeof createTenantSchema>,
) {
  const key = newApiKey();
  const tenant: NewTenant = {
    id: newId(),
    name: req.name,
    signingSecret: newSigningSecret(),
    maxTasks: req.maxTasks ?? null,
    maxConcurrency: req.maxConcurrency ?? null,
    rateLimitPerSecond: req.rateLimitPerSecond ?? null,
    createdAt: await deps.now(),
  };
  await deps.tenants.create(tenant, { hash: key.hash, prefix: key.prefix });
  return { ...tenantView(tenant), apiKey: key.key, signingSecret: tenant.signingSecret };
}

export async function rotateTenantKey(deps: { tenants: TenantDirectory }, id: string) {
  const key = newApiKey();
  if (!(await deps.tenants.rotateKey(id, { hash: key.hash, prefix: key.prefix }))) throw notFound('tenant');
  return { id, apiKey: key.key };
}
