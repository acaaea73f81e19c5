// Tenants: their rows and API keys, their rate buckets, their sealed signing secrets.
export { takeRateToken } from './rate-limit.ts';
export { resealSigningSecrets } from './signing-secrets.ts';
export { findTenantByKeyHash, getTenant, insertTenant, rotateApiKey, updateTenant } from './tenant-store.ts';
