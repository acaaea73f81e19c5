import type { Tenant } from '@dsched/domain';
import { partitionOf } from '@dsched/domain';
import { databaseNow, type Pool } from '@dsched/mysql/pool';
import { getTask, insertTask } from '@dsched/mysql/tasks/task-store';
import {
  findTenantByKeyHash,
  getTenant,
  insertTenant,
  rotateApiKey,
  updateTenant,
} from '@dsched/mysql/tenants/tenant-store';
import type { DatabaseClock, TaskRepository, TenantDirectory } from '../ports.ts';

export function mysqlTenantDirectory(pool: Pool, options: { rotationGraceS: number }): TenantDirectory {
  return {
    create: (tenant, key) => insertTenant(pool, tenant, key),
    get: (id) => getTenant(pool, id),
    update: (id, patch) => updateTenant(pool, id, patch),
    rotateKey: (id, key) => rotateApiKey(pool, id, key, options.rotationGraceS),
    findByKeyHash: (hash): Promise<Tenant | null> => findTenantByKeyHash(pool, hash),
  };
}

export function mysqlTaskRepository(pool: Pool, options: { partitions: number }): TaskRepository {
  return {
    insert: (task) => insertTask(pool, task, partitionOf(task.id, options.partitions)),
    get: (tenantId, id) => getTask(pool, tenantId, id),
  };
}

export function mysqlClock(pool: Pool): DatabaseClock {
  return () => databaseNow(pool);
}
