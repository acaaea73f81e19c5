import type { JobView, Tenant } from '@dsched/domain';

export interface JobLookup {
  /** A job of the tenant in MySQL (live or in the DLQ), or null. */
  live(tenantId: string, id: string): Promise<JobView | null>;
  /** A job of the tenant in history, or null. */
  archived(tenantId: string, id: string): Promise<JobView | null>;
}

export type TenantByKeyHash = (hash: Buffer) => Promise<Tenant | null>;
