import {
  type MisfirePolicy,
  newId,
  type OverlapPolicy,
  PRIORITY_RANK,
  type Priority,
  partitionOf,
} from '@dsched/domain';
import { idToBin } from '@dsched/mysql/ids';
import type { Pool } from '@dsched/mysql/pool';

// Tasks written straight into MySQL, in bulk (thousands of rows per statement), for
// tests and benchmarks that need many tasks without going through task-api one by one.

export interface CronTaskShape {
  expression: string;
  timezone?: string;
  nextFireAt: Date;
  priority?: Priority;
  misfirePolicy?: MisfirePolicy;
  overlapPolicy?: OverlapPolicy;
  url?: string;
}

const RETRY = JSON.stringify({ maxAttempts: 5, initialBackoffMs: 200, maxBackoffMs: 5000, rules: [] });

/** Inserts `count` active cron tasks of a tenant, `chunk` rows per statement; returns their ids. */
export async function insertCronTasks(
  pool: Pool,
  tenantId: string,
  count: number,
  shape: (i: number) => CronTaskShape,
  options: { partitions?: number; chunk?: number } = {},
): Promise<string[]> {
  const partitions = options.partitions ?? 64;
  const chunk = options.chunk ?? 5000;
  const tenant = idToBin(tenantId);
  const ids: string[] = [];
  const now = new Date();
  for (let start = 0; start < count; start += chunk) {
    const rows: unknown[][] = [];
    for (let i = start; i < Math.min(count, start + chunk); i++) {
      const id = newId();
      const s = shape(i);
      ids.push(id);
      rows.push([
        idToBin(id),
        tenant,
        `task-${i}`,
        JSON.stringify({
          type: 'cron',
          expression: s.expression,
          timezone: s.timezone ?? 'UTC',
          dst: { repeated: 'first', skipped: 'shift' },
        }),
        JSON.stringify({
          url: s.url ?? 'http://127.0.0.1:9/hook',
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: { task: i },
          timeoutMs: 30000,
        }),
        PRIORITY_RANK[s.priority ?? 'normal'],
        s.priority === 'critical' ? 'critical' : 'default',
        RETRY,
        s.misfirePolicy ?? 'fire_once',
        s.overlapPolicy ?? 'allow',
        'active',
        s.nextFireAt,
        partitionOf(id, partitions),
        now,
        now,
      ]);
    }
    await pool.query(
      `INSERT INTO tasks (id, tenant_id, name, schedule, target, priority, lane, retry, misfire_policy,
         overlap_policy, state, next_fire_at, \`partition\`, created_at, updated_at) VALUES ?`,
      [rows],
    );
  }
  await pool.query('UPDATE tenants SET task_count = task_count + ? WHERE id = ?', [count, tenant]);
  return ids;
}
