import { jitteredRunAt, occurrenceKey } from '@dsched/domain';
import { createTenantWithKey, onceTask } from '@dsched/testkit/fixtures';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import type { RowDataPacket } from 'mysql2/promise';
import { beforeAll, beforeEach, expect, it } from 'vitest';
import { idToBin } from '../src/ids.ts';
import { addTasks, dbNow, materialise } from './scheduler-fixtures.ts';

// The scheduler's batch for interval schedules and jittered tasks: the occurrence key and
// scheduled_for keep the nominal time, run_at takes the task's deterministic jitter, and a
// rematerialisation lands on the same instant.

const db = useTestDatabase(import.meta.url);
let tenantId: string;

beforeAll(async () => {
  tenantId = (await createTenantWithKey(db.pool)).id;
});
beforeEach(async () => {
  for (const t of ['jobs', 'tasks', 'occurrence_skips']) await db.pool.query(`DELETE FROM ${t}`);
});

async function jobsOf(taskId: string) {
  const [rows] = await db.pool.query<RowDataPacket[]>(
    'SELECT occurrence, scheduled_for, run_at FROM jobs WHERE task_id = ? ORDER BY scheduled_for',
    [idToBin(taskId)],
  );
  return rows.map((r) => ({
    occurrence: String(r.occurrence),
    scheduledFor: (r.scheduled_for as Date).toISOString(),
    runAt: (r.run_at as Date).toISOString(),
  }));
}

it('materialises an interval task on its grid, each job at its jittered instant', async () => {
  const now = await dbNow(db.pool);
  const first = new Date(Math.ceil(now.getTime() / 10_000) * 10_000 - 60_000);
  const task = onceTask(tenantId, first, {
    schedule: { type: 'interval', every: '10s' },
    jitterS: 30,
    misfirePolicy: 'fire_all',
  });
  await addTasks(db.pool, [task]);
  await materialise(db.pool, { lookaheadMs: 20_000 });
  const jobs = await jobsOf(task.id);
  expect(jobs.length).toBeGreaterThanOrEqual(8);
  for (const [i, job] of jobs.entries()) {
    const nominal = new Date(first.getTime() + i * 10_000);
    expect(job.scheduledFor).toBe(nominal.toISOString());
    expect(job.occurrence).toBe(occurrenceKey('scheduled', nominal));
    expect(job.runAt).toBe(jitteredRunAt(task.id, nominal, 30).toISOString());
  }
  // Jittered, not merely copied: some job runs after its nominal time.
  expect(jobs.some((j) => j.runAt !== j.scheduledFor)).toBe(true);

  // The same occurrences planned again (as after a restart) are the same rows at the same instants.
  await db.pool.query('UPDATE tasks SET next_fire_at = ? WHERE id = ?', [first, idToBin(task.id)]);
  await materialise(db.pool, { lookaheadMs: 20_000 });
  expect((await jobsOf(task.id)).slice(0, jobs.length)).toEqual(jobs);
});
