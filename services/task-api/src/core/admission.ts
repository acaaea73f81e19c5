import { DschedError, type Tenant } from '@dsched/domain';
import type { RateLimiter } from '../ports.ts';

/**
 * Admits one request of a tenant under its rateLimitPerSecond, a limit shared by every API
 * replica (the bucket lives in MySQL). Over the limit: 429 resource_exhausted with Retry-After.
 */
export async function admitRequest(limiter: RateLimiter, tenant: Tenant): Promise<void> {
  const rate = tenant.rateLimitPerSecond;
  if (rate === null) return;
  if (await limiter(tenant.id, rate)) return;
  // The bucket refills `rate` tokens a second and never goes below zero, so one second is enough.
  throw new DschedError('resource_exhausted', `rate limit of ${rate} requests per second exceeded`, {
    details: [{ field: 'rateLimitPerSecond', issue: `at most ${rate} requests per second` }],
    retryAfterS: 1,
  });
}
