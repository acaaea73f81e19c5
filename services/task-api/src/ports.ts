import type { Task, Tenant } from '@dsched/domain';
import type { QuotaPatch } from '@dsched/mysql/tenants/tenant-store';

// What the core of task-api needs from the outside, named for its use.

export interface TenantDirectory {
  create(tenant: Tenant, key: { hash: Buffer; prefix: string }): Promise<void>;
  get(id: string): Promise<Tenant | null>;
  update(id: string, patch: QuotaPatch): Promise<boolean>;
  rotateKey(id: string, key: { hash: Buffer; prefix: string }): Promise<boolean>;
  findByKeyHash(hash: Buffer): Promise<Tenant | null>;
}

export interface TaskRepository {
  insert(task: Task): Promise<void>;
  get(tenantId: string, id: string): Promise<Task | null>;
}

/** The database clock (invariant 1). */
export type DatabaseClock = () => Promise<Date>;
