import type { RowDataPacket } from '@dsched/mysql/pool';
import type { TestDatabase } from '@dsched/testkit/mysql';
import { requestBodyObjects } from '@dsched/testkit/openapi';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cronBody, tenantClient } from './helpers.ts';
import { buildTestApp, TEST_ADMIN_TOKEN } from './test-app.ts';

// Every body and query of task-api refuses unknown fields with a 400 naming each of them, and
// changes nothing: a typo must not run with defaults the tenant never asked for.

let db: TestDatabase;
let app: FastifyInstance;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ db, app, close } = await buildTestApp(import.meta.url));
});
afterAll(async () => {
  await close();
});

type ErrorBody = { error: { code: string; details: { field: string; issue: string }[] } };
const unknown = (field: string) => ({ field, issue: 'unknown field' });

function expectRefused(res: { statusCode: number; json: () => unknown }, ...fields: string[]) {
  expect(res.statusCode).toBe(400);
  const body = res.json() as ErrorBody;
  expect(body.error.code).toBe('invalid_argument');
  expect(body.error.details).toEqual(expect.arrayContaining(fields.map(unknown)));
}

async function countTasks(tenantId: string): Promise<number> {
  const [rows] = await db.pool.query<RowDataPacket[]>(
    'SELECT COUNT(*) AS n FROM tasks WHERE tenant_id = UNHEX(REPLACE(?, "-", ""))',
    [tenantId],
  );
  return Number(rows[0]!.n);
}

describe('unknown fields', () => {
  it('a task with "retyr" or target.timeoutMS is refused, naming each field, and not created', async () => {
    const a = await tenantClient(app);
    const res = await a.call(
      'POST',
      '/v1/tasks',
      cronBody('0 9 * * *', {
        retyr: { maxAttempts: 1 },
        target: { url: 'https://example.test/hook', timeoutMS: 5000 },
      }),
    );
    expectRefused(res, 'retyr', 'target.timeoutMS');
    expect((res.json() as ErrorBody).error.details).toHaveLength(2);
    expect(await countTasks(a.id)).toBe(0);
    const once = await a.call('POST', '/v1/tasks', {
      ...cronBody('x'),
      schedule: { type: 'once', at: '2030-01-01T00:00:00Z', expression: '0 9 * * *' },
    });
    expectRefused(once, 'schedule.expression');
    expect(await countTasks(a.id)).toBe(0);
    // the same body without the typos is created, free-form headers, body and metadata included
    const ok = await a.call(
      'POST',
      '/v1/tasks',
      cronBody('0 9 * * *', {
        retry: { maxAttempts: 1 },
        target: { url: 'https://example.test/hook', headers: { 'x-a': '1' }, body: { any: { thing: 1 } } },
        metadata: { team: { name: 'x' } },
      }),
    );
    expect(ok.statusCode).toBe(201);
    expect(await countTasks(a.id)).toBe(1);
  });

  it('PATCH, backfill, the list and the audit refuse unknown fields and leave the task as it was', async () => {
    const a = await tenantClient(app);
    const task = (await a.call('POST', '/v1/tasks', cronBody('0 9 * * *'))).json() as { id: string };
    expectRefused(
      await a.call('PATCH', `/v1/tasks/${task.id}`, {
        name: 'renamed',
        retry: { rules: [{ status: 409, action: 'retry', actoin: 'dead' }] },
      }),
      'retry.rules.0.actoin',
    );
    expectRefused(await a.call('PATCH', `/v1/tasks/${task.id}`, { state: 'paused' }), 'state');
    const from = '2030-01-01T00:00:00Z';
    const to = '2030-01-02T00:00:00Z';
    expectRefused(
      await a.call('POST', `/v1/tasks/${task.id}/backfill`, { from, to, dryRun: true }),
      'dryRun',
    );
    expectRefused(await a.call('GET', '/v1/tasks?limt=5'), 'limt');
    expectRefused(await a.call('GET', `/v1/tasks/${task.id}/audit?from=${from}&to=${to}&detail=1`), 'detail');
    const now = (await a.call('GET', `/v1/tasks/${task.id}`)).json() as { name: string; version: number };
    expect(now).toMatchObject({ name: 'cron 0 9 * * *', version: 1 });
    const [jobs] = await db.pool.query<RowDataPacket[]>('SELECT COUNT(*) AS n FROM jobs WHERE kind = ?', [
      'backfill',
    ]);
    expect(Number(jobs[0]!.n)).toBe(0);
  });

  it('a route that declares no body or no query refuses one with fields', async () => {
    const a = await tenantClient(app);
    const task = (await a.call('POST', '/v1/tasks', cronBody('0 9 * * *'))).json() as { id: string };
    expectRefused(await a.call('POST', `/v1/tasks/${task.id}/pause`, { force: true }), 'force');
    expectRefused(await a.call('GET', `/v1/tasks/${task.id}?expand=jobs`), 'expand');
    expectRefused(await a.call('POST', `/v1/tasks/${task.id}/trigger?at=now`), 'at');
    const still = (await a.call('GET', `/v1/tasks/${task.id}`)).json() as { state: string };
    expect(still.state).toBe('active');
    expect((await a.call('POST', `/v1/tasks/${task.id}/pause`, {})).statusCode).toBe(200);
    expect((await a.call('POST', `/v1/tasks/${task.id}/resume`)).statusCode).toBe(200);
  });

  it('the admin routes refuse unknown fields too', async () => {
    const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
    const res = await app.inject({
      method: 'POST',
      url: '/v1/admin/tenants',
      headers: admin,
      payload: { name: 'typo', maxConcurency: 3 },
    });
    expectRefused(res, 'maxConcurency');
    const [rows] = await db.pool.query<RowDataPacket[]>('SELECT COUNT(*) AS n FROM tenants WHERE name = ?', [
      'typo',
    ]);
    expect(Number(rows[0]!.n)).toBe(0);
    const a = await tenantClient(app);
    expectRefused(
      await app.inject({
        method: 'PATCH',
        url: `/v1/admin/tenants/${a.id}`,
        headers: admin,
        payload: { maxTask: 3 },
      }),
      'maxTask',
    );
  });

  it('the OpenAPI document says additionalProperties: false on every object of every request body', async () => {
    const objects = requestBodyObjects((await app.inject({ method: 'GET', url: '/openapi.json' })).json());
    expect(objects.length).toBeGreaterThanOrEqual(8);
    expect(objects.filter((o) => !o.closed)).toEqual([]);
  });
});
