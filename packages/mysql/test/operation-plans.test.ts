import { newId, type OperationAction, type OperationFilter } from '@dsched/domain';
import { createTask, createTenantWithKey, cronTask, insertJobs } from '@dsched/testkit/fixtures';
import { createTestDatabase, type TestDatabase } from '@dsched/testkit/mysql';
import type { RowDataPacket } from 'mysql2/promise';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { idToBin } from '../src/ids.ts';
import { firstCursor, walkStatement } from '../src/operations/operation-walks.ts';
import { loadSql } from '../src/sql.ts';

// A bulk operation's batch (docs/bulk-operations.md) is one range of one index walked forward from the
// cursor, each row then read by primary key: never a scan of the tenant's jobs, never a sort, so a
// batch costs the same at the start of a 50,000-job operation as at its end. Checked on whichever
// engine the suite runs on (MariaDB, and MySQL under `pnpm test:mysql`), with rows of other tags,
// tasks and tenants around so the range matters.

const SRC = new URL('../src/', import.meta.url).href;
let db: TestDatabase;
let tenantId: string;
let taskId: string;

beforeAll(async () => {
  db = await createTestDatabase(import.meta.url);
  tenantId = (await createTenantWithKey(db.pool)).id;
  const other = (await createTenantWithKey(db.pool, 'other')).id;
  const tasks = await Promise.all(
    Array.from({ length: 8 }, (_, i) =>
      createTask(db.pool, cronTask(i % 4 === 0 ? other : tenantId, { tags: { group: `g${i % 3}` } })),
    ),
  );
  taskId = tasks[1]!.id;
  await insertJobs(
    db.pool,
    Array.from({ length: 400 }, (_, i) => ({
      tenantId: i % 5 === 0 ? other : tenantId,
      taskId: tasks[i % 8]!.id,
      scheduledFor: new Date(Date.now() - i * 60_000),
      state: (['pending', 'running', 'dead', 'succeeded'] as const)[i % 4]!,
      tags: { group: `g${i % 20}` },
    })),
  );
  await db.pool.query('ANALYZE TABLE jobs, job_tags, tasks, task_tags, operations');
});
afterAll(async () => {
  await db.close();
});

const filter = (f: Partial<OperationFilter>): OperationFilter => ({
  taskId: null,
  tags: null,
  state: null,
  from: null,
  to: null,
  errorContains: null,
  ...f,
});

async function explain(action: OperationAction, f: OperationFilter): Promise<RowDataPacket[]> {
  const { sql, params } = walkStatement(tenantId, action, f, firstCursor(f), 500);
  const [rows] = await db.pool.query<RowDataPacket[]>(`EXPLAIN ${sql}`, params);
  return rows;
}

const plainly = (rows: RowDataPacket[]) => rows.map((r) => [r.table, r.type, r.key]);

it.each(['cancel', 'redrive', 'retry'] as const)(
  'a %s by tag walks job_tags by (tenant, tag, scheduled_for, id), each job by primary key',
  async (action) => {
    const rows = await explain(action, filter({ tags: { group: 'g1' }, state: null }));
    const plan = JSON.stringify(rows);
    expect(plainly(rows), plan).toEqual([
      ['jt', 'range', 'PRIMARY'],
      ['j', 'eq_ref', 'PRIMARY'],
    ]);
    expect(String(rows[0]!.Extra), plan).not.toMatch(/filesort|temporary/i);
  },
);

it.each([
  ['a task', { taskId: '' }, 'jobs_by_task'],
  ['a time range', { from: new Date(Date.now() - 3600_000), to: new Date() }, 'jobs_by_tenant_time'],
  // An error's text is read from the row: the walk and its index stay the same.
  [
    'a time range and an error text',
    { from: new Date(Date.now() - 3600_000), to: new Date(), errorContains: 'http 503' },
    'jobs_by_tenant_time',
  ],
  ['a task and an error text', { taskId: '', errorContains: 'http 503' }, 'jobs_by_task'],
] as const)('a cancel by %s walks %s without a sort', async (_, f, index) => {
  const rows = await explain('cancel', filter({ ...f, ...('taskId' in f ? { taskId } : {}) }));
  const plan = JSON.stringify(rows);
  expect(plainly(rows), plan).toEqual([['j', 'range', index]]);
  expect(String(rows[0]!.Extra), plan).not.toMatch(/filesort|temporary/i);
});

it('a pause by tag walks task_tags by (tenant, tag, id), each task by primary key', async () => {
  const rows = await explain('pause', filter({ tags: { group: 'g1' } }));
  const plan = JSON.stringify(rows);
  expect(plainly(rows), plan).toEqual([
    ['tt', 'range', 'PRIMARY'],
    ['t', 'eq_ref', 'PRIMARY'],
  ]);
  expect(String(rows[0]!.Extra), plan).not.toMatch(/filesort|temporary/i);
});

it.each([
  [
    'operations/operations-page.sql',
    () => [idToBin(tenantId), Buffer.alloc(16, 0xff), 50],
    'operations_by_tenant',
  ],
  ['operations/operation-leased.sql', () => ['owner'], 'operations_running'],
] as const)('%s reads %s', async (file, params, index) => {
  await db.pool.query(
    `INSERT INTO operations (id, tenant_id, action, filter, state, matched, created_at, updated_at)
     VALUES ?`,
    [
      Array.from({ length: 50 }, (_, i) => [
        idToBin(newId()),
        idToBin(tenantId),
        'cancel',
        '{}',
        i % 10 === 0 ? 'running' : 'succeeded',
        0,
        new Date(),
        new Date(),
      ]),
    ],
  );
  await db.pool.query('ANALYZE TABLE operations');
  const [rows] = await db.pool.query<RowDataPacket[]>(`EXPLAIN ${loadSql(SRC, file)}`, params());
  const plan = JSON.stringify(rows);
  expect(rows[0]!.key, plan).toBe(index);
  expect(String(rows[0]!.Extra), plan).not.toMatch(/filesort/i);
});
