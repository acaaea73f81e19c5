import { jitteredRunAt } from '@dsched/domain';
import type { RowDataPacket } from '@dsched/mysql/pool';
import type { TestDatabase } from '@dsched/testkit/mysql';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cronBody, schedulerPass, tenantClient } from './helpers.ts';
import { buildTestApp } from './test-app.ts';

// Issue 19's task fields through task-api: interval schedules, jitterS, pauseAfterFailures and
// callbacks are stored and shown as given, and every bad value answers 400 naming its field with
// nothing stored or changed.

let db: TestDatabase;
let app: FastifyInstance;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ db, app, close } = await buildTestApp(import.meta.url));
});
afterAll(async () => {
  await close();
});

const intervalBody = (overrides: Record<string, unknown> = {}) => ({
  name: 'every 90 minutes',
  schedule: { type: 'interval', every: '90m', offset: '15m' },
  target: { url: 'https://example.test/hook' },
  ...overrides,
});

async function taskCount(tenantId: string): Promise<number> {
  const [rows] = await db.pool.query<RowDataPacket[]>(
    'SELECT COUNT(*) AS n FROM tasks WHERE tenant_id = UNHEX(REPLACE(?, "-", ""))',
    [tenantId],
  );
  return Number(rows[0]!.n);
}

const BAD: [string, Record<string, unknown>, string][] = [
  ['every: "0m"', { schedule: { type: 'interval', every: '0m' } }, 'schedule.every'],
  ['every: "90"', { schedule: { type: 'interval', every: '90' } }, 'schedule.every'],
  ['offset ≥ every', { schedule: { type: 'interval', every: '1h', offset: '1h' } }, 'schedule.offset'],
  [
    'startAt not a time',
    { schedule: { type: 'interval', every: '1h', startAt: 'monday' } },
    'schedule.startAt',
  ],
  ['jitterS: -1', { jitterS: -1 }, 'jitterS'],
  ['jitterS: 1.5', { jitterS: 1.5 }, 'jitterS'],
  ['callbacks.onSuccess ftp', { callbacks: { onSuccess: 'ftp://example.test/done' } }, 'callbacks.onSuccess'],
  ['callbacks.onDead not a URL', { callbacks: { onDead: 'dead letters please' } }, 'callbacks.onDead'],
  [
    'callbacks.onFailure unknown',
    { callbacks: { onFailure: 'https://example.test/' } },
    'callbacks.onFailure',
  ],
  ['pauseAfterFailures: 0', { pauseAfterFailures: 0 }, 'pauseAfterFailures'],
  [
    'pauseAfterFailures on a once task',
    { schedule: { type: 'once', at: '2030-01-01T00:00:00Z' }, pauseAfterFailures: 3 },
    'pauseAfterFailures',
  ],
];

describe('creating', () => {
  it('stores and shows an interval task with its jitter, callbacks and pause threshold', async () => {
    const t = await tenantClient(app);
    const schedule = { type: 'interval', every: '90m', offset: '15m', startAt: '2024-01-01T00:00:00.000Z' };
    const callbacks = { onSuccess: 'https://example.test/ok', onDead: 'https://example.test/dead' };
    const body = intervalBody({ schedule, jitterS: 30, pauseAfterFailures: 3, callbacks });
    const res = await t.call('POST', '/v1/tasks', body);
    expect(res.statusCode).toBe(201);
    const created = res.json();
    expect(created).toMatchObject({
      schedule,
      jitterS: 30,
      pauseAfterFailures: 3,
      callbacks,
      state: 'active',
    });
    // The next fire is on the grid: 00:15, 01:45, 03:15, ... counted from startAt.
    const next = Date.parse(created.nextFireAt);
    expect((next - Date.parse('2024-01-01T00:15:00Z')) % (90 * 60_000)).toBe(0);
    const again = await t.call('GET', `/v1/tasks/${created.id}`);
    expect(again.json()).toEqual(created);
  });

  it.each(BAD)('answers 400 for %s, naming %s, and stores nothing', async (_what, override, field) => {
    const t = await tenantClient(app);
    const res = await t.call('POST', '/v1/tasks', intervalBody(override));
    expect(res.statusCode).toBe(400);
    const err = res.json() as { error: { code: string; details: { field: string }[] } };
    expect(err.error.code).toBe('invalid_argument');
    expect(err.error.details.map((d) => d.field)).toContain(field);
    expect(await taskCount(t.id)).toBe(0);
  });
});

describe('editing', () => {
  it.each(BAD)(
    'answers 400 for %s in a PATCH, naming %s, and changes nothing',
    async (_what, override, field) => {
      const t = await tenantClient(app);
      const created = (await t.call('POST', '/v1/tasks', cronBody('0 9 * * *'))).json();
      const res = await t.call('PATCH', `/v1/tasks/${created.id}`, override);
      expect(res.statusCode).toBe(400);
      expect(
        (res.json() as { error: { details: { field: string }[] } }).error.details.map((d) => d.field),
      ).toContain(field);
      expect((await t.call('GET', `/v1/tasks/${created.id}`)).json()).toEqual(created);
    },
  );

  it('moves the materialised jobs when the window changes, and clears callbacks with null', async () => {
    const t = await tenantClient(app);
    const created = (
      await t.call(
        'POST',
        '/v1/tasks',
        intervalBody({
          schedule: { type: 'interval', every: '1s' },
          callbacks: { onDead: 'https://example.test/d' },
        }),
      )
    ).json();
    await schedulerPass(db.pool, 5_000);
    const patched = await t.call('PATCH', `/v1/tasks/${created.id}`, { jitterS: 600, callbacks: null });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().jitterS).toBe(600);
    expect(patched.json().callbacks).toBeUndefined();
    await schedulerPass(db.pool, 5_000);
    const [rows] = await db.pool.query<RowDataPacket[]>(
      `SELECT scheduled_for, run_at, callbacks FROM jobs
        WHERE task_id = UNHEX(REPLACE(?, '-', '')) AND state = 'pending' ORDER BY scheduled_for`,
      [created.id],
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect((r.run_at as Date).toISOString()).toBe(
        jitteredRunAt(created.id, r.scheduled_for, 600).toISOString(),
      );
      expect(r.callbacks).toBeNull();
    }
  });

  it('starts the failure streak again when pauseAfterFailures changes, and only then', async () => {
    const t = await tenantClient(app);
    const created = (await t.call('POST', '/v1/tasks', intervalBody({ pauseAfterFailures: 3 }))).json();
    const streak = async () => {
      const [rows] = await db.pool.query<RowDataPacket[]>(
        "SELECT failure_streak FROM tasks WHERE id = UNHEX(REPLACE(?, '-', ''))",
        [created.id],
      );
      return Number(rows[0]!.failure_streak);
    };
    await db.pool.query("UPDATE tasks SET failure_streak = 2 WHERE id = UNHEX(REPLACE(?, '-', ''))", [
      created.id,
    ]);
    expect((await t.call('PATCH', `/v1/tasks/${created.id}`, { name: 'renamed' })).statusCode).toBe(200);
    expect(await streak()).toBe(2);
    expect((await t.call('PATCH', `/v1/tasks/${created.id}`, { pauseAfterFailures: 5 })).statusCode).toBe(
      200,
    );
    expect(await streak()).toBe(0);
  });
});
