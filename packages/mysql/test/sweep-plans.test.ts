import { allPartitions, createWorkflowSchema, DEFAULT_PARTITIONS, planWorkflow } from '@dsched/domain';
import { createTask, createTenantWithKey, cronTask, insertJobs } from '@dsched/testkit/fixtures';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import type { RowDataPacket } from 'mysql2/promise';
import { beforeAll, expect, it } from 'vitest';
import { idToBin } from '../src/ids.ts';
import { loadSql } from '../src/sql.ts';
import { insertWorkflow } from '../src/workflows/workflow-submit.ts';

// The plans of the statements keyed by a group of partitions (docs/sharding.md) for the
// reconciler's workflow sweep, the node waker, a map node's step and job-api's redrive: the key
// is a condition on `partition`, the last column of the index each walks or beside a primary-key
// lookup, so each keeps the index it walked before it was keyed (and, where it had none, no sort).
// Checked on whichever engine the suite runs on (MariaDB, and MySQL 9.7 under `pnpm test:mysql`).

const SRC = new URL('../src/', import.meta.url).href;
const db = useTestDatabase(import.meta.url);
const EVERY = allPartitions(DEFAULT_PARTITIONS);
let tenantId: string;
let taskId: string;
let runIds: Buffer[];
let jobIds: Buffer[];

beforeAll(async () => {
  tenantId = (await createTenantWithKey(db.pool)).id;
  // Jobs of several tasks, so a task's own are a small part of the dead ones.
  const tasks = await Promise.all(Array.from({ length: 8 }, () => createTask(db.pool, cronTask(tenantId))));
  taskId = tasks[1]!.id;
  runIds = [];
  for (let i = 0; i < 12; i++) {
    const req = createWorkflowSchema.parse({
      name: `plans-${i}`,
      ...(i % 3 === 0 ? { deadlineS: 3600 } : {}),
      nodes: [
        { id: 'a', target: { url: 'http://127.0.0.1:9/' } },
        { id: 'b', target: { url: 'http://127.0.0.1:9/' }, dependsOn: ['a'] },
      ],
    });
    const plan = planWorkflow(req, tenantId, Date.now(), i % 4);
    expect(await insertWorkflow(db.pool, plan)).toBe(true);
    runIds.push(idToBin(plan.id));
  }
  const ids = await insertJobs(
    db.pool,
    Array.from({ length: 300 }, (_, i) => ({
      tenantId,
      taskId: tasks[i % 8]!.id,
      scheduledFor: new Date(Date.now() - i * 60_000),
      state: (['pending', 'running', 'dead', 'succeeded'] as const)[i % 4]!,
      partition: i % 8,
    })),
  );
  jobIds = ids.slice(0, 20).map(idToBin);
  await db.pool.query('ANALYZE TABLE jobs, workflows, workflow_nodes, workflow_tags');
});

async function explain(file: string, params: unknown[], text = (s: string) => s): Promise<RowDataPacket[]> {
  const [rows] = await db.pool.query<RowDataPacket[]>(`EXPLAIN ${text(loadSql(SRC, file))}`, params);
  return rows;
}

const of = (rows: RowDataPacket[], table: string) => {
  const row = rows.find((r) => r.table === table);
  expect(row, JSON.stringify(rows)).toBeDefined();
  return row!;
};

it('sweep-running walks workflows_by_state, covering (id, partition are in it)', async () => {
  const rows = await explain('workflows/sweep-running.sql', [EVERY, Buffer.alloc(16), 10]);
  const w = of(rows, 'workflows');
  expect([w.key, String(w.Extra)], JSON.stringify(rows)).toEqual([
    'workflows_by_state',
    expect.stringMatching(/Using index/),
  ]);
});

it('sweep-past-deadline walks workflows_by_state in its order, without a sort', async () => {
  const rows = await explain('workflows/sweep-past-deadline.sql', [EVERY, 10]);
  const w = of(rows, 'workflows');
  expect(w.key, JSON.stringify(rows)).toBe('workflows_by_state');
  expect(String(w.Extra), JSON.stringify(rows)).not.toMatch(/filesort/);
});

it.each([
  ['workflows/scheduled-start-lock.sql', () => [EVERY, 1]],
  ['workflows/node-wake-select.sql', () => ['map', EVERY, 1]],
] as const)('%s walks jobs_claim in its order, without a sort', async (file, params) => {
  const rows = await explain(file, params());
  const j = of(rows, 'jobs');
  expect(j.key, JSON.stringify(rows)).toBe('jobs_claim');
  expect(String(j.Extra), JSON.stringify(rows)).not.toMatch(/filesort/);
});

it('redrive-select-task walks jobs_by_task in its order, without a sort', async () => {
  const rows = await explain('jobs/control/redrive-select-task.sql', [
    EVERY,
    idToBin(taskId),
    idToBin(tenantId),
    500,
  ]);
  const j = of(rows, 'jobs');
  expect(j.key, JSON.stringify(rows)).toBe('jobs_by_task');
  expect(String(j.Extra), JSON.stringify(rows)).not.toMatch(/filesort/);
});

/** The statement as it was before the key: each condition on `partition` made a no-op. */
const unkeyed = (sql: string) =>
  sql
    .split('\n')
    .map((l) => (l.startsWith('--') ? l : l.replace(/([\w.]*`partition` (?:IN \(\?\)|= \?))/g, '($1 OR 1)')))
    .join('\n');

const shape = (rows: RowDataPacket[]) => rows.map((r) => [r.table, r.type, r.key]);

// Every statement the key was added to keeps its plan: the same tables, access types and indexes
// as with its key made a no-op (the statement before it was keyed).
it.each([
  ['workflows/sweep-running.sql', () => [EVERY, Buffer.alloc(16), 10]],
  ['workflows/sweep-past-deadline.sql', () => [EVERY, 10]],
  ['workflows/sweep-stranded-nodes.sql', () => [[0, 1, 2, 3], runIds, 10]],
  ['workflows/scheduled-start-lock.sql', () => [EVERY, 1]],
  ['workflows/scheduled-start-task.sql', () => [0, idToBin(taskId)]],
  ['workflows/scheduled-start-park.sql', () => [0, jobIds[0], 0]],
  ['workflows/scheduled-start-refuse.sql', () => ['none', 0, jobIds[0], 0]],
  ['workflows/node-wake-select.sql', () => ['map', EVERY, 1]],
  ['workflows/node-wake-read.sql', () => [EVERY, jobIds]],
  ['workflows/node-wake-end.sql', () => ['succeeded', null, EVERY, jobIds]],
  ['workflows/map-read.sql', () => [0, jobIds[0]]],
  ['workflows/map-run-read.sql', () => [0, runIds[0]]],
  ['workflows/map-parent-output.sql', () => [0, runIds[0], 'a']],
  ['workflows/map-start.sql', () => [1, 0, runIds[0], 'a']],
  ['workflows/map-item-jobs-insert.sql', () => [0, runIds[0], 'a', 'b']],
  ['workflows/map-item-job-tags.sql', () => ['a', 'b', 0, runIds[0]]],
  ['workflows/map-slice.sql', () => [1, 1, 1, 0, 0, runIds[0], 'a', 0]],
  ['workflows/map-run-grow.sql', () => [1, 1, 0, runIds[0]]],
  ['workflows/map-park.sql', () => [5000, 0, jobIds[0]]],
  ['workflows/map-item-output-bytes.sql', () => [0, runIds[0], 'a', 'b']],
  ['workflows/map-item-outputs.sql', () => [0, runIds[0], 'a', 'b']],
  ['jobs/control/redrive-select.sql', () => [EVERY, jobIds, idToBin(tenantId)]],
  ['jobs/control/redrive-select-task.sql', () => [EVERY, idToBin(taskId), idToBin(tenantId), 500]],
  ['jobs/control/redrive-update.sql', () => [EVERY, jobIds]],
] as const)('%s keeps the plan it had before its key', async (file, params) => {
  const lock = (s: string) => s.replace('%LOCK%', '');
  const keyed = await explain(file, params(), lock);
  const before = await explain(file, params(), (s) => unkeyed(lock(s)));
  expect(lock(loadSql(SRC, file))).not.toBe(unkeyed(lock(loadSql(SRC, file))));
  expect(shape(keyed), JSON.stringify(keyed)).toEqual(shape(before));
});

// The tests from here on run on tables of realistic size: 10,000 ended runs and 10,000 tasks over
// 1,000 tenants (copies of a stored row under new ids), which the plans above do not expect, so
// they are last in the file.
/** 10,000 copies of a stored row of `table` under new ids, over 1,000 tenants, with `set` besides. */
async function addCopies(table: string, of: Buffer, set: Record<string, string>): Promise<void> {
  const [cols] = await db.pool.query<RowDataPacket[]>(
    `SELECT column_name AS c FROM information_schema.columns
      WHERE table_schema = DATABASE() AND table_name = ? AND COALESCE(generation_expression, '') = ''
      ORDER BY ordinal_position`,
    [table],
  );
  const names = cols.map((r) => String(r.c));
  const values: Record<string, string> = {
    id: "LPAD(s.n, 16, 'q')",
    tenant_id: "LPAD(s.n % 1000, 16, 't')",
    partition: `s.n % ${DEFAULT_PARTITIONS}`,
    ...set,
  };
  const digit = `(${Array.from({ length: 10 }, (_, d) => `SELECT ${d} AS d`).join(' UNION ALL ')})`;
  await db.pool.query(
    `INSERT INTO ${table} (${names.map((c) => `\`${c}\``).join(', ')})
     SELECT ${names.map((c) => values[c] ?? `w.\`${c}\``).join(', ')}
       FROM (SELECT a.d + 10 * b.d + 100 * c.d + 1000 * e.d AS n
               FROM ${digit} a, ${digit} b, ${digit} c, ${digit} e) s
       JOIN ${table} w ON w.id = ?`,
    [of],
  );
  await db.pool.query(`ANALYZE TABLE ${table}`);
}

/** 10,000 ended runs, one in 2,000 still marked, and 10,000 tasks: once, for the tests below. */
async function addRunsAndTasks(): Promise<void> {
  const [[count]] = await db.pool.query<RowDataPacket[]>('SELECT COUNT(*) AS n FROM workflows');
  if (Number(count!.n) >= 10_000) return;
  await addCopies('workflows', runIds[0]!, { state: "'succeeded'", quota_release: 's.n % 2000 = 0' });
  await addCopies('tasks', idToBin(taskId), { task_key: "CONCAT('copy-', s.n)" });
}

// The reconciler's pass over the runs whose end still owes their tenant's quota a place (D61,
// migration 0064): a range of workflows_quota_release (quota_release, partition) over the group's
// partitions, covering, among many ended runs of which a few are marked (what a crash leaves), not a
// walk of the index or the table.
it.each([
  ['every partition', () => EVERY],
  ['a group of partitions', () => EVERY.slice(0, EVERY.length / 2)],
] as const)(
  'run-quota-marked reads a range of workflows_quota_release, covering, for %s',
  async (_, partitions) => {
    await addRunsAndTasks();
    const rows = await explain('workflows/run-quota-marked.sql', [partitions(), 100]);
    const w = of(rows, 'workflows');
    expect([w.type, w.key, String(w.Extra)], JSON.stringify(rows)).toEqual([
      'range',
      'workflows_quota_release',
      expect.stringMatching(/Using index/),
    ]);
    // Both parts of the key: the mark (1 byte) and the partition (2).
    expect(Number(w.key_len), JSON.stringify(rows)).toBe(1 + 2);
  },
);

// The task quota's recount (D63): a page of tenants' tasks and runs counted per group, never a walk
// of the tables (they hold every tenant's rows): the tasks by the tenant index (a range over the
// page's tenants, the group's partitions a filter on the rows); the runs by the tenant index or, as
// MariaDB prefers where few runs are running, the running and the marked ones (index_merge of
// workflows_by_state and workflows_quota_release), and an occurrence's job by its primary key.
const PAGE = () => Array.from({ length: 20 }, (_, i) => Buffer.from(String(i * 7).padStart(16, 't')));
const GROUP = () => EVERY.slice(0, EVERY.length / 2);
/** Read by an index, and a small part of the table's 10,000 rows. */
const byIndex = (row: RowDataPacket) => [
  ['range', 'ref', 'index_merge'].includes(String(row.type)),
  Number(row.rows) < 1_000,
];
it('recount-live-tasks reads a range of the tenants in their index, not the table', async () => {
  await addRunsAndTasks();
  const rows = await explain('tasks/recount-live-tasks.sql', [GROUP(), PAGE()]);
  const t = of(rows, 'tasks');
  expect(byIndex(t), JSON.stringify(rows)).toEqual([true, true]);
  expect(String(t.key), JSON.stringify(rows)).toMatch(/^tasks_(by_tenant|live_key)$/);
});

it('recount-live-runs reads the runs by an index, not the table, and the job by its primary key', async () => {
  await addRunsAndTasks();
  const rows = await explain('tasks/recount-live-runs.sql', [GROUP(), PAGE()]);
  expect(byIndex(of(rows, 'w')), JSON.stringify(rows)).toEqual([true, true]);
  expect([of(rows, 'j').type, of(rows, 'j').key], JSON.stringify(rows)).toEqual(['eq_ref', 'PRIMARY']);
});
