import type { JobView } from '@dsched/domain';
import { newId } from '@dsched/domain';
import { createTestKeyspace, type TestKeyspace } from '@dsched/testkit/cassandra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getArchivedJob, writeJobHistory } from '../src/job-history.ts';

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
