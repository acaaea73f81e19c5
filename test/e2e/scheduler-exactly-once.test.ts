import { idToBin } from '@dsched/mysql/ids';
import type { RowDataPacket } from '@dsched/mysql/pool';
import { createTenantWithKey } from '@dsched/testkit/fixtures';
import { eventually, type RunningService, startService } from '@dsched/testkit/services';
import { type RecordingTarget, startRecordingTarget } from '@dsched/testkit/target';
import { insertCronTasks } from '@dsched/testkit/tasks';
import { useTestStores } from '@dsched/testkit/test-stores';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { dbNow, metric, startScheduler } from './scheduler-helpers.ts';

// Invariant 2: two schedulers with no lease between them (SCHEDULER_LEASES=off, the test-only
// switch) race over the same 1,000 cron tasks for minutes of fire times, while the executor runs
// the jobs and the archiver moves them to Cassandra and deletes them from MySQL. Every occurrence
// ends up with exactly one job, live or archived: the row lock of the due read and the unique key
// on (task_id, occurrence) are the proof, not the leases. (docs/leases.md shows this test failing
// with the key dropped and the lock removed.)

const TASKS = 1000;
const EVERY_S = 10;
const RUN_S = 150;

const { db, ks } = useTestStores(import.meta.url);
let target: RecordingTarget;
const services: RunningService[] = [];

beforeAll(async () => {
  target = await startRecordingTarget();
});
afterAll(async () => {
  await Promise.all(services.map((s) => s.stop('SIGKILL')));
  await target?.close();
});

/** Job ids per (task, scheduled_for), from MySQL and from history; a job in both counts once. */
async function jobsPerOccurrence(
  tenantId: string,
  taskIds: string[],
  days: string[],
): Promise<{ byOccurrence: Map<string, Set<string>>; archived: number }> {
  const out = new Map<string, Set<string>>();
  const add = (task: string, at: Date, job: string) => {
    const key = `${task}@${at.toISOString()}`;
    out.set(key, (out.get(key) ?? new Set()).add(job));
  };
  const [live] = await db.pool.query<RowDataPacket[]>(
    "SELECT LOWER(HEX(task_id)) AS task, scheduled_for, LOWER(HEX(id)) AS id FROM jobs WHERE kind = 'scheduled'",
  );
  for (const r of live) add(String(r.task), r.scheduled_for as Date, String(r.id));
  // History by task and day (runs_by_task), a few tasks at a time.
  let archived = 0;
  const query = 'SELECT scheduled_for, id FROM runs_by_task WHERE tenant_id = ? AND task_id = ? AND day = ?';
  for (let i = 0; i < taskIds.length; i += 50) {
    const reads = taskIds.slice(i, i + 50).flatMap((task) =>
      days.map(async (day) => {
        const rs = await ks.client.execute(query, [tenantId, task, day], { prepare: true, fetchSize: 1000 });
        archived += rs.rows.length;
        for (const row of rs.rows)
          add(task.replaceAll('-', ''), row.scheduled_for as Date, String(row.id).replaceAll('-', ''));
      }),
    );
    await Promise.all(reads);
  }
  return { byOccurrence: out, archived };
}

it(
  'two schedulers without leases make exactly one job per occurrence, live or archived',
  async () => {
    const tenant = await createTenantWithKey(db.pool);
    const now = await dbNow(db.pool);
    const first = new Date(Math.ceil(now.getTime() / (EVERY_S * 1000)) * EVERY_S * 1000 + EVERY_S * 1000);
    const ids = await insertCronTasks(db.pool, tenant.id, TASKS, () => ({
      expression: `*/${EVERY_S} * * * * *`,
      nextFireAt: first,
      url: `${target.url}/hook`,
    }));
    const env = { DATABASE_URL: db.url, CASSANDRA_KEYSPACE: ks.keyspace, LOG_LEVEL: 'warn' };
    const schedulers = await Promise.all(
      ['a', 'b'].map((i) => startScheduler({ ...env, INSTANCE_ID: `racer-${i}`, SCHEDULER_LEASES: 'off' })),
    );
    services.push(...schedulers);
    services.push(
      ...(await Promise.all([
        startService('executor', {
          ...env,
          EXECUTOR_POLL_MS: '100',
          EXECUTOR_ALLOWED_TARGETS: '127.0.0.0/8',
        }),
        startService('archiver', { ...env, ARCHIVER_INTERVAL_MS: '200' }),
      ])),
    );

    await eventually(
      async () => ((await dbNow(db.pool)).getTime() > first.getTime() + RUN_S * 1000 ? true : undefined),
      (RUN_S + 60) * 1000,
      'the run',
    );
    // Both raced: each made a share of the jobs.
    const made = await Promise.all(
      schedulers.map((s) => metric(s.url, 'dsched_scheduler_jobs_materialised_total')),
    );
    await Promise.all(schedulers.map((s) => s.stop()));
    const stoppedAt = await dbNow(db.pool);
    expect(made.every((n) => n > 0)).toBe(true);
    // Some jobs must have been archived for the test to mean anything.
    await eventually(
      async () => {
        const [[row]] = await db.pool.query<RowDataPacket[]>(
          "SELECT COUNT(*) AS n FROM jobs WHERE state IN ('succeeded', 'cancelled', 'dead')",
        );
        return Number(row!.n) < 100 ? true : undefined;
      },
      120_000,
      'the archiver catching up',
    );

    const lastFire = Math.floor((stoppedAt.getTime() - 1000) / (EVERY_S * 1000)) * EVERY_S * 1000;
    const days = [
      ...new Set([first.toISOString().slice(0, 10), new Date(lastFire).toISOString().slice(0, 10)]),
    ];
    const { byOccurrence: counts, archived } = await jobsPerOccurrence(tenant.id, ids, days);
    const missing: string[] = [];
    const duplicated: string[] = [];
    let expected = 0;
    for (const id of ids) {
      const hex = id.replaceAll('-', '');
      for (let t = first.getTime(); t <= lastFire; t += EVERY_S * 1000) {
        expected += 1;
        const n = counts.get(`${hex}@${new Date(t).toISOString()}`)?.size ?? 0;
        if (n === 0) missing.push(`${id}@${new Date(t).toISOString()}`);
        if (n > 1) duplicated.push(`${id}@${new Date(t).toISOString()} x${n}`);
      }
    }
    console.log(
      `exactly-once: ${expected} occurrences of ${TASKS} tasks over ${RUN_S} s, jobs made by the two schedulers: ${made.join(' + ')}, ` +
        `archived: ${archived}, missing: ${missing.length}, duplicated: ${duplicated.length}`,
    );
    expect(archived).toBeGreaterThan(TASKS);
    expect(expected).toBeGreaterThanOrEqual(TASKS * (RUN_S / EVERY_S));
    expect(duplicated.slice(0, 10)).toEqual([]);
    expect(missing.slice(0, 10)).toEqual([]);
    // And no job of the tasks was made for an instant that is not an occurrence.
    const [[odd]] = await db.pool.query<RowDataPacket[]>(
      'SELECT COUNT(*) AS n FROM jobs WHERE task_id IN (?) AND MOD(UNIX_TIMESTAMP(scheduled_for), ?) <> 0',
      [ids.slice(0, 100).map(idToBin), EVERY_S],
    );
    expect(Number(odd!.n)).toBe(0);
  },
  (RUN_S + 300) * 1000,
);
