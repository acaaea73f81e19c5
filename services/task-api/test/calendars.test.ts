import { dueBatchDecision, firstFireAt, type Schedule } from '@dsched/domain';
import { idToBin } from '@dsched/mysql/ids';
import type { RowDataPacket } from '@dsched/mysql/pool';
import { materialiseDueBatch } from '@dsched/mysql/scheduler';
import { createTask, createTenantWithKey, cronTask } from '@dsched/testkit/fixtures';
import type { TestDatabase } from '@dsched/testkit/mysql';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cronBody, jobsOf, schedulerPass, tenantClient } from './helpers.ts';
import { buildTestApp } from './test-app.ts';

// Calendars and schedules in words through task-api, with the scheduler's own materialiser on the
// test database: what is stored and shown, what the scheduler makes, what the audit reports, and
// what a PATCH that adds a calendar cancels.

let db: TestDatabase;
let app: FastifyInstance;
let close: () => Promise<void>;

beforeAll(async () => {
  // The audit below looks at October 2026; a long retention keeps it inside history's window.
  ({ db, app, close } = await buildTestApp(import.meta.url, { historyRetentionDays: 36_500 }));
});
afterAll(async () => {
  await close();
});

const DECIDE = dueBatchDecision({
  maxJobs: 5000,
  plan: { misfireThresholdMs: 60_000, maxCatchUp: 100, maxPerPass: 100 },
});

/** Runs the scheduler's batch at each next fire time of the task, as a scheduler up all along would. */
async function runSchedulerUntil(taskId: string, end: Date): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    const [[row]] = await db.pool.query<RowDataPacket[]>('SELECT next_fire_at FROM tasks WHERE id = ?', [
      idToBin(taskId),
    ]);
    const next = row!.next_fire_at as Date | null;
    if (next === null || next.getTime() >= end.getTime()) return;
    await materialiseDueBatch(db.pool, {
      scope: { unleased: Array.from({ length: 64 }, (_, p) => p) },
      lookaheadMs: 10_000,
      limit: 1000,
      decide: DECIDE,
      now: new Date(next.getTime() + 1000),
    });
  }
  throw new Error('the scheduler did not reach the end');
}

describe('calendars', () => {
  it('makes jobs on business days only, moves the rest once, and the audit says excluded, never missing', async () => {
    const tenant = await createTenantWithKey(db.pool);
    // 09:00 Berlin every day; Berlin's holidays and weekends excluded, and Friday 9 October listed.
    // Saturday 3 October is German Unity Day (date-holidays: National Holiday) as well as a Saturday: one excluded day.
    const schedule: Schedule = {
      type: 'cron',
      expression: '0 9 * * *',
      timezone: 'Europe/Berlin',
      dst: { repeated: 'first', skipped: 'shift' },
      calendar: { holidays: 'DE-BE', weekends: true, dates: ['2026-10-09'], onExcluded: 'next_business_day' },
    };
    const createdAt = new Date('2026-09-28T00:00:00Z');
    const task = await createTask(
      db.pool,
      cronTask(tenant.id, {
        schedule,
        createdAt,
        updatedAt: createdAt,
        nextFireAt: firstFireAt(schedule, createdAt),
      }),
    );
    const end = new Date('2026-10-14T00:00:00Z');
    await runSchedulerUntil(task.id, end);
    const jobs = await jobsOf(db.pool, task.id);
    // Business days: 28 Sep – 2 Oct, 5–8 Oct, 12–13 Oct. 3–4 Oct move to the 5th, 9–11 Oct to the 12th.
    const expected = [
      '2026-09-28T07:00:00.000Z',
      '2026-09-29T07:00:00.000Z',
      '2026-09-30T07:00:00.000Z',
      '2026-10-01T07:00:00.000Z',
      '2026-10-02T07:00:00.000Z',
      '2026-10-05T07:00:00.000Z',
      '2026-10-06T07:00:00.000Z',
      '2026-10-07T07:00:00.000Z',
      '2026-10-08T07:00:00.000Z',
      '2026-10-12T07:00:00.000Z',
      '2026-10-13T07:00:00.000Z',
    ];
    expect(jobs.map((j) => j.scheduledFor)).toEqual(expected);
    expect(jobs.map((j) => j.occurrence)).toEqual(expected); // one key per moved occurrence
    await db.pool.query("UPDATE jobs SET state = 'succeeded', finished_at = NOW(3) WHERE task_id = ?", [
      idToBin(task.id),
    ]);

    const res = await app.inject({
      method: 'GET',
      url: `/v1/tasks/${task.id}/audit?from=2026-09-28T00:00:00Z&to=2026-10-14T00:00:00Z`,
      headers: { authorization: `Bearer ${tenant.apiKey}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as {
      occurrences: { scheduledFor: string; status: string; reason?: string; movedTo?: string }[];
      counts: Record<string, number>;
    };
    expect(body.counts).toMatchObject({ succeeded: 11, excluded: 5, missing: 0 });
    expect(body.occurrences.filter((o) => o.status === 'excluded')).toEqual([
      {
        scheduledFor: '2026-10-03T07:00:00.000Z',
        status: 'excluded',
        reason: 'public holiday National Holiday (DE-BE), Saturday',
        movedTo: '2026-10-05T07:00:00.000Z',
      },
      {
        scheduledFor: '2026-10-04T07:00:00.000Z',
        status: 'excluded',
        reason: 'Sunday',
        movedTo: '2026-10-05T07:00:00.000Z',
      },
      {
        scheduledFor: '2026-10-09T07:00:00.000Z',
        status: 'excluded',
        reason: 'listed date',
        movedTo: '2026-10-12T07:00:00.000Z',
      },
      {
        scheduledFor: '2026-10-10T07:00:00.000Z',
        status: 'excluded',
        reason: 'Saturday',
        movedTo: '2026-10-12T07:00:00.000Z',
      },
      {
        scheduledFor: '2026-10-11T07:00:00.000Z',
        status: 'excluded',
        reason: 'Sunday',
        movedTo: '2026-10-12T07:00:00.000Z',
      },
    ]);
  });

  it('a calendar added by PATCH cancels the materialised jobs that now fall on excluded days', async () => {
    const a = await tenantClient(app);
    const created = await a.call('POST', '/v1/tasks', cronBody('0 9 * * *'));
    expect(created.statusCode, created.body).toBe(201);
    const { id } = created.json() as { id: string };
    await schedulerPass(db.pool, 8 * 86_400_000);
    const before = await jobsOf(db.pool, id);
    expect(before.length).toBeGreaterThanOrEqual(7);
    expect(before.every((j) => j.state === 'pending')).toBe(true);
    const weekday = before.find((j) => ![0, 6].includes(new Date(j.scheduledFor).getUTCDay()))!;
    const listed = weekday.scheduledFor.slice(0, 10);

    const patched = await a.call('PATCH', `/v1/tasks/${id}`, {
      schedule: {
        type: 'cron',
        expression: '0 9 * * *',
        timezone: 'UTC',
        calendar: { weekends: true, dates: [listed], onExcluded: 'skip' },
      },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect((patched.json() as { schedule: { description: string } }).schedule.description).toBe(
      `At 09:00, UTC, except on Saturdays and Sundays and ${listed}; a run that falls on an excluded day is skipped`,
    );
    await schedulerPass(db.pool, 8 * 86_400_000);
    const after = await jobsOf(db.pool, id);
    const excluded = (t: string) => [0, 6].includes(new Date(t).getUTCDay()) || t.startsWith(listed);
    const live = after.filter((j) => j.state === 'pending');
    expect(live.length).toBeGreaterThan(0);
    expect(live.filter((j) => excluded(j.scheduledFor))).toEqual([]);
    // Every job of the old schedule on an excluded day was cancelled, off its key.
    const old = after.filter((j) => excluded(j.scheduledFor));
    expect(old.length).toBe(before.filter((j) => excluded(j.scheduledFor)).length);
    expect(old.every((j) => j.state === 'cancelled' && j.occurrence.startsWith('superseded:'))).toBe(true);
  });

  it('refuses a region date-holidays does not know, naming calendar.holidays, and creates nothing', async () => {
    const a = await tenantClient(app);
    for (const holidays of ['DE-ZZ', 'XX']) {
      const res = await a.call(
        'POST',
        '/v1/tasks',
        cronBody('0 9 * * *', {
          schedule: { type: 'cron', expression: '0 9 * * *', calendar: { holidays, onExcluded: 'skip' } },
        }),
      );
      expect(res.statusCode).toBe(400);
      expect(
        (res.json() as { error: { details: { field: string; issue: string }[] } }).error.details,
      ).toEqual([
        {
          field: 'schedule.calendar.holidays',
          issue: expect.stringContaining(`unknown holiday region "${holidays}"`),
        },
      ]);
    }
    const listed = await a.call('GET', '/v1/tasks');
    expect((listed.json() as { tasks: unknown[] }).tasks).toEqual([]);
  });
});

describe('schedules in words', () => {
  it('stores a task given in words as what they say, with its words and its sentence', async () => {
    const a = await tenantClient(app);
    const res = await a.call('POST', '/v1/tasks', {
      name: 'words',
      schedule: { type: 'text', text: 'every weekday at 9am', timezone: 'Europe/Berlin' },
      target: { url: 'https://example.test/hook' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const task = res.json() as { id: string; schedule: Record<string, unknown> };
    expect(task.schedule).toEqual({
      type: 'cron',
      expression: '0 9 * * 1-5',
      timezone: 'Europe/Berlin',
      dst: { repeated: 'first', skipped: 'shift' },
      text: 'every weekday at 9am',
      description: 'At 09:00, Monday through Friday, Europe/Berlin',
    });
    const got = await a.call('GET', `/v1/tasks/${task.id}`);
    expect((got.json() as { schedule: unknown }).schedule).toEqual(task.schedule);
    // Sent back as GET gave it (its words and sentence read-only): nothing changes, the words stay.
    const same = await a.call('PATCH', `/v1/tasks/${task.id}`, { schedule: task.schedule });
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json()).toMatchObject({ version: 1, schedule: task.schedule });
    // The same cron without its words is the same schedule: the words stay; a sentence sent is ignored.
    const { text: _text, description: _description, ...cron } = task.schedule;
    const asCron = await a.call('PATCH', `/v1/tasks/${task.id}`, {
      schedule: { ...cron, description: 'ignored' },
    });
    expect(asCron.json()).toMatchObject({ version: 1, schedule: task.schedule });
    // PATCHed in words too; a phrase not understood is a 400 naming schedule.text, and changes nothing.
    const bad = await a.call('PATCH', `/v1/tasks/${task.id}`, {
      schedule: { type: 'text', text: 'every day at 9' },
    });
    expect(bad.statusCode).toBe(400);
    expect((bad.json() as { error: { details: unknown[] } }).error.details).toEqual([
      {
        field: 'schedule.text',
        issue: '"9" (word 4 of 4): "9" could be morning or evening: write 9:00 (24-hour clock) or 9am / 9pm',
      },
    ]);
    // A one-off time in words keeps its zone and words too.
    const once = await a.call('POST', '/v1/tasks', {
      name: 'once in words',
      schedule: { type: 'text', text: 'at 2030-12-24 18:00 in Europe/Berlin' },
      target: { url: 'https://example.test/hook' },
    });
    const onceId = (once.json() as { id: string }).id;
    expect(((await a.call('GET', `/v1/tasks/${onceId}`)).json() as { schedule: unknown }).schedule).toEqual({
      type: 'once',
      at: '2030-12-24T17:00:00.000Z',
      timezone: 'Europe/Berlin',
      text: 'at 2030-12-24 18:00 in Europe/Berlin',
      description: 'Once, at 2030-12-24 18:00, Europe/Berlin (2030-12-24 17:00 UTC)',
    });
    const good = await a.call('PATCH', `/v1/tasks/${task.id}`, {
      schedule: { type: 'text', text: 'every 90 minutes' },
    });
    expect(good.json() as { schedule: unknown; version: number }).toMatchObject({
      schedule: { type: 'interval', every: '90m', text: 'every 90 minutes' },
      version: 2,
    });
  });

  it('POST /v1/schedules/parse answers the schedule, its sentence and five fire times, or names the word', async () => {
    const a = await tenantClient(app);
    const res = await a.call('POST', '/v1/schedules/parse', {
      text: 'every weekday at 9am',
      timezone: 'Europe/Berlin',
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { schedule: { type: string }; description: string; next: string[] };
    expect(body.description).toBe('At 09:00, Monday through Friday, Europe/Berlin');
    expect(body.schedule.type).toBe('cron');
    expect(body.next).toHaveLength(5);
    for (const t of body.next) {
      const local = new Date(t).toLocaleString('en-GB', {
        timeZone: 'Europe/Berlin',
        weekday: 'short',
        hour: '2-digit',
        minute: '2-digit',
      });
      expect(local).toMatch(/^(Mon|Tue|Wed|Thu|Fri) 09:00$/);
    }
    const inHours = await a.call('POST', '/v1/schedules/parse', { text: 'in 3 hours' });
    const at = Date.parse((inHours.json() as { next: string[] }).next[0]!);
    expect(Math.abs(at - Date.now() - 3 * 3_600_000)).toBeLessThan(60_000);
    const refused = await a.call('POST', '/v1/schedules/parse', { text: 'every blorp at 9am' });
    expect(refused.statusCode).toBe(400);
    expect((refused.json() as { error: { details: unknown[] } }).error.details).toEqual([
      { field: 'text', issue: '"blorp" (word 2 of 4): expected a unit: seconds, minutes or hours' },
    ]);
  });
});
