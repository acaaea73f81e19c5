import type { RowDataPacket } from '@dsched/mysql/pool';
import { type RunningService, startService } from '@dsched/testkit/services';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Tenant quotas hold across API replicas: two task-api processes share one MySQL and nothing else.

const ADMIN_TOKEN = 'quota-admin-token-0123456789';
const db = useTestDatabase(import.meta.url);
let replicas: RunningService[] = [];

beforeAll(async () => {
  const env = { DATABASE_URL: db.url, DSCHED_ADMIN_TOKEN: ADMIN_TOKEN };
  replicas = await Promise.all([startService('task-api', env), startService('task-api', env)]);
});
afterAll(async () => {
  await Promise.all(replicas.map((r) => r.stop()));
});

async function tenant(quotas: Record<string, number>): Promise<{ id: string; apiKey: string }> {
  const res = await fetch(`${replicas[0]!.url}/v1/admin/tenants`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'quota', ...quotas }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; apiKey: string };
}

const taskBody = JSON.stringify({
  name: 'q',
  schedule: { type: 'cron', expression: '0 9 * * *', timezone: 'UTC' },
  target: { url: 'https://example.test/' },
});

describe('quotas across two API replicas', () => {
  it('maxTasks: concurrent creates through both replicas never exceed the quota', async () => {
    const t = await tenant({ maxTasks: 10 });
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        fetch(`${replicas[i % 2]!.url}/v1/tasks`, {
          method: 'POST',
          headers: { authorization: `Bearer ${t.apiKey}`, 'content-type': 'application/json' },
          body: taskBody,
        }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30);
    expect(results.filter((r) => r.status === 429).every((r) => r.headers.get('retry-after') !== null)).toBe(
      true,
    );
    const [[row]] = await db.pool.query<RowDataPacket[]>(
      'SELECT COUNT(*) AS n, (SELECT task_count FROM tenants WHERE id = UNHEX(REPLACE(?, "-", ""))) AS counted FROM tasks WHERE tenant_id = UNHEX(REPLACE(?, "-", ""))',
      [t.id, t.id],
    );
    expect([Number(row!.n), Number(row!.counted)]).toEqual([10, 10]);
  });

  it('rateLimitPerSecond: one bucket for both replicas', async () => {
    const rate = 5;
    const t = await tenant({ rateLimitPerSecond: rate });
    const started = performance.now();
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        fetch(`${replicas[i % 2]!.url}/v1/tasks`, { headers: { authorization: `Bearer ${t.apiKey}` } }),
      ),
    );
    const elapsedS = (performance.now() - started) / 1000;
    const ok = results.filter((r) => r.status === 200).length;
    const limited = results.filter((r) => r.status === 429);
    // A full bucket, plus what it can refill while the burst lasts: an upper bound that a slow
    // machine only makes looser, never tighter.
    expect(ok).toBeGreaterThanOrEqual(1);
    expect(ok).toBeLessThanOrEqual(rate + Math.ceil(rate * elapsedS));
    expect(limited.length).toBeGreaterThan(0);
    expect(limited.every((r) => r.headers.get('retry-after') === '1')).toBe(true);
    const body = (await limited[0]!.json()) as { error: { code: string } };
    expect(body.error.code).toBe('resource_exhausted');
  });
});
