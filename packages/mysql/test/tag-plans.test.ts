import { newId } from '@dsched/domain';
import { createTenantWithKey, insertJobs } from '@dsched/testkit/fixtures';
import { createTestDatabase, type TestDatabase } from '@dsched/testkit/mysql';
import type { RowDataPacket } from 'mysql2/promise';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { idToBin } from '../src/ids.ts';
import { loadSql } from '../src/sql.ts';

// A tag-filtered page (docs/tags.md) is one range of a tag index table walked in the list's order,
// each resource then read by its primary key: never a scan of the tenant's rows, never a sort. The
// plans are checked on whichever engine the suite runs on (MariaDB, and MySQL under
// `pnpm test:mysql`), with index rows of other tags and tenants around so the range matters.

const SRC = new URL('../src/', import.meta.url).href;
let db: TestDatabase;
let tenant: Buffer;

beforeAll(async () => {
  db = await createTestDatabase(import.meta.url);
  tenant = idToBin((await createTenantWithKey(db.pool)).id);
  const other = idToBin(newId());
  const at = (i: number) => new Date(Date.now() - i * 60_000);
  const rows = Array.from({ length: 200 }, (_, i) => ({
    tenant: i % 4 === 0 ? other : tenant,
    tag: `group:g${i % 20}`,
    at: at(i),
    id: idToBin(newId()),
  }));
  for (const table of ['job_tags', 'workflow_tags']) {
    const time = table === 'job_tags' ? 'scheduled_for' : 'created_at';
    const id = table === 'job_tags' ? 'job_id' : 'workflow_id';
    await db.pool.query(`INSERT INTO ${table} (tenant_id, tag, ${time}, ${id}, \`partition\`) VALUES ?`, [
      rows.map((r, i) => [r.tenant, r.tag, r.at, r.id, i % 64]),
    ]);
  }
  await db.pool.query('INSERT INTO task_tags (tenant_id, tag, task_id) VALUES ?', [
    rows.map((r) => [r.tenant, r.tag, r.id]),
  ]);
  await db.pool.query('ANALYZE TABLE job_tags, workflow_tags, task_tags');
});
afterAll(async () => {
  await db.close();
});

async function explain(
  file: string,
  params: unknown[],
  ...markers: [string, string][]
): Promise<RowDataPacket[]> {
  let sql = loadSql(SRC, file);
  for (const [marker, text] of markers) sql = sql.replace(marker, text);
  const [rows] = await db.pool.query<RowDataPacket[]>(`EXPLAIN ${sql}`, params);
  return rows;
}

const cursor = () => {
  const now = new Date();
  return [now, now, now, idToBin(newId())];
};
const filter = JSON.stringify({ group: 'g1' });

it.each([
  [
    'jobs/lists/tagged-jobs-page.sql',
    'jt',
    'j',
    () => [tenant, 'group:g1', new Date(0), ...cursor(), filter, 'dead', 'dead', 50],
  ],
  [
    'workflows/workflows-tagged-page.sql',
    'wt',
    'w',
    () => [tenant, 'group:g1', new Date(0), ...cursor(), filter, null, null, null, null, 50],
  ],
] as const)(
  '%s walks one tag’s index range in order, the rows by primary key',
  async (file, index, resource, params) => {
    const rows = await explain(file, params());
    const plan = JSON.stringify(rows);
    expect(
      rows.map((r) => r.table),
      plan,
    ).toEqual([index, resource]);
    const [walk, read] = rows;
    expect([walk!.type, walk!.key], plan).toEqual(['range', 'PRIMARY']);
    expect(String(walk!.Extra), plan).not.toMatch(/filesort|temporary/i);
    expect([read!.type, read!.key], plan).toEqual(['eq_ref', 'PRIMARY']);
  },
);

it.each([
  ['with a state', ['AND t.state = ?', 'active']],
  ['without', undefined],
] as const)('tasks/list-tasks-tagged.sql walks task_tags by (tenant, tag, id), %s', async (_, state) => {
  const params = [tenant, 'group:g1', Buffer.alloc(16), filter, ...(state ? [state[1]] : []), 50];
  const rows = await explain(
    'tasks/list-tasks-tagged.sql',
    params,
    ['%STATE%', state ? state[0] : ''],
    ['%KEY%', ''],
  );
  const plan = JSON.stringify(rows);
  expect(
    rows.map((r) => [r.table, r.type, r.key]),
    plan,
  ).toEqual([
    ['tt', 'range', 'PRIMARY'],
    ['t', 'eq_ref', 'PRIMARY'],
  ]);
  expect(String(rows[0]!.Extra), plan).not.toMatch(/filesort|temporary/i);
});

it.each([
  ['jobs/lists/job-tags-count.sql', 'job_tags', () => [tenant, 'group:g1', new Date(0), new Date(), 1000]],
  [
    'workflows/workflow-tags-count.sql',
    'workflow_tags',
    () => [tenant, 'group:g1', new Date(0), new Date(), 1000],
  ],
  ['tasks/task-tags-count.sql', 'task_tags', () => [tenant, 'group:g1', Buffer.alloc(16), 1000]],
] as const)('%s counts one tag’s range of %s', async (file, table, params) => {
  const rows = await explain(file, params());
  const scan = rows.find((r) => r.table === table);
  expect([scan?.type, scan?.key], JSON.stringify(rows)).toEqual(['range', 'PRIMARY']);
});

it('workflows-page.sql (no tag) walks workflows_by_tenant_created without a sort', async () => {
  const rows = await explain('workflows/workflows-page.sql', [
    tenant,
    new Date(0),
    ...cursor(),
    null,
    null,
    null,
    null,
    50,
  ]);
  const plan = JSON.stringify(rows);
  expect([rows[0]!.key, rows.length], plan).toEqual(['workflows_by_tenant_created', 1]);
  expect(String(rows[0]!.Extra), plan).not.toMatch(/filesort/i);
});

it('jobs/job-tags-read.sql reads the jobs just made by primary key, among many', async () => {
  const tenantId = (await createTenantWithKey(db.pool)).id;
  const ids = await insertJobs(
    db.pool,
    Array.from({ length: 300 }, (_, i) => ({
      tenantId,
      taskId: null,
      scheduledFor: new Date(Date.now() - i * 1000),
      state: 'pending' as const,
      partition: i % 4,
    })),
  );
  await db.pool.query('ANALYZE TABLE jobs');
  const rows = await explain('jobs/job-tags-read.sql', [
    [0, 2],
    [idToBin(ids[0]!), idToBin(ids[2]!)],
  ]);
  const plan = JSON.stringify(rows);
  expect(
    rows.map((r) => [r.table, r.type, r.key]),
    plan,
  ).toEqual([['jobs', 'range', 'PRIMARY']]);
});
