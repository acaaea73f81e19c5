import { writeJobHistory } from '@dsched/cassandra/job-history';
import { allPartitions, DEFAULT_PARTITIONS } from '@dsched/domain';
import { loadJobRecords } from '@dsched/mysql/jobs';
import { deleteArchivedJobs } from '@dsched/mysql/jobs/archive';
import { recordOccurrenceSkips } from '@dsched/mysql/tasks';
import type { TestKeyspace } from '@dsched/testkit/cassandra';
import { createTask, createTenantWithKey, cronTask, insertJobs } from '@dsched/testkit/fixtures';
import type { TestDatabase } from '@dsched/testkit/mysql';
import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './test-app.ts';

let db: TestDatabase;
let ks: TestKeyspace;
let app: FastifyInstance;
let registry: Registry;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ db, ks, app, registry, close } = await buildTestApp(import.meta.url, { historyRetentionDays: 30 }));
});
afterAll(async () => {
  await close();
});

const HOUR = 3_600_000;
// Whole hours, so the hourly schedule's fire times are exact.
const base = Math.floor(Date.now() / HOUR) * HOUR - 10 * HOUR;
const h = (i: number) => new Date(base + i * HOUR);

async function missingCount(): Promise<number> {
  const m = await registry.getSingleMetric('dsched_audit_missing_total')!.get();
  return m.values[0]?.value ?? 0;
}

describe('GET /v1/tasks/{id}/audit', () => {
  it('accounts for every occurrence: live, archived, skipped, not yet reached and missing', async () => {
    const tenant = await createTenantWithKey(db.pool);
    const task = await createTask(
      db.pool,
      cronTask(tenant.id, {
        schedule: {
          type: 'cron',
          expression: '0 * * * *',
          timezone: 'UTC',
          dst: { repeated: 'first', skipped: 'shift' },
        },
        createdAt: h(0),
        nextFireAt: h(9),
      }),
    );
    const ids = await insertJobs(db.pool, [
      { tenantId: tenant.id, taskId: task.id, scheduledFor: h(1), state: 'succeeded' },
      { tenantId: tenant.id, taskId: task.id, scheduledFor: h(2), state: 'dead' },
      { tenantId: tenant.id, taskId: task.id, scheduledFor: h(3), state: 'cancelled' },
      { tenantId: tenant.id, taskId: task.id, scheduledFor: h(5), state: 'running' },
      { tenantId: tenant.id, taskId: task.id, scheduledFor: h(6), state: 'pending' },
      { tenantId: tenant.id, taskId: task.id, scheduledFor: h(7), state: 'succeeded', kind: 'trigger' },
    ]);
    // h(1) and h(2) are in history only.
    const records = await loadJobRecords(db.pool, ids.slice(0, 2));
    await writeJobHistory(ks.client, records, { ttlSeconds: 3600, concurrency: 8 });
    await deleteArchivedJobs(
      db.pool,
      records.map((r) => ({ id: r.view.id, attempt: r.view.attempt })),
      allPartitions(DEFAULT_PARTITIONS),
    );
    await recordOccurrenceSkips(db.pool, [
      { taskId: task.id, partition: 0, from: h(4), to: h(4), reason: 'overlap' },
    ]);
    const before = await missingCount();

    const res = await app.inject({
      method: 'GET',
      url: `/v1/tasks/${task.id}/audit?from=${h(0).toISOString()}&to=${h(10).toISOString()}`,
      headers: { authorization: `Bearer ${tenant.apiKey}` },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json() as {
      occurrences: { scheduledFor: string; status: string; jobId?: string }[];
      counts: Record<string, number>;
    };
    expect(body.occurrences.map((o) => [new Date(o.scheduledFor).getTime(), o.status])).toEqual([
      [h(0).getTime(), 'missing'],
      [h(1).getTime(), 'succeeded'],
      [h(2).getTime(), 'dead'],
      [h(3).getTime(), 'cancelled'],
      [h(4).getTime(), 'skipped'],
      [h(5).getTime(), 'running'],
      [h(6).getTime(), 'pending'],
      [h(7).getTime(), 'missing'], // a trigger-now run is not the schedule's occurrence
      [h(8).getTime(), 'missing'],
      [h(9).getTime(), 'pending'], // the scheduler has not reached it
    ]);
    expect(body.occurrences[1]!.jobId).toBe(ids[0]);
    expect(body.counts).toMatchObject({ missing: 3, skipped: 1, pending: 2, succeeded: 1 });
    expect((await missingCount()) - before).toBe(3);
  });

  it.each([
    ['from=2026-11-20T10:00:00Z&to=2026-11-20T09:00:00Z', 'from'],
    ['to=2026-11-20T09:00:00Z', 'from'],
    ['from=nope&to=2026-11-20T09:00:00Z', 'from'],
  ])('answers 400 for %s naming %s', async (query, field) => {
    const tenant = await createTenantWithKey(db.pool);
    const task = await createTask(db.pool, cronTask(tenant.id));
    const res = await app.inject({
      method: 'GET',
      url: `/v1/tasks/${task.id}/audit?${query}`,
      headers: { authorization: `Bearer ${tenant.apiKey}` },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it('refuses ranges older than history keeps (from) or holding too many occurrences (to)', async () => {
    const tenant = await createTenantWithKey(db.pool);
    const task = await createTask(
      db.pool,
      cronTask(tenant.id, { createdAt: new Date(Date.now() - 40 * 86_400_000) }),
    );
    const ask = (from: Date, to: Date) =>
      app.inject({
        method: 'GET',
        url: `/v1/tasks/${task.id}/audit?from=${from.toISOString()}&to=${to.toISOString()}`,
        headers: { authorization: `Bearer ${tenant.apiKey}` },
      });
    const old = await ask(new Date(Date.now() - 35 * 86_400_000), new Date(Date.now() - 34 * 86_400_000));
    expect(old.json().error.details[0].field).toBe('from');
    const many = await ask(new Date(Date.now() - 10 * 86_400_000), new Date()); // every minute: 14,400
    expect(many.json().error.details[0].field).toBe('to');
  });

  it('answers 404 for another tenant’s task', async () => {
    const owner = await createTenantWithKey(db.pool);
    const other = await createTenantWithKey(db.pool);
    const task = await createTask(db.pool, cronTask(owner.id));
    const res = await app.inject({
      method: 'GET',
      url: `/v1/tasks/${task.id}/audit?from=${h(0).toISOString()}&to=${h(1).toISOString()}`,
      headers: { authorization: `Bearer ${other.apiKey}` },
    });
    expect(res.statusCode).toBe(404);
  });
});

describe('OpenAPI', () => {
  it('documents the task-api routes from their zod schemas and serves /docs', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/v1/tasks', '/v1/tasks/{id}', '/v1/tasks/{id}/audit', '/v1/admin/tenants']),
    );
    const body = doc.paths['/v1/tasks'].post.requestBody.content['application/json'].schema;
    // A task has a target or (a scheduled workflow) a workflow: neither is required alone.
    expect(body.required).toEqual(expect.arrayContaining(['name', 'schedule']));
    expect(Object.keys(body.properties)).toEqual(expect.arrayContaining(['target', 'workflow']));
    expect(body.properties.priority.enum).toEqual(['critical', 'high', 'normal', 'low']);
    expect(doc.paths['/v1/admin/tenants'].post.security).toEqual([{ adminToken: [] }]);
    expect((await app.inject({ method: 'GET', url: '/docs/' })).statusCode).toBe(200);
  });
});

describe('an interval task', () => {
  it('is audited and backfilled on its grid, as a cron task is', async () => {
    const tenant = await createTenantWithKey(db.pool);
    const every = 90 * 60_000;
    const offset = 15 * 60_000;
    // The grid by arithmetic: epoch + 15 min + k × 90 min, from the first point after h(0).
    const first = Math.ceil((h(0).getTime() - offset) / every) * every + offset;
    const grid = Array.from({ length: 10 }, (_, i) => new Date(first + i * every)).filter(
      (t) => t.getTime() < h(10).getTime(),
    );
    const task = await createTask(
      db.pool,
      cronTask(tenant.id, {
        schedule: { type: 'interval', every: '90m', offset: '15m' },
        createdAt: h(0),
        nextFireAt: new Date(first + 10 * every),
      }),
    );
    await insertJobs(db.pool, [
      { tenantId: tenant.id, taskId: task.id, scheduledFor: grid[0]!, state: 'succeeded' },
    ]);
    const audit = async () => {
      const res = await app.inject({
        method: 'GET',
        url: `/v1/tasks/${task.id}/audit?from=${h(0).toISOString()}&to=${h(10).toISOString()}`,
        headers: { authorization: `Bearer ${tenant.apiKey}` },
      });
      expect(res.statusCode).toBe(200);
      return (res.json() as { occurrences: { scheduledFor: string; status: string }[] }).occurrences;
    };
    expect((await audit()).map((o) => [o.scheduledFor, o.status])).toEqual(
      grid.map((t, i) => [t.toISOString(), i === 0 ? 'succeeded' : 'missing']),
    );
    const backfill = await app.inject({
      method: 'POST',
      url: `/v1/tasks/${task.id}/backfill`,
      headers: { authorization: `Bearer ${tenant.apiKey}` },
      payload: { from: grid[1]!.toISOString(), to: h(10).toISOString() },
    });
    expect(backfill.statusCode).toBe(202);
    expect(backfill.json()).toMatchObject({ count: grid.length - 1, created: grid.length - 1 });
    expect((await audit()).map((o) => o.status)).toEqual([
      'succeeded',
      ...grid.slice(1).map(() => 'pending'),
    ]);
  });
});
