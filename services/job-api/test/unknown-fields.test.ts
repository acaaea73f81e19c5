import { idToBin } from '@dsched/mysql/ids';
import type { RowDataPacket } from '@dsched/mysql/pool';
import { createTask, createTenantWithKey, cronTask, insertJobs } from '@dsched/testkit/fixtures';
import { requestBodyObjects } from '@dsched/testkit/openapi';
import { useTestStores } from '@dsched/testkit/test-stores';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './test-app.ts';

// Every body and query of job-api refuses unknown fields with a 400 naming each of them, and
// changes nothing.

const { db, ks } = useTestStores(import.meta.url);
let app: FastifyInstance;
let tenant: Awaited<ReturnType<typeof createTenantWithKey>>;

beforeAll(async () => {
  app = buildTestApp(db, ks);
  tenant = await createTenantWithKey(db.pool, 'acme');
});
afterAll(async () => {
  await app?.close();
});

const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
  app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${tenant.apiKey}` },
    ...(payload ? { payload } : {}),
  });

type ErrorBody = { error: { code: string; details: { field: string; issue: string }[] } };

function expectRefused(res: { statusCode: number; json: () => unknown }, ...fields: string[]) {
  expect(res.statusCode).toBe(400);
  const body = res.json() as ErrorBody;
  expect(body.error.code).toBe('invalid_argument');
  expect(body.error.details).toEqual(fields.map((field) => ({ field, issue: 'unknown field' })));
}

async function stateOf(id: string): Promise<string> {
  const [rows] = await db.pool.query<RowDataPacket[]>('SELECT state FROM jobs WHERE id = ?', [idToBin(id)]);
  return String(rows[0]!.state);
}

describe('unknown fields', () => {
  it('the write routes refuse them by name and leave the job as it was', async () => {
    const task = await createTask(db.pool, cronTask(tenant.id));
    const [dead, running] = await insertJobs(db.pool, [
      { tenantId: tenant.id, taskId: task.id, scheduledFor: new Date(Date.UTC(2026, 0, 1)), state: 'dead' },
      {
        tenantId: tenant.id,
        taskId: task.id,
        scheduledFor: new Date(Date.UTC(2026, 0, 2)),
        state: 'running',
      },
    ]);
    expectRefused(await call('POST', '/v1/dlq/retry', { jobIds: [dead], taskid: task.id }), 'taskid');
    expectRefused(await call('POST', `/v1/jobs/${dead}/retry`, { force: true }), 'force');
    expect(await stateOf(dead!)).toBe('dead');
    expectRefused(
      await call('POST', `/v1/jobs/${running}/complete`, { attempt: 1, outcome: 'succeeded', outptu: {} }),
      'outptu',
    );
    expectRefused(
      await call('POST', `/v1/jobs/${running}/heartbeat`, { attempt: 1, progres: {} }),
      'progres',
    );
    expectRefused(
      await call('POST', `/v1/jobs/${running}/cancel`, { reason: 'x', now: true }),
      'reason',
      'now',
    );
    expect(await stateOf(running!)).toBe('running');
    // free-form documents stay free-form
    const beat = await call('POST', `/v1/jobs/${running}/heartbeat`, {
      attempt: 1,
      progress: { any: { k: 1 } },
    });
    expect(beat.statusCode).toBe(200);
  });

  it('the list queries refuse them by name, and so does a route that declares no query', async () => {
    const [job] = await insertJobs(db.pool, [
      { tenantId: tenant.id, taskId: null, scheduledFor: new Date(Date.UTC(2026, 0, 3)), state: 'dead' },
    ]);
    expectRefused(await call('GET', '/v1/jobs?stat=dead'), 'stat');
    expectRefused(await call('GET', '/v1/dlq?limit=5&sort=asc'), 'sort');
    expectRefused(await call('GET', `/v1/tasks/${job}/runs?form=2026-01-01T00:00:00Z`), 'form');
    expectRefused(await call('GET', `/v1/jobs/${job}?include=attempts`), 'include');
    expect((await call('GET', '/v1/dlq?limit=5')).statusCode).toBe(200);
    expect((await call('GET', `/v1/jobs/${job}`)).statusCode).toBe(200);
  });

  it('the OpenAPI document says additionalProperties: false on every object of every request body', async () => {
    const objects = requestBodyObjects((await app.inject({ method: 'GET', url: '/openapi.json' })).json());
    expect(objects.length).toBeGreaterThanOrEqual(4);
    expect(objects.filter((o) => !o.closed)).toEqual([]);
  });
});
