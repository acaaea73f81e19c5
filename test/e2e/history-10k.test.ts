import { idToBin } from '@dsched/mysql/ids';
import type { RowDataPacket } from '@dsched/mysql/pool';
import { createTask, createTenantWithKey, cronTask, insertJobs } from '@dsched/testkit/fixtures';
import { eventually, type RunningService, startService } from '@dsched/testkit/services';
import { useTestStores } from '@dsched/testkit/test-stores';
import { afterAll, expect, it } from 'vitest';

// 10,000 finished jobs of one task move to history while a client pages through the task's runs:
// the pages are newest first, with no gap and no repeat, although the jobs change store under
// the walk; a job reads the same before and after archiving. Real services, real stores.

const N = 10_000;
const STEP_MS = 30_000; // 10,000 runs span about 3.5 days: several day partitions
const { db, ks } = useTestStores(import.meta.url);
const started: RunningService[] = [];

afterAll(async () => {
  await Promise.all(started.map((s) => s.stop()));
});

it('archives 10,000 jobs and pages a task’s runs with stable tokens across the move', async () => {
  const tenant = await createTenantWithKey(db.pool, 'big');
  const stranger = await createTenantWithKey(db.pool, 'stranger');
  const task = await createTask(db.pool, cronTask(tenant.id));
  const start = Date.UTC(2026, 10, 20, 21, 0);
  const ids = await insertJobs(
    db.pool,
    Array.from({ length: N }, (_, i) => ({
      tenantId: tenant.id,
      taskId: task.id,
      scheduledFor: new Date(start + i * STEP_MS),
      state: i % 100 === 0 ? ('dead' as const) : ('succeeded' as const),
      attempt: i % 100 === 0 ? 3 : 1,
    })),
  );
  const expected = [...ids].reverse();
  const env = {
    DATABASE_URL: db.url,
    CASSANDRA_KEYSPACE: ks.keyspace,
    ARCHIVER_INTERVAL_MS: '100',
    ARCHIVER_BATCH_SIZE: '500',
    DLQ_RETENTION_S: '0',
  };
  const jobApi = await startService('job-api', env);
  started.push(jobApi);
  const get = async (path: string, key = tenant.apiKey) => {
    const res = await fetch(`${jobApi.url}${path}`, { headers: { authorization: `Bearer ${key}` } });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  const samples = [ids[0]!, ids[4321]!, ids[N - 1]!];
  const liveDocs = await Promise.all(samples.map((id) => get(`/v1/jobs/${id}`)));
  expect(liveDocs.map((d) => d.status)).toEqual([200, 200, 200]);

  const range = `from=${new Date(start).toISOString()}&to=${new Date(start + N * STEP_MS).toISOString()}`;
  const seen: string[] = [];
  let token: string | undefined;
  let archiver: RunningService | undefined;
  for (let page = 0; page < 40; page++) {
    const res = await get(
      `/v1/tasks/${task.id}/runs?${range}&limit=500${token ? `&pageToken=${token}` : ''}`,
    );
    expect(res.status).toBe(200);
    seen.push(...(res.body.runs as { id: string }[]).map((r) => r.id));
    token = res.body.nextPageToken as string | undefined;
    if (page === 1) {
      // Start archiving under the walk.
      archiver = await startService('archiver', env);
      started.push(archiver);
    }
    if (!token) break;
  }
  expect(seen.length).toBe(N);
  expect(new Set(seen).size).toBe(N);
  expect(seen).toEqual(expected);

  await eventually(
    async () => {
      const [rows] = await db.pool.query<RowDataPacket[]>(
        'SELECT COUNT(*) AS n FROM jobs WHERE task_id = ?',
        [idToBin(task.id)],
      );
      return Number(rows[0]!.n) === 0 ? true : undefined;
    },
    180_000,
    'all 10,000 archived',
  );
  const archivedDocs = await Promise.all(samples.map((id) => get(`/v1/jobs/${id}`)));
  expect(archivedDocs.map((d) => d.body)).toEqual(liveDocs.map((d) => d.body));

  // Again, entirely from history, with small pages.
  const again: string[] = [];
  token = undefined;
  for (let page = 0; page < 200; page++) {
    const res = await get(`/v1/tasks/${task.id}/runs?${range}&limit=97${token ? `&pageToken=${token}` : ''}`);
    again.push(...(res.body.runs as { id: string }[]).map((r) => r.id));
    token = res.body.nextPageToken as string | undefined;
    if (!token) break;
  }
  expect(again).toEqual(expected);

  // The tenant's dead jobs, from history; and nothing of it for another tenant.
  const dead = await get(`/v1/jobs?state=dead&${range}&limit=500`);
  expect((dead.body.jobs as unknown[]).length).toBe(N / 100);
  expect((await get(`/v1/jobs/${ids[0]}`, stranger.apiKey)).status).toBe(404);
  expect((await get(`/v1/tasks/${task.id}/runs?${range}`, stranger.apiKey)).status).toBe(404);
  expect((await get(`/v1/jobs?${range}`, stranger.apiKey)).body.jobs).toEqual([]);
});
