import { newApiKey, newId, newSigningSecret, type Task, type Tenant } from '@dsched/domain';
import type { Pool } from 'mysql2/promise';
import { idToBin } from '../src/ids.ts';
import { insertTask } from '../src/tasks/task-store.ts';
import { insertTenant } from '../src/tenants/tenant-store.ts';

export async function makeTenant(
  pool: Pool,
  overrides: Partial<Tenant> = {},
): Promise<Tenant & { apiKey: string }> {
  const key = newApiKey();
  const tenant: Tenant = {
    id: newId(),
    name: 'acme',
    signingSecret: newSigningSecret(),
    maxTasks: null,
    maxConcurrency: null,
    rateLimitPerSecond: null,
    createdAt: new Date(),
    ...overrides,
  };
  await insertTenant(pool, tenant, { hash: key.hash, prefix: key.prefix });
  return { ...tenant, apiKey: key.key };
}

export function onceTask(tenantId: string, at: Date, overrides: Partial<Task> = {}): Task {
  return {
    id: newId(),
    tenantId,
    name: 'once',
    schedule: { type: 'once', at },
    target: { url: 'http://127.0.0.1:9/', method: 'POST', headers: {}, timeoutMs: 5000 },
    priority: 'normal',
    lane: 'default',
    retry: { maxAttempts: 3, initialBackoffMs: 100, maxBackoffMs: 1000, rules: [] },
    misfirePolicy: 'fire_once',
    overlapPolicy: 'allow',
    metadata: null,
    state: 'active',
    nextFireAt: at,
    version: 1,
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

export async function addTask(pool: Pool, task: Task, partition = 0): Promise<Task> {
  await insertTask(pool, task, partition);
  return task;
}

/** Inserts `n` pending jobs due now for a tenant, straight into the queue. */
export async function insertPendingJobs(
  pool: Pool,
  tenantId: string,
  n: number,
  options: { lane?: string; priority?: number; runAt?: Date } = {},
): Promise<string[]> {
  const ids = Array.from({ length: n }, () => newId());
  const runAt = options.runAt ?? new Date(Date.now() - 1000);
  const rows = ids.map((id, i) => [
    idToBin(id),
    idToBin(tenantId),
    null,
    `test:${id}:${i}`,
    'trigger',
    runAt,
    options.priority ?? 2,
    options.lane ?? 'default',
    'pending',
    0,
    3,
    runAt,
    JSON.stringify({ url: 'http://127.0.0.1:9/', method: 'POST', headers: {}, timeoutMs: 5000 }),
    JSON.stringify({ maxAttempts: 3, initialBackoffMs: 100, maxBackoffMs: 1000, rules: [] }),
    new Date(),
    new Date(),
  ]);
  await pool.query(
    `INSERT INTO jobs (id, tenant_id, task_id, occurrence, kind, scheduled_for, priority, lane, state,
       attempt, max_attempts, run_at, target, retry, created_at, updated_at) VALUES ?`,
    [rows],
  );
  return ids;
}
