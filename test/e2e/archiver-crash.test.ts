import { idToBin } from '@dsched/mysql/ids';
import type { RowDataPacket } from '@dsched/mysql/pool';
import { createTask, createTenantWithKey, cronTask, insertJobs } from '@dsched/testkit/fixtures';
import { eventually, type RunningService, startService } from '@dsched/testkit/services';
import { useTestStores } from '@dsched/testkit/test-stores';
import { afterAll, expect, it } from 'vitest';

// Invariant 5 under a crash: the archiver is killed (SIGKILL, as kill -9) between its Cassandra
// write and its MySQL delete, by the test-only ARCHIVER_FAILPOINT switch. After a restart every
// job is in history once and gone from MySQL.

const { db, ks } = useTestStores(import.meta.url);
const started: RunningService[] = [];

afterAll(async () => {
  await Promise.all(started.map((s) => s.stop('SIGKILL')));
});

async function mysqlJobs(ids: string[]): Promise<number> {
  const [rows] = await db.pool.query<RowDataPacket[]>('SELECT COUNT(*) AS n FROM jobs WHERE id IN (?)', [
    ids.map(idToBin),
  ]);
  return Number(rows[0]!.n);
}

async function historyRows(table: string, ids: string[]): Promise<number> {
  const rs = await ks.client.execute(`SELECT id FROM ${table}`);
  return rs.rows.filter((r) => ids.includes(r.get('id').toString())).length;
}

it('leaves a job in both stores when killed between write and delete, and exactly once in history after restart', async () => {
  const tenant = await createTenantWithKey(db.pool);
  const task = await createTask(db.pool, cronTask(tenant.id));
  const ids = await insertJobs(
    db.pool,
    (['succeeded', 'cancelled', 'succeeded'] as const).map((state, i) => ({
      tenantId: tenant.id,
      taskId: task.id,
      scheduledFor: new Date(Date.now() - (i + 1) * 60_000),
      state,
    })),
  );
  const env = { DATABASE_URL: db.url, CASSANDRA_KEYSPACE: ks.keyspace, ARCHIVER_INTERVAL_MS: '100' };

  const doomed = await startService(
    'archiver',
    { ...env, ARCHIVER_FAILPOINT: 'after-history-write' },
    { waitReady: false },
  );
  started.push(doomed);
  expect(await doomed.exited).toBe('SIGKILL');
  expect(doomed.output()).toMatch(/ARCHIVER_FAILPOINT=after-history-write/);
  // Written to history, not deleted from MySQL: a duplicate, never a loss.
  expect(await historyRows('jobs_by_id', ids)).toBe(3);
  expect(await mysqlJobs(ids)).toBe(3);

  const archiver = await startService('archiver', env);
  started.push(archiver);
  await eventually(
    async () => ((await mysqlJobs(ids)) === 0 ? true : undefined),
    30_000,
    'jobs deleted from MySQL',
  );
  for (const table of ['jobs_by_id', 'runs_by_task', 'tenant_jobs', 'tenant_jobs_by_state']) {
    expect(await historyRows(table, ids)).toBe(3);
  }
  const [attempts] = await db.pool.query<RowDataPacket[]>(
    'SELECT COUNT(*) AS n FROM job_attempts WHERE job_id IN (?)',
    [ids.map(idToBin)],
  );
  expect(Number(attempts[0]!.n)).toBe(0);
  const metrics = await (await fetch(`${archiver.url}/metrics`)).text();
  expect(metrics).toMatch(/dsched_archiver_jobs_archived_total\{[^}]*\} 3/);
  expect(metrics).toMatch(/dsched_archiver_lag_seconds\{[^}]*\} 0/);
});
