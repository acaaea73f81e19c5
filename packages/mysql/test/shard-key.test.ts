import {
  type ClaimedJob,
  DEFAULT_PARTITIONS,
  dueBatchDecision,
  newId,
  type OutcomeWrite,
  partitionOfId,
} from '@dsched/domain';
import { createTask, createTenantWithKey, onceTask } from '@dsched/testkit/fixtures';
import { claimDue } from '@dsched/testkit/queue';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import { submitWorkflow } from '@dsched/testkit/workflows';
import type { RowDataPacket } from 'mysql2/promise';
import { beforeAll, describe, expect, it } from 'vitest';
import { binToId, idToBin } from '../src/ids.ts';
import { OUTCOME_ATTEMPT_COLUMNS, recordOutcomes } from '../src/jobs/outcome/outcomes.ts';
import { materialiseDueBatch } from '../src/scheduler/materialise.ts';
import { clockedSql, loadSql, withRows } from '../src/sql.ts';
import { recordOccurrenceSkips } from '../src/tasks/occurrence-skips.ts';
import { registerWorkflowFollowUps } from '../src/workflows/finish-follow-ups.ts';
import { planTableNodes } from './plans.ts';

// The shard key (docs/sharding.md, migration 0061): every row of the hot tables carries its
// owner's partition (a task's jobs, skips and callback jobs the task's; a run's nodes, edges,
// outputs, tags and node jobs the run's; attempts their job's), and every job and run id made
// since carries it in its last two bytes. Checked on rows the product's own paths wrote, in
// partitions other than 0 (a path that wrote 0, or forgot the column, fails here).

registerWorkflowFollowUps();

const db = useTestDatabase(import.meta.url);
const SRC = new URL('../src/', import.meta.url).href;
const TASK_PARTITION = 37;
const RUN_PARTITION = 21;

const success = (job: ClaimedJob, responseBody?: string): OutcomeWrite => ({
  job,
  transition: { to: 'succeeded', lastStatus: 200, lastError: null },
  attempt: { status: 200, errorClass: null, error: null, durationMs: 1 },
  ...(responseBody !== undefined ? { responseBody } : {}),
});

async function rows(sql: string, params: unknown[] = []): Promise<RowDataPacket[]> {
  const [r] = await db.pool.query<RowDataPacket[]>(sql, params);
  return r;
}

/** Rows whose partition is not their owner's, per table: every count must be 0. */
const MISPLACED: Record<string, string> = {
  'task jobs':
    'SELECT COUNT(*) AS n FROM jobs j JOIN tasks t ON t.id = j.task_id WHERE j.`partition` <> t.`partition`',
  'node jobs':
    'SELECT COUNT(*) AS n FROM jobs j JOIN workflows w ON w.id = j.workflow_id WHERE j.`partition` <> w.`partition`',
  attempts:
    'SELECT COUNT(*) AS n FROM job_attempts a JOIN jobs j ON j.id = a.job_id WHERE a.`partition` <> j.`partition`',
  skips:
    'SELECT COUNT(*) AS n FROM occurrence_skips s JOIN tasks t ON t.id = s.task_id WHERE s.`partition` <> t.`partition`',
  nodes:
    'SELECT COUNT(*) AS n FROM workflow_nodes x JOIN workflows w ON w.id = x.workflow_id WHERE x.`partition` <> w.`partition`',
  edges:
    'SELECT COUNT(*) AS n FROM workflow_edges x JOIN workflows w ON w.id = x.workflow_id WHERE x.`partition` <> w.`partition`',
  outputs:
    'SELECT COUNT(*) AS n FROM workflow_node_outputs x JOIN workflows w ON w.id = x.workflow_id WHERE x.`partition` <> w.`partition`',
  'job tags':
    'SELECT COUNT(*) AS n FROM job_tags g JOIN jobs j ON j.id = g.job_id WHERE g.`partition` <> j.`partition`',
  'run tags':
    'SELECT COUNT(*) AS n FROM workflow_tags g JOIN workflows w ON w.id = g.workflow_id WHERE g.`partition` <> w.`partition`',
};

describe('the shard key', () => {
  let taskId: string;
  let runId: string;

  beforeAll(async () => {
    const tenant = await createTenantWithKey(db.pool, 'shard-key');
    const task = await createTask(
      db.pool,
      onceTask(tenant.id, new Date(Date.now() - 1000), {
        tags: { team: 'ops' },
        callbacks: { onSuccess: 'http://127.0.0.1:9/ok' },
      }),
      TASK_PARTITION,
    );
    taskId = task.id;
    // materialise: the task's job (and its tag row) in the task's partition.
    const made = await materialiseDueBatch(db.pool, {
      scope: { unleased: [TASK_PARTITION] },
      lookaheadMs: 0,
      limit: 100,
      decide: dueBatchDecision({
        maxJobs: 100,
        plan: { misfireThresholdMs: 60_000, maxCatchUp: 100, maxPerPass: 100 },
      }),
    });
    expect(made.jobsInserted).toBe(1);
    await recordOccurrenceSkips(db.pool, [
      {
        taskId,
        partition: TASK_PARTITION,
        from: new Date(Date.now() - 60_000),
        to: new Date(Date.now() - 30_000),
        reason: 'misfire',
      },
    ]);
    // A run in its own partition: nodes, edges, tags, root jobs; then outputs and the walk's jobs.
    const wf = await submitWorkflow(db.pool, tenant.id, [{ id: 'a' }, { id: 'b', dependsOn: ['a'] }], {
      extra: { tags: { run: 'r1' } },
      partition: RUN_PARTITION,
    });
    runId = wf.id;
    // The task's job and the run's root: outcome (attempts, callback job, output, the walk).
    const first = (await claimDue(db.pool, { limit: 10, owner: 'exec-shard' })).jobs;
    expect(first).toHaveLength(2);
    expect(
      await recordOutcomes(
        db.pool,
        first.map((j) => success(j, '{"ok":1}')),
      ),
    ).toEqual([]);
    // The run's second node (made by the walk) and the callback job, then their outcomes.
    const second = (await claimDue(db.pool, { limit: 10, owner: 'exec-shard' })).jobs;
    expect(second.map((j) => j.kind).sort()).toEqual(['callback', 'workflow']);
    expect(
      await recordOutcomes(
        db.pool,
        second.map((j) => success(j, '{"ok":2}')),
      ),
    ).toEqual([]);
  });

  it('is written on every row a task and a run made, as their owner’s partition', async () => {
    for (const [what, sql] of Object.entries(MISPLACED)) {
      const [r] = await rows(sql);
      expect({ what, n: Number(r!.n) }).toEqual({ what, n: 0 });
    }
    const taskJobs = await rows('SELECT kind, `partition` FROM jobs WHERE task_id = ? ORDER BY kind', [
      idToBin(taskId),
    ]);
    expect(taskJobs.map((r) => [r.kind, r.partition])).toEqual([
      ['callback', TASK_PARTITION],
      ['scheduled', TASK_PARTITION],
    ]);
    const counts = async (table: string, partition: number) =>
      Number((await rows(`SELECT COUNT(*) AS n FROM ${table} WHERE \`partition\` = ?`, [partition]))[0]!.n);
    expect(await counts('job_attempts', TASK_PARTITION)).toBe(2);
    expect(await counts('occurrence_skips', TASK_PARTITION)).toBe(1);
    expect(await counts('job_tags', TASK_PARTITION)).toBe(1);
    expect(await counts('workflows', RUN_PARTITION)).toBe(1);
    expect(await counts('workflow_nodes', RUN_PARTITION)).toBe(2);
    expect(await counts('workflow_edges', RUN_PARTITION)).toBe(1);
    expect(await counts('workflow_node_outputs', RUN_PARTITION)).toBe(2);
    expect(await counts('workflow_tags', RUN_PARTITION)).toBe(1);
    expect(await counts('jobs', RUN_PARTITION)).toBe(2);
    expect(await counts('job_attempts', RUN_PARTITION)).toBe(2);
    expect(await counts('job_tags', RUN_PARTITION)).toBe(2);
  });

  it('is carried by every job and run id made since', async () => {
    const ids = await rows(
      'SELECT id, `partition` FROM jobs UNION ALL SELECT id, `partition` FROM workflows',
    );
    expect(ids).toHaveLength(5);
    for (const r of ids) expect(partitionOfId(binToId(r.id), DEFAULT_PARTITIONS)).toBe(Number(r.partition));
    expect(partitionOfId(runId, DEFAULT_PARTITIONS)).toBe(RUN_PARTITION);
  });
});

async function planTables(sql: string, params: unknown[]): Promise<Map<string, Record<string, unknown>>> {
  const [p] = await db.pool.query<RowDataPacket[]>(`EXPLAIN FORMAT=JSON ${sql}`, params);
  return planTableNodes(JSON.parse(String(p[0]!.EXPLAIN)));
}

// The writes that take the partition from their owner's row (which their transaction holds
// locked) read that row by its primary key, one lookup per written row: never a scan.
describe('the plans of the writes that read their owner’s partition', () => {
  const id = () => idToBin(newId());
  // The last element: the parameters after the rows (the keyed reads' partitions, docs/sharding.md).
  const cases: [string, string, string, string[], unknown[][], unknown[]][] = [
    [
      'outcome-attempts.sql',
      clockedSql(loadSql(SRC, './jobs/outcome/outcome-attempts.sql'))(),
      'j',
      [...OUTCOME_ATTEMPT_COLUMNS],
      [0, 1].map(() => [id(), 1, 'e', new Date(), 200, null, null, 1]),
      [[0, 1]],
    ],
    [
      'outcome-attempts-parked.sql',
      clockedSql(loadSql(SRC, './jobs/outcome/outcome-attempts-parked.sql'))(),
      'p',
      [...OUTCOME_ATTEMPT_COLUMNS, 'parked'],
      [0, 1].map(() => [id(), 1, 'e', new Date(), 202, null, null, 1, 1]),
      [[0, 1]],
    ],
    [
      'node-outputs-upsert.sql',
      loadSql(SRC, './workflows/node-outputs-upsert.sql'),
      'j',
      ['workflow_id', 'node_id', 'attempt', 'output', 'job_id'],
      [0, 1].map((i) => [id(), `n${i}`, 1, '{}', id()]),
      [[0, 1]],
    ],
    [
      'occurrence-skips-insert.sql',
      loadSql(SRC, './tasks/occurrence-skips-insert.sql'),
      't',
      ['task_id', 'skipped_from', 'skipped_to', 'reason', 'created_at'],
      [0, 1].map(() => [id(), new Date(), new Date(), 'misfire', new Date()]),
      [[0, 1]],
    ],
  ];
  for (const [file, sql, owner, columns, values, after] of cases) {
    it(`${file} reads the owner (${owner}) by its primary key`, async () => {
      const { sql: text, params } = withRows(sql, columns, values);
      const tables = await planTables(text, [...params, ...after]);
      const t = tables.get(owner);
      expect(t, `no ${owner} in the plan of ${file}`).toBeDefined();
      expect(t!.key).toBe('PRIMARY');
      expect(t!.access_type).toBe('eq_ref');
    });
  }
});
