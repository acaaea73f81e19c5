import {
  DEFAULT_TENANT_WEIGHT,
  MAX_TENANT_CONCURRENCY,
  MAX_TENANT_WEIGHT,
  MIN_TENANT_WEIGHT,
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
  weight: z
    .number()
    .min(MIN_TENANT_WEIGHT)
    .max(MAX_TENANT_WEIGHT)
    .optional()
    .describe(
      'share of a saturated lane relative to other tenants (docs/fair-share.md), 0.001–1000, default 1; kept to 3 decimal places; applies to jobs tagged after the change',
    ),
});

export const patchTenantSchema = createTenantSchema.partial();

/** As tenants.weight (DECIMAL(7,3)) keeps it, so the answer shows what is stored. */
export function roundWeight(weight: number): number {
  return Math.round(weight * 1000) / 1000;
}

export function tenantView(t: Tenant) {
  return {
    id: t.id,
    name: t.name,
    maxConcurrency: t.maxConcurrency,
    maxTasks: t.maxTasks,
    rateLimitPerSecond: t.rateLimitPerSecond,
    weight: t.weight,
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
    weight: roundWeight(req.weight ?? DEFAULT_TENANT_WEIGHT),
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
