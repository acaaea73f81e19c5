import { idToBin } from '@dsched/mysql/ids';
import type { RowDataPacket } from '@dsched/mysql/pool';
import type { TestDatabase } from '@dsched/testkit/mysql';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cronBody, jobsOf, schedulerPass, tenantClient } from './helpers.ts';
import { buildTestApp } from './test-app.ts';

// POST /v1/tasks:apply against the test database: schedules as code, all or nothing.

let db: TestDatabase;
let app: FastifyInstance;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ db, app, close } = await buildTestApp(import.meta.url));
});
afterAll(async () => {
  await close();
});

const entry = (key: string, over: Record<string, unknown> = {}) => ({
  key,
  name: key,
  schedule: { type: 'cron', expression: '0 9 * * *', timezone: 'UTC' },
  target: { url: `https://example.test/${key}` },
  ...over,
});

const FILE = [
  entry('billing.nightly', {
    schedule: { type: 'text', text: 'every day at 2:00', timezone: 'Europe/Berlin' },
  }),
  entry('reports.weekly', {
    schedule: {
      type: 'cron',
      expression: '0 9 * * 1',
      timezone: 'Europe/Berlin',
      calendar: { holidays: 'DE-BE', onExcluded: 'next_business_day' },
    },
  }),
  entry('ping', { schedule: { type: 'interval', every: '90m' } }),
  entry('etl.nightly', {
    target: undefined,
    workflow: { name: 'etl', nodes: [{ id: 'extract', target: { url: 'https://example.test/extract' } }] },
  }),
];

/** Every column of the tenant's rows that a write would touch, to compare before and after. */
async function snapshot(tenantId: string): Promise<unknown[]> {
  const [rows] = await db.pool.query<RowDataPacket[]>(
    `SELECT HEX(id) AS id, task_key, name, schedule, target, workflow, state, version, next_fire_at, updated_at
       FROM tasks WHERE tenant_id = ? ORDER BY id`,
    [idToBin(tenantId)],
  );
  const [[tenant]] = await db.pool.query<RowDataPacket[]>('SELECT task_count FROM tenants WHERE id = ?', [
    idToBin(tenantId),
  ]);
  return [rows, tenant];
}

type Result = {
  dryRun: boolean;
  created: string[];
  updated: string[];
  deleted: string[];
  unchanged: string[];
  plan: { key: string; action: string; changes?: unknown[] }[];
};

describe('POST /v1/tasks:apply', () => {
  it('creates the keyed tasks, and applying the same file twice changes nothing', async () => {
    const a = await tenantClient(app);
    const first = await a.call('POST', '/v1/tasks:apply', { tasks: FILE });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json() as Result).toMatchObject({
      dryRun: false,
      created: ['billing.nightly', 'reports.weekly', 'ping', 'etl.nightly'],
      updated: [],
      deleted: [],
      unchanged: [],
    });
    const listed = (await a.call('GET', '/v1/tasks')).json() as {
      tasks: { key: string; schedule: { description: string } }[];
    };
    expect(listed.tasks.map((t) => t.key)).toEqual([
      'billing.nightly',
      'reports.weekly',
      'ping',
      'etl.nightly',
    ]);
    const byKey = (await a.call('GET', '/v1/tasks?key=reports.weekly')).json() as {
      tasks: { key: string }[];
    };
    expect(byKey.tasks.map((t) => t.key)).toEqual(['reports.weekly']);
    const before = await snapshot(a.id);
    const second = await a.call('POST', '/v1/tasks:apply', { tasks: FILE });
    expect(second.json() as Result).toMatchObject({
      created: [],
      updated: [],
      deleted: [],
      unchanged: ['billing.nightly', 'reports.weekly', 'ping', 'etl.nightly'],
    });
    expect(await snapshot(a.id)).toEqual(before);
  });

  it('an edited cron is one update of that task, which cancels its jobs made ahead, as a PATCH would', async () => {
    const a = await tenantClient(app);
    await a.call('POST', '/v1/tasks:apply', { tasks: FILE });
    await schedulerPass(db.pool, 8 * 86_400_000);
    const [task] = ((await a.call('GET', '/v1/tasks?key=ping')).json() as { tasks: { id: string }[] }).tasks;
    const edited = FILE.map((e) =>
      e.key === 'ping' ? entry('ping', { schedule: { type: 'interval', every: '2h' } }) : e,
    );
    const res = await a.call('POST', '/v1/tasks:apply', { tasks: edited });
    const result = res.json() as Result;
    expect(result).toMatchObject({
      created: [],
      updated: ['ping'],
      deleted: [],
      unchanged: ['billing.nightly', 'reports.weekly', 'etl.nightly'],
    });
    expect(result.plan.find((p) => p.key === 'ping')!.changes).toEqual([
      { field: 'schedule.every', from: '90m', to: '2h' },
    ]);
    const after = (await a.call('GET', `/v1/tasks/${task!.id}`)).json() as {
      version: number;
      schedule: { every: string };
    };
    expect(after).toMatchObject({ version: 2, schedule: { every: '2h' } });
    const jobs = await jobsOf(db.pool, task!.id);
    expect(jobs.length).toBeGreaterThan(0);
    expect(jobs.every((j) => j.state === 'cancelled' && j.occurrence.startsWith('superseded:'))).toBe(true);
  });

  it('--prune deletes exactly the keyed tasks absent from the file, never a task without a key', async () => {
    const a = await tenantClient(app);
    const unkeyed = (await a.call('POST', '/v1/tasks', cronBody('0 9 * * *'))).json() as { id: string };
    await a.call('POST', '/v1/tasks:apply', { tasks: FILE });
    const dry = await a.call('POST', '/v1/tasks:apply', {
      tasks: FILE.slice(0, 2),
      prune: true,
      dryRun: true,
    });
    expect(dry.json() as Result).toMatchObject({ dryRun: true, deleted: ['etl.nightly', 'ping'] });
    expect(((await a.call('GET', '/v1/tasks')).json() as { tasks: unknown[] }).tasks).toHaveLength(5);
    const res = await a.call('POST', '/v1/tasks:apply', { tasks: FILE.slice(0, 2), prune: true });
    expect(res.json() as Result).toMatchObject({
      created: [],
      updated: [],
      deleted: ['etl.nightly', 'ping'],
      unchanged: ['billing.nightly', 'reports.weekly'],
    });
    const left = ((await a.call('GET', '/v1/tasks')).json() as { tasks: { id: string; key?: string }[] })
      .tasks;
    expect(left.map((t) => t.key ?? t.id)).toEqual([unkeyed.id, 'billing.nightly', 'reports.weekly']);
    // A deleted task's key is free again.
    const again = await a.call('POST', '/v1/tasks:apply', { tasks: FILE });
    expect((again.json() as Result).created).toEqual(['ping', 'etl.nightly']);
  });

  it('a file with an error changes nothing and names each entry and field', async () => {
    const a = await tenantClient(app);
    await a.call('POST', '/v1/tasks:apply', { tasks: FILE });
    const before = await snapshot(a.id);
    const bad = [
      entry('billing.nightly', { name: 'renamed' }),
      entry('new.one'),
      entry('broken', { schedule: { type: 'cron', expression: '0 0 30 2 *' } }),
      entry('words', { schedule: { type: 'text', text: 'every day at 9' } }),
    ];
    const res = await a.call('POST', '/v1/tasks:apply', { tasks: bad, prune: true });
    expect(res.statusCode).toBe(400);
    expect((res.json() as { error: { details: unknown[] } }).error.details).toEqual([
      { field: 'tasks.2.schedule.expression', issue: expect.stringMatching(/\(key "broken"\)$/) },
    ]);
    // The words are read once the schema passes: a file with only that error is named too.
    const words = await a.call('POST', '/v1/tasks:apply', { tasks: [bad[0], bad[1], bad[3]], prune: true });
    expect((words.json() as { error: { details: unknown[] } }).error.details).toEqual([
      {
        field: 'tasks.2.schedule.text',
        issue: expect.stringMatching(/^"9" \(word 4 of 4\).*\(key "words"\)$/),
      },
    ]);
    const region = await a.call('POST', '/v1/tasks:apply', {
      tasks: [
        entry('cal', {
          schedule: {
            type: 'cron',
            expression: '0 9 * * *',
            calendar: { holidays: 'XX-YY', onExcluded: 'skip' },
          },
        }),
      ],
    });
    expect(
      (region.json() as { error: { details: { field: string }[] } }).error.details.map((d) => d.field),
    ).toEqual(['tasks.0.schedule.calendar.holidays']);
    expect(await snapshot(a.id)).toEqual(before);
  });

  it('creates past maxTasks are refused whole (429), updates in the same file undone; a key is one task’s: 409', async () => {
    const a = await tenantClient(app, { maxTasks: 3 });
    expect((await a.call('POST', '/v1/tasks:apply', { tasks: FILE.slice(0, 2) })).statusCode).toBe(200);
    const before = await snapshot(a.id);
    // A rename (an update, written first) and two creates: one more task than the quota allows.
    const over = [entry('billing.nightly', { name: 'renamed' }), ...FILE.slice(1)];
    const res = await a.call('POST', '/v1/tasks:apply', { tasks: over });
    expect(res.statusCode).toBe(429);
    expect(await snapshot(a.id)).toEqual(before);
    const taken = await a.call('POST', '/v1/tasks', { ...cronBody('0 9 * * *'), key: 'reports.weekly' });
    expect(taken.statusCode).toBe(409);
    expect((taken.json() as { error: { details: unknown[] } }).error.details).toEqual([
      { field: 'key', issue: '"reports.weekly" is another task\'s key' },
    ]);
    const b = await tenantClient(app);
    expect((await b.call('POST', '/v1/tasks', { ...cronBody('0 9 * * *'), key: 'ping' })).statusCode).toBe(
      201,
    );
  });
});
