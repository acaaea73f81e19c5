import { DschedError, hashApiKey, secretsEqual, type Tenant } from '@dsched/domain';
import type { FastifyRequest } from 'fastify';

// Bearer authentication for the two kinds of caller of docs/api.md: tenants (API key) and operators
// (the admin token). Handlers call these at their start; a missing or wrong credential is 401.

export type TenantLookup = (keyHash: Buffer) => Promise<Tenant | null>;

function bearer(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match ? match[1]! : null;
}

export async function authenticateTenant(request: FastifyRequest, lookup: TenantLookup): Promise<Tenant> {
  const key = bearer(request);
  if (!key) throw new DschedError('unauthenticated', 'missing Authorization: Bearer <api key>');
  const tenant = await lookup(hashApiKey(key));
  if (!tenant) throw new DschedError('unauthenticated', 'unknown or expired API key');
  return tenant;
}

export function authenticateAdmin(request: FastifyRequest, adminToken: string): void {
  const token = bearer(request);
  if (!token) throw new DschedError('unauthenticated', 'missing Authorization: Bearer <admin token>');
  if (!secretsEqual(token, adminToken)) throw new DschedError('permission_denied', 'not an operator token');
}
