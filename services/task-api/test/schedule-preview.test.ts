import type { RowDataPacket } from '@dsched/mysql/pool';
import type { TestDatabase } from '@dsched/testkit/mysql';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cronBody, tenantClient } from './helpers.ts';
import { buildTestApp } from './test-app.ts';

// GET /v1/tasks/{id}/occurrences and POST /v1/schedules/preview on a real database: the planner's
// fire times with the task's DST policy, marks included, documented in OpenAPI.

let db: TestDatabase;
let app: FastifyInstance;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ db, app, close } = await buildTestApp(import.meta.url));
});
afterAll(async () => {
  await close();
});

type Preview = {
  timezone: string;
  from: string;
  occurrences: { at: string; localTime: string; utcOffset: string; fires: boolean; dst?: string }[];
};

const berlin = (dst: Record<string, string> = {}) => ({
  type: 'cron',
  expression: '30 2 * * *',
  timezone: 'Europe/Berlin',
  dst,
});

describe('GET /v1/tasks/{id}/occurrences', () => {
  it('previews the task’s fire times with its DST policy, from a given instant', async () => {
    const t = await tenantClient(app);
    const task = (
      await t.call('POST', '/v1/tasks', cronBody('x', { schedule: berlin({ skipped: 'skip' }) }))
    ).json() as { id: string };
    const res = await t.call('GET', `/v1/tasks/${task.id}/occurrences?count=2&from=2026-03-28T00:00:00Z`);
    expect(res.statusCode).toBe(200);
    const body = res.json() as Preview;
    expect(body.timezone).toBe('Europe/Berlin');
    expect(body.from).toBe('2026-03-28T00:00:00.000Z');
    expect(body.occurrences.map((o) => [o.at, o.utcOffset, o.fires, o.dst ?? '-'])).toEqual([
      ['2026-03-28T01:30:00.000Z', '+01:00', true, '-'],
      ['2026-03-29T01:00:00.000Z', '+01:00', false, 'skipped'],
      ['2026-03-30T00:30:00.000Z', '+02:00', true, '-'],
    ]);
  });

  it('starts from the database clock by default and caps count', async () => {
    const t = await tenantClient(app);
    const task = (await t.call('POST', '/v1/tasks', cronBody('*/5 * * * *'))).json() as {
      id: string;
      nextFireAt: string;
    };
    const res = await t.call('GET', `/v1/tasks/${task.id}/occurrences`);
    const body = res.json() as Preview;
    expect(body.occurrences).toHaveLength(10);
    expect(body.occurrences[0]!.at).toBe(task.nextFireAt);
    const [[row]] = await db.pool.query<RowDataPacket[]>('SELECT NOW(3) AS now');
    expect(Math.abs(Date.parse(body.from) - (row!.now as Date).getTime())).toBeLessThan(60_000);
    const tooMany = await t.call('GET', `/v1/tasks/${task.id}/occurrences?count=1001`);
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error.details[0].field).toBe('count');
  });

  it('answers 404 for another tenant’s task, as for a missing one', async () => {
    const a = await tenantClient(app);
    const b = await tenantClient(app);
    const task = (await a.call('POST', '/v1/tasks', cronBody('0 9 * * *'))).json() as { id: string };
    const res = await b.call('GET', `/v1/tasks/${task.id}/occurrences`);
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('not_found');
  });
});

describe('POST /v1/schedules/preview', () => {
  it('previews a schedule not yet saved, and stores nothing', async () => {
    const t = await tenantClient(app);
    const res = await t.call('POST', '/v1/schedules/preview', {
      schedule: berlin({ repeated: 'last' }),
      count: 1,
      from: '2026-10-24T12:00:00Z',
    });
    expect(res.statusCode).toBe(200);
    const body = res.json() as Preview;
    expect(body.occurrences.map((o) => [o.at, o.localTime, o.fires, o.dst])).toEqual([
      ['2026-10-25T00:30:00.000Z', '2026-10-25T02:30:00', false, 'skipped'],
      ['2026-10-25T01:30:00.000Z', '2026-10-25T02:30:00', true, 'repeated'],
    ]);
    const [[row]] = await db.pool.query<RowDataPacket[]>(
      'SELECT COUNT(*) AS n FROM tasks WHERE tenant_id = UNHEX(REPLACE(?, "-", ""))',
      [t.id],
    );
    expect(Number(row!.n)).toBe(0);
  });

  it.each([
    [{ ...berlin(), timezone: 'Mars/Olympus' }, 'schedule.timezone'],
    [{ ...berlin(), expression: '0 0 30 2 *' }, 'schedule.expression'],
    [{ ...berlin(), dst: { repeated: 'twice' } }, 'schedule.dst.repeated'],
  ])('refuses a bad schedule naming the field (%#)', async (schedule, field) => {
    const t = await tenantClient(app);
    const res = await t.call('POST', '/v1/schedules/preview', { schedule });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it('needs a tenant key', async () => {
    const res = await app.inject({ method: 'POST', url: '/v1/schedules/preview', payload: {} });
    expect(res.statusCode).toBe(401);
  });
});

it('both routes are in the OpenAPI document with the Occurrence schema', async () => {
  const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
  expect(doc.paths['/v1/tasks/{id}/occurrences'].get.parameters.map((p: { name: string }) => p.name)).toEqual(
    ['id', 'count', 'from'],
  );
  expect(doc.paths['/v1/schedules/preview'].post.requestBody).toBeDefined();
  expect(doc.components.schemas.Occurrence.properties.dst.enum).toEqual(['shifted', 'repeated', 'skipped']);
});
