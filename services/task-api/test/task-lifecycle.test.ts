import { idToBin } from '@dsched/mysql/ids';
import { databaseNow, type RowDataPacket } from '@dsched/mysql/pool';
import type { TestDatabase } from '@dsched/testkit/mysql';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cronBody, jobsOf, schedulerPass, tenantClient } from './helpers.ts';
import { buildTestApp } from './test-app.ts';

let db: TestDatabase;
let app: FastifyInstance;
let close: () => Promise<void>;
// The API's clock: the database's, unless a test steps it forward (time as a parameter: no test
// sleeps until the database clock has passed an instant).
let stepped: Date | null = null;

beforeAll(async () => {
  ({ db, app, close } = await buildTestApp(import.meta.url, { at: () => stepped }));
});
afterAll(async () => {
  await close();
});
afterEach(() => {
  stepped = null;
});

/** Steps the API's clock `ms` past the database's now; returns that instant. */
async function stepClock(ms: number): Promise<Date> {
  stepped = new Date((await databaseNow(db.pool)).getTime() + ms);
  return stepped;
}

/** Each job's stored trace context (hex) by occurrence. */
async function traceContextsOf(taskId: string): Promise<Map<string, string | null>> {
  const [rows] = await db.pool.query<RowDataPacket[]>(
    'SELECT occurrence, HEX(trace_context) AS trace FROM jobs WHERE task_id = ?',
    [idToBin(taskId)],
  );
  return new Map(
    rows.map((r) => [String(r.occurrence), r.trace === null ? null : String(r.trace).toLowerCase()]),
  );
}

type TaskBody = { id: string; version: number; state: string; nextFireAt: string | null; lane: string };

async function newTask(t: Awaited<ReturnType<typeof tenantClient>>, body = cronBody('* * * * * *')) {
  const res = await t.call('POST', '/v1/tasks', body);
  expect(res.statusCode).toBe(201);
  return res.json() as TaskBody;
}

describe('list', () => {
  it('pages through a tenant’s own tasks with an opaque token, oldest first', async () => {
    const a = await tenantClient(app);
    const b = await tenantClient(app);
    const made: string[] = [];
    for (let i = 0; i < 7; i++) made.push((await newTask(a, cronBody('0 9 * * *', { name: `t${i}` }))).id);
    await newTask(b);
    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const res = await a.call('GET', `/v1/tasks?limit=3${token ? `&pageToken=${token}` : ''}`);
      expect(res.statusCode).toBe(200);
      const body = res.json() as { tasks: { id: string }[]; nextPageToken?: string };
      seen.push(...body.tasks.map((t) => t.id));
      token = body.nextPageToken;
      pages += 1;
    } while (token);
    expect(seen).toEqual(made);
    expect(pages).toBe(3);
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=501', 'limit'],
    ['pageToken=nonsense', 'pageToken'],
    ['state=deleted', 'state'],
  ])('answers 400 naming the field for ?%s', async (query, field) => {
    const a = await tenantClient(app);
    const res = await a.call('GET', `/v1/tasks?${query}`);
    expect(res.statusCode).toBe(400);
    expect((res.json() as { error: { details: { field: string }[] } }).error.details[0]!.field).toBe(field);
  });
});

describe('edit', () => {
  it('a schedule edit bumps the version, recomputes nextFireAt and cancels unstarted jobs of the old schedule', async () => {
    const a = await tenantClient(app);
    const task = await newTask(a, cronBody('* * * * * *'));
    await schedulerPass(db.pool, 5_000);
    const before = await jobsOf(db.pool, task.id);
    expect(before.length).toBeGreaterThanOrEqual(4);
    // One of them started: it is not the edit's to cancel.
    await db.pool.query(
      "UPDATE jobs SET state = 'running', attempt = 1 WHERE task_id = ? AND occurrence = ?",
      [idToBin(task.id), before[0]!.occurrence],
    );
    const res = await a.call('PATCH', `/v1/tasks/${task.id}`, {
      schedule: { type: 'cron', expression: '*/2 * * * * *', timezone: 'UTC' },
    });
    expect(res.statusCode).toBe(200);
    const edited = res.json() as TaskBody;
    expect(edited.version).toBe(2);
    expect(res.headers.etag).toBe('"2"');
    expect(new Date(edited.nextFireAt!).getUTCSeconds() % 2).toBe(0);
    const after = await jobsOf(db.pool, task.id);
    expect(after.filter((j) => j.state === 'running')).toHaveLength(1);
    const cancelled = after.filter((j) => j.state === 'cancelled');
    expect(cancelled).toHaveLength(before.length - 1);
    expect(cancelled.every((j) => j.occurrence.startsWith('superseded:2:'))).toBe(true);
    // The new schedule materialises its own occurrences, including instants the old one shared.
    await schedulerPass(db.pool, 5_000);
    const live = (await jobsOf(db.pool, task.id)).filter((j) => j.state === 'pending');
    expect(live.length).toBeGreaterThanOrEqual(2);
    expect(live.every((j) => new Date(j.scheduledFor).getUTCSeconds() % 2 === 0)).toBe(true);
    expect(new Set(live.map((j) => j.occurrence)).size).toBe(live.length);
  });

  it('a target edit replaces unstarted jobs by jobs with the new target, for the same occurrences', async () => {
    const a = await tenantClient(app);
    const task = await newTask(a, cronBody('* * * * * *'));
    await schedulerPass(db.pool, 5_000);
    const before = await jobsOf(db.pool, task.id);
    // As the scheduler's batch births store them: sampled, the root span owed (flags 03).
    await db.pool.query(
      'UPDATE jobs SET trace_context = CONCAT(LEFT(trace_context, 24), UNHEX(?)) WHERE task_id = ?',
      ['03', idToBin(task.id)],
    );
    const res = await a.call('PATCH', `/v1/tasks/${task.id}`, { target: { url: 'https://example.test/v2' } });
    expect(res.statusCode).toBe(200);
    const pending = (await jobsOf(db.pool, task.id)).filter((j) => j.state === 'pending');
    expect(pending.map((j) => j.occurrence)).toEqual(before.map((j) => j.occurrence));
    expect(pending.every((j) => j.url === 'https://example.test/v2')).toBe(true);
    // Every job stores a trace context (this pass gave none: each got a new one), and each
    // replacement continues its occurrence's trace: the replaced job's context, with the root span
    // the archiver owes, which the replaced job gives up (flags 01), so it is exported once.
    const traces = await traceContextsOf(task.id);
    expect(before.length).toBeGreaterThan(0);
    for (const job of before) {
      const replaced = traces.get(`superseded:2:${job.occurrence}`);
      expect(replaced, job.occurrence).toMatch(/^[0-9a-f]{48}01$/);
      expect(traces.get(job.occurrence)).toBe(`${replaced!.slice(0, 48)}03`);
    }
  });

  it('refuses read-only and unknown fields and bad values by name, and changes nothing', async () => {
    const a = await tenantClient(app);
    const task = await newTask(a);
    for (const [body, field] of [
      [{ state: 'paused' }, 'state'],
      [{ version: 9 }, 'version'],
      [{ nmae: 'typo' }, 'nmae'],
      [{ schedule: { type: 'cron', expression: '0 0 30 2 *', timezone: 'UTC' } }, 'schedule.expression'],
      [
        { schedule: { type: 'cron', expression: '0 9 * * *', timezone: 'Nowhere/City' } },
        'schedule.timezone',
      ],
      [{ priority: 'urgent' }, 'priority'],
    ] as const) {
      const res = await a.call('PATCH', `/v1/tasks/${task.id}`, body);
      expect(res.statusCode).toBe(400);
      expect((res.json() as { error: { details: { field: string }[] } }).error.details[0]!.field).toBe(field);
    }
    const now = (await a.call('GET', `/v1/tasks/${task.id}`)).json() as TaskBody;
    expect(now.version).toBe(1);
  });

  it('honours If-Match and leaves the version alone for an edit that changes nothing', async () => {
    const a = await tenantClient(app);
    const task = await newTask(a, cronBody('0 9 * * *', { name: 'same' }));
    const stale = await a.call('PATCH', `/v1/tasks/${task.id}`, { name: 'x' }, { 'if-match': '"7"' });
    expect(stale.statusCode).toBe(412);
    expect(stale.json()).toMatchObject({ error: { code: 'failed_precondition' } });
    const ok = await a.call('PATCH', `/v1/tasks/${task.id}`, { name: 'renamed' }, { 'if-match': '"1"' });
    expect((ok.json() as TaskBody).version).toBe(2);
    const noop = await a.call('PATCH', `/v1/tasks/${task.id}`, { name: 'renamed' });
    expect((noop.json() as TaskBody).version).toBe(2);
  });

  // MySQL's JSON type hands the stored schedule and retry back with their keys in its own order:
  // compared as text, the same documents looked changed there (and not on MariaDB).
  it('re-sending the unchanged schedule and retry changes nothing: same version, materialised jobs kept', async () => {
    const a = await tenantClient(app);
    const retry = { maxAttempts: 3, initialBackoffMs: 2000, maxBackoffMs: 60_000, rules: [] };
    const task = await newTask(a, cronBody('* * * * * *', { retry }));
    await schedulerPass(db.pool, 5_000);
    const before = await jobsOf(db.pool, task.id);
    expect(before.length).toBeGreaterThanOrEqual(4);
    const got = (await a.call('GET', `/v1/tasks/${task.id}`)).json() as { schedule: unknown; retry: unknown };
    // As sent, and as read back (in whatever key order the engine keeps), one after the other.
    for (const body of [
      { schedule: { type: 'cron', expression: '* * * * * *', timezone: 'UTC' }, retry },
      { schedule: got.schedule, retry: got.retry },
      { retry: { rules: [], maxBackoffMs: 60_000, initialBackoffMs: 2000, maxAttempts: 3 } },
    ]) {
      const res = await a.call('PATCH', `/v1/tasks/${task.id}`, body);
      expect(res.statusCode).toBe(200);
      expect((res.json() as TaskBody).version).toBe(1);
      expect(res.headers.etag).toBe('"1"');
    }
    const after = await jobsOf(db.pool, task.id);
    expect(after).toEqual(before);
    expect(after.every((j) => j.state === 'pending')).toBe(true);
  });

  it('returns stored documents with their keys in one order, whatever order they were sent in', async () => {
    const a = await tenantClient(app);
    const res = await a.call(
      'POST',
      '/v1/tasks',
      cronBody('0 9 * * *', {
        target: { url: 'https://example.test/hook', body: { zeta: 1, alpha: { y: 2, b: 3 } } },
        metadata: { team: 'billing', cost_centre: 'c-12', a: 'x' },
      }),
    );
    expect(res.statusCode).toBe(201);
    const read = await a.call('GET', `/v1/tasks/${(res.json() as TaskBody).id}`);
    const text = read.body;
    // The creation's answer (built from the request) and the read (from the row) alike.
    expect(res.body).toBe(text);
    // Sorted by key at every depth, on MariaDB (which keeps the order sent) and MySQL (which keeps
    // its own): the same bytes from either engine.
    expect(text).toContain('"body":{"alpha":{"b":3,"y":2},"zeta":1}');
    expect(text).toContain('"metadata":{"a":"x","cost_centre":"c-12","team":"billing"}');
  });
});

describe('pause, resume, delete', () => {
  it('pause stops the task and cancels what was materialised; resume starts again from now', async () => {
    const a = await tenantClient(app);
    const task = await newTask(a, cronBody('* * * * * *'));
    await schedulerPass(db.pool, 500);
    const paused = await a.call('POST', `/v1/tasks/${task.id}/pause`);
    expect(paused.json()).toMatchObject({ state: 'paused', nextFireAt: null, version: 2 });
    expect((await jobsOf(db.pool, task.id)).every((j) => j.state === 'cancelled')).toBe(true);
    const again = await a.call('POST', `/v1/tasks/${task.id}/pause`);
    expect(again.json()).toMatchObject({ state: 'paused', version: 2 });
    // Longer than what was materialised ahead: occurrences fall due while paused.
    const now = await stepClock(2_100);
    await schedulerPass(db.pool, 500, now);
    expect((await jobsOf(db.pool, task.id)).every((j) => j.state === 'cancelled')).toBe(true);
    const resumed = (await a.call('POST', `/v1/tasks/${task.id}/resume`)).json() as TaskBody;
    expect(resumed).toMatchObject({ state: 'active', version: 3 });
    expect(Date.parse(resumed.nextFireAt!)).toBeGreaterThanOrEqual(now.getTime() - 1000);
    const [skips] = await db.pool.query<RowDataPacket[]>(
      'SELECT reason FROM occurrence_skips WHERE task_id = ?',
      [idToBin(task.id)],
    );
    expect(skips.map((s) => s.reason)).toEqual(['paused']);
    await schedulerPass(db.pool, 2_000, now);
    expect((await jobsOf(db.pool, task.id)).some((j) => j.state === 'pending')).toBe(true);
  });

  it('delete answers 204, hides the task, cancels every unstarted job and frees its quota', async () => {
    const a = await tenantClient(app, { maxTasks: 1 });
    const task = await newTask(a, cronBody('* * * * * *'));
    await schedulerPass(db.pool, 3_000);
    const trig = await a.call('POST', `/v1/tasks/${task.id}/trigger`);
    expect(trig.statusCode).toBe(202);
    expect((await a.call('POST', '/v1/tasks', cronBody('0 9 * * *'))).statusCode).toBe(429);
    const del = await a.call('DELETE', `/v1/tasks/${task.id}`);
    expect(del.statusCode).toBe(204);
    expect((await a.call('GET', `/v1/tasks/${task.id}`)).statusCode).toBe(404);
    expect((await a.call('DELETE', `/v1/tasks/${task.id}`)).statusCode).toBe(404);
    expect((await a.call('POST', `/v1/tasks/${task.id}/resume`)).statusCode).toBe(404);
    const jobs = await jobsOf(db.pool, task.id);
    expect(jobs.some((j) => j.kind === 'trigger')).toBe(true);
    expect(jobs.every((j) => j.state === 'cancelled')).toBe(true);
    expect((await a.call('POST', '/v1/tasks', cronBody('0 9 * * *'))).statusCode).toBe(201);
  });
});

describe('trigger and backfill', () => {
  it('trigger makes a job due now; the same Idempotency-Key answers the same job', async () => {
    const a = await tenantClient(app);
    const task = await newTask(a, cronBody('0 9 * * *'));
    const first = await a.call('POST', `/v1/tasks/${task.id}/trigger`, undefined, {
      'idempotency-key': 'deploy-42',
    });
    const second = await a.call('POST', `/v1/tasks/${task.id}/trigger`, undefined, {
      'idempotency-key': 'deploy-42',
    });
    const other = await a.call('POST', `/v1/tasks/${task.id}/trigger`);
    expect([first.statusCode, second.statusCode, other.statusCode]).toEqual([202, 202, 202]);
    expect(second.json()).toEqual(first.json());
    expect(other.json()).not.toEqual(first.json());
    const jobs = await jobsOf(db.pool, task.id);
    expect(jobs.map((j) => [j.kind, j.state])).toEqual([
      ['trigger', 'pending'],
      ['trigger', 'pending'],
    ]);
    expect(jobs.map((j) => j.occurrence)).toContain('trigger:deploy-42');
    const bad = await a.call('POST', `/v1/tasks/${task.id}/trigger`, undefined, {
      'idempotency-key': 'x'.repeat(41),
    });
    expect(bad.statusCode).toBe(400);
  });

  it('backfill runs each past occurrence of a range once, however often it is asked', async () => {
    const a = await tenantClient(app);
    const task = await newTask(a, cronBody('0 * * * *'));
    const hour = Math.floor((await databaseNow(db.pool)).getTime() / 3_600_000) * 3_600_000;
    const range = { from: new Date(hour - 5 * 3_600_000).toISOString(), to: new Date(hour).toISOString() };
    const first = await a.call('POST', `/v1/tasks/${task.id}/backfill`, range);
    const second = await a.call('POST', `/v1/tasks/${task.id}/backfill`, range);
    expect(first.statusCode).toBe(202);
    expect(first.json()).toEqual({ count: 5, created: 5 });
    expect(second.json()).toEqual({ count: 5, created: 0 });
    const jobs = await jobsOf(db.pool, task.id);
    expect(jobs.map((j) => j.occurrence)).toEqual(
      [5, 4, 3, 2, 1].map((h) => `backfill:${new Date(hour - h * 3_600_000).toISOString()}`),
    );
  });

  it.each([
    [{ from: '2024-01-02T00:00:00Z', to: '2024-01-01T00:00:00Z' }, 'to'],
    [{ from: '2024-01-01T00:00:00Z', to: '2999-01-01T00:00:00Z' }, 'to'],
    [{ from: '2020-01-01T00:00:00Z', to: '2024-01-01T00:00:00Z' }, 'to'],
    [{ from: 'yesterday', to: '2024-01-01T00:00:00Z' }, 'from'],
  ])('backfill answers 400 naming the field for %j and makes no job', async (body, field) => {
    const a = await tenantClient(app);
    const task = await newTask(a, cronBody('0 * * * *'));
    const res = await a.call('POST', `/v1/tasks/${task.id}/backfill`, body);
    expect(res.statusCode).toBe(400);
    expect((res.json() as { error: { details: { field: string }[] } }).error.details[0]!.field).toBe(field);
    expect(await jobsOf(db.pool, task.id)).toEqual([]);
  });
});

describe('quotas', () => {
  it('maxTasks: 429 resource_exhausted with Retry-After past the quota', async () => {
    const a = await tenantClient(app, { maxTasks: 2 });
    await newTask(a);
    await newTask(a);
    const res = await a.call('POST', '/v1/tasks', cronBody('0 9 * * *'));
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBeDefined();
    expect(res.json()).toMatchObject({
      error: { code: 'resource_exhausted', details: [{ field: 'maxTasks' }] },
    });
  });

  it('rateLimitPerSecond: requests past the bucket answer 429 with Retry-After: 1', async () => {
    const a = await tenantClient(app, { rateLimitPerSecond: 3 });
    const statuses: number[] = [];
    let retryAfter: string | undefined;
    for (let i = 0; i < 8; i++) {
      const res = await a.call('GET', '/v1/tasks');
      statuses.push(res.statusCode);
      if (res.statusCode === 429) retryAfter = String(res.headers['retry-after']);
    }
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
    expect(statuses).toContain(429);
    expect(retryAfter).toBe('1');
    // A second later by the bucket's clock, it has refilled.
    await stepClock(1_100);
    expect((await a.call('GET', '/v1/tasks')).statusCode).toBe(200);
  });
});

describe('pause and resume with a reason', () => {
  it('takes an optional reason and refuses a bad one by field', async () => {
    const t = await tenantClient(app);
    const task = (await t.call('POST', '/v1/tasks', cronBody('0 9 * * *'))).json() as { id: string };
    const paused = await t.call('POST', `/v1/tasks/${task.id}/pause`, { reason: 'maintenance window' });
    expect([paused.statusCode, paused.json().state]).toEqual([200, 'paused']);
    const tooLong = await t.call('POST', `/v1/tasks/${task.id}/resume`, { reason: 'x'.repeat(501) });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().error.details[0].field).toBe('reason');
    const stillPaused = await t.call('GET', `/v1/tasks/${task.id}`);
    expect(stillPaused.json().state).toBe('paused');
    const bare = await t.call('POST', `/v1/tasks/${task.id}/resume`);
    expect([bare.statusCode, bare.json().state]).toEqual([200, 'active']);
  });
});
