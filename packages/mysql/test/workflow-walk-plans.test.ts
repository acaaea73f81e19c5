import { createWorkflowSchema, planWorkflow } from '@dsched/domain';
import { createTenantWithKey } from '@dsched/testkit/fixtures';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import type { RowDataPacket } from 'mysql2/promise';
import { beforeAll, expect, it } from 'vitest';
import { idToBin } from '../src/ids.ts';
import { loadSql, withCaseColumns, withCaseGroups } from '../src/sql.ts';
import { insertWorkflow } from '../src/workflows/workflow-submit.ts';

// The walk's statements reach children through the edges by the parent's key, whatever the
// statistics say: on a run just stored (fresh statistics, the state of every large run at its
// start) the optimizer otherwise reads workflow_edges by the run alone, through
// workflow_edges_by_child, or starts from the workflows table: a scan of the run's edges per
// outcome batch (a 3,000-node fan-out took 46 s instead of 5, docs/performance.md).

const SQL_DIR = new URL('../src/workflows/', import.meta.url).href;
const db = useTestDatabase(import.meta.url);
let workflowId: Buffer;

beforeAll(async () => {
  const tenant = await createTenantWithKey(db.pool);
  const req = createWorkflowSchema.parse({
    name: 'plans',
    nodes: [
      { id: 'root', target: { url: 'http://127.0.0.1:9/' } },
      ...Array.from({ length: 500 }, (_, i) => ({
        id: `m${i}`,
        target: { url: 'http://127.0.0.1:9/' },
        dependsOn: ['root'],
      })),
      {
        id: 'join',
        target: { url: 'http://127.0.0.1:9/' },
        dependsOn: Array.from({ length: 500 }, (_, i) => `m${i}`),
      },
    ],
  });
  const plan = planWorkflow(req, tenant.id, Date.now(), 0);
  expect(await insertWorkflow(db.pool, plan)).toBe(true);
  workflowId = idToBin(plan.id);
});

/** Every table node of an EXPLAIN FORMAT=JSON plan, by its alias. */
function tables(json: string): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  const walk = (node: unknown) => {
    if (!node || typeof node !== 'object') return;
    const o = node as Record<string, unknown>;
    const t = o.table as Record<string, unknown> | undefined;
    if (t && typeof t === 'object' && typeof t.table_name === 'string') out.set(t.table_name, t);
    for (const v of Object.values(o)) walk(v);
  };
  walk(JSON.parse(json));
  return out;
}

// The run's partition (planWorkflow's last argument): every walk statement is keyed by it.
const PARTITION = 0;
const parents = () => Array.from({ length: 20 }, (_, i) => [workflowId, `m${i}`]);
/** The parents' placeholders of the walk's statements (walk-count-select.sql): bounds, partitions, keys. */
const told = (after: string, upto: string | null, keys: unknown[][]) => [
  after,
  upto,
  upto,
  [PARTITION],
  keys,
];

// The parents are read by their own key (p), then the edges by (workflow, parent).
it.each([
  ['walk-count-select.sql', () => told('', null, parents())],
  ['walk-node-jobs-insert.sql', () => [...told('', null, parents()), [PARTITION], 1]],
  ['walk-node-job-tags.sql', () => [...told('', null, parents()), 1]],
  ['retry-descendants.sql', () => [PARTITION, workflowId, parents().map(([, n]) => n), 1, 100]],
] as const)('%s reads the edges by (workflow, parent), the run by its id', async (file, params) => {
  const t = await plan(file, params());
  const edges = t.get('e');
  expect(edges, t.json).toBeDefined();
  expect(edges!.key, t.json).toBe('PRIMARY');
  expect(edges!.used_key_parts, t.json).toEqual(['workflow_id', 'parent_id']);
  // The parents, where the statement reads them, by their primary key.
  const parent = t.get('p');
  if (parent) expect(parent.key, t.json).toBe('PRIMARY');
  // The run's row, where the statement reads it, by its primary key.
  const run = t.get('w');
  if (run) expect([run.key, run.used_key_parts], t.json).toEqual(['PRIMARY', ['id']]);
  // The children, by theirs.
  const child = t.get('c');
  if (child) expect(child.key, t.json).toBe('PRIMARY');
});

// A wide parent's slice is alone in its statement: its bounds are constants, so the edges are a
// range of the primary key over the slice's children only, not every child of the parent per slice
// (a 100,000-child parent in slices of 2,000 would otherwise read 2.5 million entries). The
// tabular EXPLAIN: the JSON one prints the constants, the run's binary id among them, raw.
const slice = () => told('m100', 'm199', [[workflowId, 'root']]);
it.each([
  ['walk-count-select.sql', () => slice()],
  ['walk-node-jobs-insert.sql', () => [...slice(), [PARTITION], 1]],
] as const)('%s reads a slice as a range of the edges (workflow, parent, child)', async (file, params) => {
  const [rows] = await db.pool.query<RowDataPacket[]>(`EXPLAIN ${loadSql(SQL_DIR, file)}`, params());
  const edges = rows.find((r) => r.table === 'e');
  expect(edges, JSON.stringify(rows)).toBeDefined();
  // All three parts of the key: 16 bytes of run id and two VARCHAR(100) ids (ascii, 2-byte length).
  expect([edges!.type, edges!.key, Number(edges!.key_len)]).toEqual(['range', 'PRIMARY', 16 + 102 + 102]);
  expect(Number(edges!.rows)).toBeLessThan(200);
});

// The statements that take a batch's nodes by their keys name the primary key: left to itself the
// optimizer weighed workflow_nodes_by_state (or the walk queue's index) for each (run, node) pair,
// 5 ms for 100 keys on a 30,000-node run against 0.7 ms forced, or scanned a run just stored.
const keys = () => Array.from({ length: 50 }, (_, i) => [workflowId, `m${i}`]);
it.each([
  ['walk-finished-check.sql', () => [[PARTITION], keys(), 1]],
  ['node-inputs-select.sql', () => [keys()]],
  ['walk-pending-clear.sql', () => [[PARTITION], keys()]],
  ['walk-defer.sql', () => [[PARTITION], keys()]],
] as const)('%s reads the nodes by their primary key', async (file, params) => {
  const [rows] = await db.pool.query<RowDataPacket[]>(`EXPLAIN ${loadSql(SQL_DIR, file)}`, params());
  const nodes = rows.find((r) => r.table === 'workflow_nodes');
  expect([nodes?.key, nodes?.possible_keys, Number(nodes?.key_len)], JSON.stringify(rows)).toEqual([
    'PRIMARY',
    'PRIMARY',
    16 + 102,
  ]);
});

// A single-table UPDATE by the nodes' keys (each row's state and attempt a CASE on its job id): a
// range of the primary key over the batch's (run, node) pairs.
it('walk-finish-nodes.sql reads the nodes by their primary key', async () => {
  const statement = withCaseColumns(
    loadSql(SQL_DIR, 'walk-finish-nodes.sql'),
    keys().map((_, i) => [Buffer.alloc(16, i), 'succeeded', 1]),
    [1, [PARTITION], keys(), keys().map((_, i) => Buffer.alloc(16, i))],
  );
  const [rows] = await db.pool.query<RowDataPacket[]>(`EXPLAIN ${statement.sql}`, statement.params);
  const nodes = rows.find((r) => r.table === 'workflow_nodes');
  expect([nodes?.key, nodes?.type, Number(nodes?.key_len)], JSON.stringify(rows)).toEqual([
    'PRIMARY',
    'range',
    16 + 102,
  ]);
});

// The children a step found (walk-count-select.sql) are counted and decided by their keys: single-
// table UPDATEs over a range of the nodes' primary key (a CASE on the job id for each count), the
// run's row, where walk-decide.sql reads it, by its primary key.
const children = () => Array.from({ length: 50 }, (_, i) => [workflowId, `m${i}`]);
const jobIds = () => children().map((_, i) => Buffer.alloc(16, i));
it.each([
  [
    'walk-count.sql',
    () =>
      withCaseGroups(
        loadSql(SQL_DIR, 'walk-count.sql'),
        'c.job_id',
        { n: jobIds().map((id, i) => [id, 1 + (i % 3)]), failed: [[jobIds()[0], 1]], skipped: [] },
        [1, [PARTITION], children()],
      ),
    false,
  ],
  [
    'walk-decide.sql',
    () => ({ sql: loadSql(SQL_DIR, 'walk-decide.sql'), params: [[PARTITION], children(), 1] }),
    true,
  ],
] as const)('%s reads the children by their primary key', async (_file, statement, readsRun) => {
  const { sql, params } = statement();
  const t = tables(await explainJson(sql, params));
  const child = t.get('c');
  expect([child?.key, child?.access_type], JSON.stringify([...t])).toEqual(['PRIMARY', 'range']);
  const run = t.get('w');
  if (readsRun) expect([run?.key, run?.used_key_parts], JSON.stringify([...t])).toEqual(['PRIMARY', ['id']]);
});

async function explainJson(sql: string, params: readonly unknown[]): Promise<string> {
  const [explained] = await db.pool.query<RowDataPacket[]>(`EXPLAIN FORMAT=JSON ${sql}`, params as unknown[]);
  return String(explained[0]!.EXPLAIN);
}

async function plan(
  file: string,
  params: readonly unknown[],
): Promise<Map<string, Record<string, unknown>> & { json: string }> {
  const json = await explainJson(loadSql(SQL_DIR, file), params);
  return Object.assign(tables(json), { json });
}
