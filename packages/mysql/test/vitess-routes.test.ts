import { newId } from '@dsched/domain';
import { createTask, createTenantWithKey, cronTask, onceTask } from '@dsched/testkit/fixtures';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import {
  EVEN,
  itRoutesToOneShard,
  itSeesALostKey,
  ODD,
  productSql,
  type RoutedStatement,
  singleModePool,
} from '@dsched/testkit/vitess-routes';
import type { RowDataPacket } from 'mysql2/promise';
import { beforeAll, describe, expect, it } from 'vitest';
import { idToBin } from '../src/ids.ts';
import { materialiseDueBatch } from '../src/scheduler/materialise.ts';
import { withRows, withSearch } from '../src/sql.ts';
import { batch } from './scheduler-fixtures.ts';

// The route of each hot statement of materialise through vtgate (docs/sharding.md, invariant 12):
// one shard, never scatter. Runs on the Vitess leg only (`pnpm test:vitess`: vitest.config.ts runs
// `vitess-*.test.ts` there and nowhere else). The other paths' route tests are
// `vitess-routes-*.test.ts` beside this file; the helper is @dsched/testkit/vitess-routes.
const db = useTestDatabase(import.meta.url);
/** Sessions in single transaction mode, whatever vtgate's default. */
const single = singleModePool(db);

const NOW = new Date('2026-12-05T09:00:00.000Z');

// A task in each shard (partitions 0 and 1), so the inserts have task rows to copy and write.
const tasks: Buffer[] = [];
beforeAll(async () => {
  const tenant = await createTenantWithKey(db.pool);
  for (const p of [0, 1]) tasks.push(idToBin((await createTask(db.pool, cronTask(tenant.id), p)).id));
});

const JOB_COLUMNS = ['id', 'task_id', 'occurrence', 'kind', 'scheduled_for', 'trace', 'run_at'];
/** insert-jobs.ts's literal rows: a job of each task (only the group's task matches the key). */
const jobRows = () =>
  tasks.map((t, i) => [
    idToBin(newId(NOW.getTime(), i)),
    t,
    NOW.toISOString(),
    'scheduled',
    NOW,
    Buffer.alloc(25),
    NOW,
  ]);
const SKIP_COLUMNS = ['task_id', 'skipped_from', 'skipped_to', 'reason', 'created_at'];
const skipRows = () => tasks.map((t) => [t, NOW, NOW, 'misfire', NOW]);
const advancePairs = () => tasks.map((t) => [t, NOW] as const);

/** A statement whose text the product builds (withRows, withSearch): its text and parameters from one build. */
function built(
  file: string,
  build: (text: string, partitions: number[]) => { sql: string; params: unknown[] },
): RoutedStatement {
  return {
    file,
    text: (text, partitions) => build(text, partitions).sql,
    params: (partitions) => build(productSql(file), partitions).params,
  };
}

/** The hot statements of materialise keyed by the partition, each as materialise.ts sends it. */
const KEYED: Record<string, RoutedStatement> = {
  'materialise: the due set (select-due-tasks)': {
    file: 'scheduler/select-due-tasks.sql',
    params: (partitions) => [partitions, NOW, NOW, 1001],
  },
  'materialise: live runs of overlap-forbidding tasks (select-live-runs)': {
    file: 'scheduler/select-live-runs.sql',
    params: (partitions) => [tasks, partitions],
  },
  'materialise: the job insert (insert-jobs)': built('jobs/insert-jobs.sql', (text, partitions) => {
    const rows = withRows(text, JOB_COLUMNS, jobRows());
    return { sql: rows.sql, params: [NOW, NOW, ...rows.params, partitions] };
  }),
  'materialise: the tags the jobs copied, read back (job-tags-read)': {
    file: 'jobs/job-tags-read.sql',
    params: (partitions) => [partitions, partitions.map((p) => idToBin(newId(NOW.getTime(), p)))],
  },
  'materialise: the jobs’ tag rows, literal rows of the group (insert-job-tags)': {
    file: 'jobs/insert-job-tags.sql',
    params: (partitions) => [
      partitions.map((p) => [idToBin(newId()), 'team:a', NOW, idToBin(newId(NOW.getTime(), p)), p]),
    ],
  },
  'materialise: occurrence skips (occurrence-skips-insert)': built(
    'tasks/occurrence-skips-insert.sql',
    (text, partitions) => {
      const rows = withRows(text, SKIP_COLUMNS, skipRows());
      return { sql: rows.sql, params: [...rows.params, partitions] };
    },
  ),
  'materialise: the advance of next_fire_at (advance-tasks)': built(
    'scheduler/advance-tasks.sql',
    (text, partitions) => withSearch(text, 'id', advancePairs(), [NOW, tasks, partitions]),
  ),
};

describe('hot statements through vtgate', () => {
  itRoutesToOneShard(db, KEYED);

  itSeesALostKey(
    db,
    'a statement that lost its key: without `partition IN`, the due set goes to both shards',
    {
      file: 'scheduler/select-due-tasks.sql',
      key: ' AND `partition` IN (?)',
      params: [NOW, NOW, 1001],
    },
  );

  it('materialises tagged tasks on both shards in single transaction mode, with their jobs’ tag rows', async () => {
    // The jobs' tag rows come from the jobs' own tags, read in their shard: from task_tags
    // (dsched_global) the batch reached both keyspaces, and single mode refused it.
    const tenant = await createTenantWithKey(single.pool);
    const past = new Date(Date.now() - 5_000);
    for (const group of [EVEN, ODD]) {
      const task = onceTask(tenant.id, past, { tags: { team: 'a' } });
      await createTask(db.pool, task, group[1]!);
      const r = await materialiseDueBatch(single.pool, { ...batch(), scope: { unleased: group } });
      expect(r.jobsInserted).toBe(1);
      const [rows] = await db.pool.query<RowDataPacket[]>(
        'SELECT jt.tag FROM job_tags jt JOIN jobs j ON j.id = jt.job_id AND j.`partition` = jt.`partition` WHERE j.task_id = ?',
        [idToBin(task.id)],
      );
      expect(rows.map((x) => x.tag)).toEqual(['team:a']);
    }
  });
});
