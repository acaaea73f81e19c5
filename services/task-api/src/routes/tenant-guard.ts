import type { Tenant } from '@dsched/domain';
import { authenticateTenant } from '@dsched/runtime';
import type { FastifyRequest } from 'fastify';
import { admitRequest } from '../core/admission.ts';
import type { RateLimiter, TenantDirectory } from '../ports.ts';

/**
 * Every tenant route starts here: authenticate the API key, then admit the request under the
 * tenant's rateLimitPerSecond (429 with Retry-After when over it).
 */
export function tenantGuard(deps: {
  tenants: TenantDirectory;
  rateLimit: RateLimiter;
}): (request: FastifyRequest) => Promise<Tenant> {
  const lookup = (hash: Buffer) => deps.tenants.findByKeyHash(hash);
  return async (request) => {
    const tenant = await authenticateTenant(request, lookup);
    await admitRequest(deps.rateLimit, tenant);
    return tenant;
  };
}
