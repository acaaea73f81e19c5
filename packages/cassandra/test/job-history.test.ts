import type { JobView } from '@dsched/domain';
import { newId } from '@dsched/domain';
import { createTestKeyspace, type TestKeyspace } from '@dsched/testkit/cassandra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getArchivedJob, partitionBatches, tenantBucket, writeJobHistory } from '../src/job-history.ts';

let ks: TestKeyspace;
beforeAll(async () => {
  ks = await createTestKeyspace(import.meta.url);
});
afterAll(async () => {
  await ks.close();
});

function view(taskId: string): JobView {
  return {
    id: newId(),
    taskId,
    kind: 'scheduled',
    state: 'succeeded',
    attempt: 1,
    maxAttempts: 5,
    priority: 'normal',
    scheduledFor: '2026-11-30T09:00:00.000Z',
    lastStatus: 200,
    attempts: [
      { attempt: 1, startedAt: '2026-11-30T09:00:00.010Z', status: 200, durationMs: 3, executor: 'e1' },
    ],
  };
}

describe('job history', () => {
  it('writes idempotently: the same job twice is one row in every table', async () => {
    const tenantId = newId();
    const job = view(newId());
    await writeJobHistory(ks.client, [{ tenantId, view: job }], { ttlSeconds: 3600, concurrency: 8 });
    await writeJobHistory(ks.client, [{ tenantId, view: job }], { ttlSeconds: 3600, concurrency: 8 });
    for (const table of ['jobs_by_id', 'runs_by_task', 'tenant_jobs', 'tenant_jobs_by_state']) {
      const rs = await ks.client.execute(`SELECT id FROM ${table}`);
      expect(rs.rows.filter((r) => r.get('id').toString() === job.id)).toHaveLength(1);
    }
    expect(await getArchivedJob(ks.client, tenantId, job.id)).toEqual(job);
  });

  it('does not show a job to another tenant', async () => {
    const job = view(newId());
    await writeJobHistory(ks.client, [{ tenantId: newId(), view: job }], {
      ttlSeconds: 3600,
      concurrency: 8,
    });
    expect(await getArchivedJob(ks.client, newId(), job.id)).toBeNull();
  });
});

describe('partition batches', () => {
  const row = (query: string, partition: string, bytes = 10) => ({ query, partition, bytes });

  it('groups rows of one table and partition, never two partitions or two tables in one batch', () => {
    const rows = [row('A', 'p1'), row('A', 'p2'), row('B', 'p1'), row('A', 'p1'), row('B', 'p1')];
    const groups = partitionBatches(rows);
    expect(groups.map((g) => g.map((r) => `${r.query}:${r.partition}`))).toEqual([
      ['A:p1', 'A:p1'],
      ['A:p2'],
      ['B:p1', 'B:p1'],
    ]);
  });

  it('cuts the rows of a partition at 100 rows and at 32 KiB', () => {
    const many = Array.from({ length: 250 }, () => row('A', 'p'));
    expect(partitionBatches(many).map((g) => g.length)).toEqual([100, 100, 50]);
    const heavy = Array.from({ length: 10 }, () => row('A', 'p', 10_000));
    expect(partitionBatches(heavy).map((g) => g.length)).toEqual([3, 3, 3, 1]);
  });
});

describe('batched writes', () => {
  it('stores every row of a burst of one task and one bucket (batches cut mid-partition)', async () => {
    const tenantId = newId();
    const taskId = newId();
    const jobs = Array.from({ length: 250 }, () => view(taskId));
    await writeJobHistory(
      ks.client,
      jobs.map((v) => ({ tenantId, view: v })),
      { ttlSeconds: 3600, concurrency: 4 },
    );
    const ids = new Set(jobs.map((j) => j.id));
    const day = '2026-11-30';
    const runs = await ks.client.execute(
      'SELECT id FROM runs_by_task WHERE tenant_id = ? AND task_id = ? AND day = ?',
      [tenantId, taskId, day],
      { prepare: true, fetchSize: 1000 },
    );
    expect(new Set(runs.rows.map((r) => r.get('id').toString()))).toEqual(ids);
    const bucket = tenantBucket(new Date(jobs[0]!.scheduledFor));
    const listed = await ks.client.execute(
      'SELECT id FROM tenant_jobs WHERE tenant_id = ? AND bucket = ?',
      [tenantId, bucket],
      { prepare: true, fetchSize: 1000 },
    );
    expect(new Set(listed.rows.map((r) => r.get('id').toString()))).toEqual(ids);
    const byState = await ks.client.execute(
      'SELECT id FROM tenant_jobs_by_state WHERE tenant_id = ? AND state = ? AND bucket = ?',
      [tenantId, 'succeeded', bucket],
      { prepare: true, fetchSize: 1000 },
    );
    expect(byState.rowLength).toBe(250);
    for (const j of [jobs[0]!, jobs[149]!, jobs[249]!]) {
      expect(await getArchivedJob(ks.client, tenantId, j.id)).toEqual(j);
    }
  });
});
