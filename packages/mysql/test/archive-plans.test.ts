import { allPartitions, DEFAULT_PARTITIONS } from '@dsched/domain';
import { createTask, createTenantWithKey, cronTask, insertJobs } from '@dsched/testkit/fixtures';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import { beforeAll, expect, it } from 'vitest';
import { explainJobsStatement } from './plans.ts';

// The archiver's select keyed by its group of partitions (docs/sharding.md) keeps the plan it had
// unkeyed: each of its three parts one range of jobs_finished in finished_at order (no sort), the
// group's `partition` filtered in the index (its last column). Checked on whichever engine the suite
// runs on (MariaDB, and MySQL under `pnpm test:mysql`), with live and finished jobs of every partition around.
const db = useTestDatabase(import.meta.url);
const EVEN = allPartitions(DEFAULT_PARTITIONS).filter((p) => p % 2 === 0);

beforeAll(async () => {
  const tenantId = (await createTenantWithKey(db.pool)).id;
  const tasks = await Promise.all(Array.from({ length: 8 }, () => createTask(db.pool, cronTask(tenantId))));
  await insertJobs(
    db.pool,
    // Mostly live jobs, as the table holds them: the archiver keeps up, so few are finished.
    Array.from({ length: 3000 }, (_, i) => ({
      tenantId,
      taskId: tasks[i % 8]!.id,
      scheduledFor: new Date(Date.now() - i * 60_000),
      state: (['succeeded', 'cancelled', 'dead'] as const)[i % 30] ?? (i % 2 ? 'pending' : 'running'),
    })),
  );
  await db.pool.query('ANALYZE TABLE jobs, workflow_nodes');
});

it('archivable-select: three ranges of jobs_finished in finished_at order, no sort, keyed by the group', async () => {
  const { json, filesort } = await explainJobsStatement(db.pool, 'archivable-select.sql', [
    EVEN,
    100,
    EVEN,
    100,
    60,
    EVEN,
    100,
  ]);
  const keys: unknown[] = [];
  const collect = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    const o = node as Record<string, unknown>;
    if (o.table_name === 'jobs') keys.push(o.key);
    for (const v of Object.values(o)) collect(v);
  };
  collect(JSON.parse(json));
  expect(keys, json).toEqual(['jobs_finished', 'jobs_finished', 'jobs_finished']);
  expect(filesort, json).toBe(false);
});
