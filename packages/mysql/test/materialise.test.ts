import { dueBatchDecision } from '@dsched/domain';
import { createTenantWithKey } from '@dsched/testkit/fixtures';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import type { RowDataPacket } from 'mysql2/promise';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { idToBin } from '../src/ids.ts';
import { insertJobs } from '../src/jobs/insert-jobs.ts';
import {
  ensurePartitionLeases,
  partitionLeaseName,
  renewPartitionLeases,
} from '../src/leases/partition-leases.ts';
import { withTransaction } from '../src/transaction.ts';
import {
  addTasks,
  cronTask,
  dbNow,
  jobTimes,
  materialise,
  nextFireOf,
  skipsOf,
} from './scheduler-fixtures.ts';

// The scheduler's batch against a real MariaDB: what it reads, writes and refuses to write.

const db = useTestDatabase(import.meta.url);
let tenantId: string;
const MINUTE = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

beforeAll(async () => {
  tenantId = (await createTenantWithKey(db.pool)).id;
});
beforeEach(async () => {
  for (const t of ['jobs', 'tasks', 'occurrence_skips', 'leases'])
    await db.fixtures.query(`DELETE FROM ${t}`);
});

describe('the due set', () => {
  it('takes critical tasks first across partitions, and a capped batch leaves the rest due', async () => {
    const now = await dbNow(db.pool);
    const past = new Date(now.getTime() - 5_000);
    const normal = await addTasks(
      db.pool,
      [0, 1, 2].map(() => cronTask(tenantId, '0 0 1 1 *', past)),
      0,
    );
    const critical = await addTasks(
      db.pool,
      [0, 1].map(() => cronTask(tenantId, '0 0 1 1 *', past, { priority: 'critical', lane: 'critical' })),
      62,
    );
    const first = await materialise(db.pool, { limit: 2 });
    expect(first).toMatchObject({ dueTasks: 2, jobsInserted: 2, full: true });
    for (const t of critical) expect(await jobTimes(db.pool, t.id)).toEqual([past.toISOString()]);
    for (const t of normal) expect(await jobTimes(db.pool, t.id)).toEqual([]);
    const second = await materialise(db.pool, { limit: 2 });
    const third = await materialise(db.pool, { limit: 2 });
    expect([second.jobsInserted, third.jobsInserted, third.full]).toEqual([2, 1, false]);
  });

  it('materialises ahead within the lookahead, and an overlap-forbidding task only once due', async () => {
    const now = await dbNow(db.pool);
    const soon = new Date(Math.ceil((now.getTime() + 3_000) / 1000) * 1000);
    const [allow] = await addTasks(db.pool, [cronTask(tenantId, '* * * * * *', soon)]);
    const [forbid] = await addTasks(db.pool, [
      cronTask(tenantId, '* * * * * *', soon, { overlapPolicy: 'forbid' }),
    ]);
    const r = await materialise(db.pool, { lookaheadMs: 5_000 });
    const times = await jobTimes(db.pool, allow!.id);
    expect(times[0]).toBe(soon.toISOString());
    expect(times.length).toBeGreaterThanOrEqual(2); // every second up to now + 5 s
    expect(r.scheduledFor.every((t) => t.getTime() <= r.now.getTime() + 5_000)).toBe(true);
    expect(await jobTimes(db.pool, forbid!.id)).toEqual([]);
    expect((await nextFireOf(db.pool, forbid!.id))?.toISOString()).toBe(soon.toISOString());
  });

  it('moves next_fire_at only forward: an occurrence whose job was archived is never made again', async () => {
    const now = await dbNow(db.pool);
    const at = new Date(Math.floor(now.getTime() / MINUTE) * MINUTE);
    const [task] = await addTasks(db.pool, [cronTask(tenantId, '* * * * *', at)]);
    await materialise(db.pool);
    expect(await jobTimes(db.pool, task!.id)).toEqual([at.toISOString()]);
    await db.fixtures.query('DELETE FROM jobs'); // what the archiver does once the job finished
    const again = await materialise(db.pool);
    expect(again.dueTasks).toBe(0);
    expect(await jobTimes(db.pool, task!.id)).toEqual([]);
    expect((await nextFireOf(db.pool, task!.id))!.getTime()).toBe(at.getTime() + MINUTE);
  });

  it('moves each task of a batch to its own next fire, whatever its place among the ids', async () => {
    const now = await dbNow(db.pool);
    const past = new Date(now.getTime() - 5_000);
    // 300 daily tasks, each at a minute of its own (00:00 to 04:59 UTC): 300 different next fires.
    const minuteOf = (i: number) => `${i % 60} ${Math.floor(i / 60)} * * *`;
    const tasks = await addTasks(
      db.pool,
      Array.from({ length: 300 }, (_, i) => cronTask(tenantId, minuteOf(i), past)),
      4,
    );
    const r = await materialise(db.pool, { limit: 1000 });
    expect(r.dueTasks).toBe(300);
    const wrong: string[] = [];
    for (const [i, t] of tasks.entries()) {
      const next = (await nextFireOf(db.pool, t.id))!;
      const ok =
        next.getTime() > now.getTime() &&
        next.getTime() <= now.getTime() + 86_400_000 &&
        next.getUTCMinutes() === i % 60 &&
        next.getUTCHours() === Math.floor(i / 60);
      if (!ok) wrong.push(`${minuteOf(i)}: ${next.toISOString()}`);
    }
    expect(wrong).toEqual([]);
  });
});

describe('job rows', () => {
  it('copy their task and keep every time to the millisecond, past 2038 and apart from run_at', async () => {
    const [task] = await addTasks(db.pool, [
      cronTask(tenantId, '* * * * *', new Date(Date.UTC(2199, 11, 31, 23, 59)), {
        retry: { maxAttempts: 7, initialBackoffMs: 100, maxBackoffMs: 1000, rules: [] },
        priority: 'high',
        lane: 'long',
      }),
    ]);
    const scheduledFor = new Date(Date.UTC(2199, 11, 31, 23, 59, 58, 123));
    const runAt = new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 6));
    const made = await withTransaction(db.pool, (conn) =>
      insertJobs(
        conn,
        [
          {
            taskId: idToBin(task!.id),
            partition: 0,
            occurrence: 'backfill:x',
            kind: 'backfill',
            scheduledFor,
            runAt,
            tagged: false,
          },
          {
            taskId: idToBin(task!.id),
            partition: 0,
            occurrence: scheduledFor.toISOString(),
            kind: 'scheduled',
            tagged: false,
            scheduledFor,
            runAt: scheduledFor,
          },
        ],
        runAt,
      ),
    );
    expect(made).toBe(2);
    const [rows] = await db.pool.query<RowDataPacket[]>(
      `SELECT occurrence, kind, scheduled_for, run_at, max_attempts, priority, lane, target, retry
         FROM jobs WHERE task_id = ? ORDER BY kind`,
      [idToBin(task!.id)],
    );
    expect(
      rows.map((r) => [
        r.occurrence,
        r.kind,
        (r.scheduled_for as Date).toISOString(),
        (r.run_at as Date).toISOString(),
        r.max_attempts,
        r.priority,
        r.lane,
        (r.target as { url: string }).url,
        (r.retry as { maxAttempts: number }).maxAttempts,
      ]),
    ).toEqual([
      [
        'backfill:x',
        'backfill',
        scheduledFor.toISOString(),
        runAt.toISOString(),
        7,
        1,
        'long',
        task!.target.url,
        7,
      ],
      [
        scheduledFor.toISOString(),
        'scheduled',
        scheduledFor.toISOString(),
        scheduledFor.toISOString(),
        7,
        1,
        'long',
        task!.target.url,
        7,
      ],
    ]);
  });
});

describe('leases', () => {
  it('writes nothing for a partition whose lease token moved on, and reports it lost', async () => {
    await ensurePartitionLeases(db.pool, 3);
    await db.pool.query(
      "UPDATE leases SET holder = 'me', token = 7, expires_at = NOW(3) + INTERVAL 1 MINUTE WHERE name IN (?)",
      [[partitionLeaseName(0), partitionLeaseName(2)]],
    );
    const now = await dbNow(db.pool);
    const [mine] = await addTasks(db.pool, [cronTask(tenantId, '0 0 1 1 *', now)], 0);
    const [stolen] = await addTasks(db.pool, [cronTask(tenantId, '0 0 1 1 *', now)], 2);
    await db.pool.query('UPDATE leases SET token = token + 1 WHERE name = ?', [partitionLeaseName(2)]);
    const r = await materialise(db.pool, {
      scope: {
        holder: 'me',
        held: [
          { partition: 0, token: '7' },
          { partition: 2, token: '7' },
        ],
      },
    });
    expect(r.lostPartitions).toEqual([2]);
    expect(await jobTimes(db.pool, mine!.id)).toHaveLength(1);
    expect(await jobTimes(db.pool, stolen!.id)).toEqual([]);
    expect(await renewPartitionLeases(db.pool, 'me', [{ partition: 2, token: '7' }], 10_000)).toEqual([]);
  });

  it('writes nothing under an expired lease, even one nobody has taken yet', async () => {
    await ensurePartitionLeases(db.pool, 1);
    await db.pool.query(
      "UPDATE leases SET holder = 'me', token = 3, expires_at = NOW(3) - INTERVAL 1 SECOND WHERE name = ?",
      [partitionLeaseName(0)],
    );
    const [task] = await addTasks(db.pool, [cronTask(tenantId, '0 0 1 1 *', await dbNow(db.pool))], 0);
    const r = await materialise(db.pool, { scope: { holder: 'me', held: [{ partition: 0, token: '3' }] } });
    expect(r.lostPartitions).toEqual([0]);
    expect(await jobTimes(db.pool, task!.id)).toEqual([]);
  });
});

describe('misfire after downtime', () => {
  // A task that fires every minute, whose scheduler was away for ten minutes.
  async function missedTask(policy: 'fire_once' | 'fire_all' | 'skip') {
    const now = await dbNow(db.pool);
    const firstMissed = Math.floor(now.getTime() / MINUTE) * MINUTE - 10 * MINUTE;
    const [task] = await addTasks(db.pool, [
      cronTask(tenantId, '* * * * *', new Date(firstMissed), { misfirePolicy: policy }),
    ]);
    // The first occurrence that is not missed (older than the 60 s threshold) and the last that is.
    const resume = Math.ceil((now.getTime() - 60_000) / MINUTE) * MINUTE;
    return { task: task!, firstMissed, resume, lastMissed: resume - MINUTE, now: now.getTime() };
  }

  it('fire_once runs the latest missed occurrence once and records the rest as skipped', async () => {
    const m = await missedTask('fire_once');
    await materialise(db.pool);
    const times = await jobTimes(db.pool, m.task.id);
    expect(times[0]).toBe(iso(m.lastMissed));
    expect(times.slice(1).every((t) => Date.parse(t) >= m.resume)).toBe(true);
    expect(await skipsOf(db.pool, m.task.id)).toEqual([
      { from: iso(m.firstMissed), to: iso(m.lastMissed), reason: 'misfire' },
    ]);
  });

  it('fire_all runs every missed occurrence up to the cap, then skips to the present', async () => {
    const m = await missedTask('fire_all');
    await materialise(db.pool, {
      decide: dueBatchDecision({
        maxJobs: 1000,
        plan: { misfireThresholdMs: 60_000, maxCatchUp: 4, maxPerPass: 100 },
      }),
    });
    const times = await jobTimes(db.pool, m.task.id);
    expect(times.slice(0, 4)).toEqual([0, 1, 2, 3].map((i) => iso(m.firstMissed + i * MINUTE)));
    expect(times.slice(4).every((t) => Date.parse(t) >= m.resume)).toBe(true);
    expect(await skipsOf(db.pool, m.task.id)).toEqual([
      { from: iso(m.firstMissed + 4 * MINUTE), to: iso(m.resume), reason: 'misfire' },
    ]);
  });

  it('skip runs none of the missed occurrences', async () => {
    const m = await missedTask('skip');
    await materialise(db.pool);
    const times = await jobTimes(db.pool, m.task.id);
    expect(times.every((t) => Date.parse(t) >= m.resume)).toBe(true);
    expect(await skipsOf(db.pool, m.task.id)).toEqual([
      { from: iso(m.firstMissed), to: iso(m.resume), reason: 'misfire' },
    ]);
  });
});

describe('overlap', () => {
  it('forbid: no new occurrence while the previous one is pending or running, and records the skip', async () => {
    const now = await dbNow(db.pool);
    const first = new Date(Math.floor(now.getTime() / 1000) * 1000 - 3_000);
    const [task] = await addTasks(db.pool, [
      cronTask(tenantId, '* * * * * *', first, { overlapPolicy: 'forbid' }),
    ]);
    await materialise(db.pool, { now });
    // One run, although four seconds were due.
    expect(await jobTimes(db.pool, task!.id)).toEqual([first.toISOString()]);
    expect((await skipsOf(db.pool, task!.id))[0]).toMatchObject({
      from: iso(first.getTime() + 1000),
      reason: 'overlap',
    });

    // A second later (on the batch's clock, not by sleeping) the next occurrence is due.
    await db.fixtures.query("UPDATE jobs SET state = 'running', attempt = 1 WHERE task_id = ?", [
      idToBin(task!.id),
    ]);
    const whileRunning = await materialise(db.pool, { now: new Date(now.getTime() + 1_100) });
    expect(whileRunning.skipped.overlap).toBe(1);
    expect(await jobTimes(db.pool, task!.id)).toHaveLength(1);

    await db.fixtures.query("UPDATE jobs SET state = 'succeeded' WHERE task_id = ?", [idToBin(task!.id)]);
    await materialise(db.pool, { now: new Date(now.getTime() + 2_200) });
    expect(await jobTimes(db.pool, task!.id)).toHaveLength(2);
  });

  it('allow: every occurrence runs, whatever the previous one does', async () => {
    const now = await dbNow(db.pool);
    const first = new Date(Math.floor(now.getTime() / 1000) * 1000 - 3_000);
    const [task] = await addTasks(db.pool, [cronTask(tenantId, '* * * * * *', first)]);
    await materialise(db.pool);
    expect((await jobTimes(db.pool, task!.id)).length).toBeGreaterThanOrEqual(4);
    const [rows] = await db.pool.query<RowDataPacket[]>('SELECT COUNT(*) AS n FROM occurrence_skips');
    expect(Number(rows[0]!.n)).toBe(0);
  });
});
