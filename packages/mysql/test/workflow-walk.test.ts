import {
  type ClaimedJob,
  createWorkflowSchema,
  type JobTransition,
  planWorkflow,
  type WorkflowPlan,
} from '@dsched/domain';
import { createTenantWithKey } from '@dsched/testkit/fixtures';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import {
  claimNodeJobs,
  drainNodeJobs,
  type NodeReq,
  nodeStates as nodeStatesOf,
  runState as runStateOf,
  submitWorkflow,
} from '@dsched/testkit/workflows';
import type { RowDataPacket } from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { idToBin } from '../src/ids.ts';
import { redriveJobs } from '../src/jobs/control/redrive.ts';
import { recordOutcomes } from '../src/jobs/outcome/outcomes.ts';
import { withTransaction } from '../src/transaction.ts';
import { cancelWorkflow, retryWorkflowNode, setWorkflowPaused } from '../src/workflows/workflow-control.ts';
import { insertWorkflow } from '../src/workflows/workflow-submit.ts';
import { advanceWorkflows } from '../src/workflows/workflow-walk.ts';

// The walk on real MariaDB: submission stores a run and its roots' jobs in one transaction; each
// outcome batch finishes its nodes, counts their children off and makes the ready ones jobs.

const db = useTestDatabase(import.meta.url);

const submit = (tenantId: string, nodes: NodeReq[], extra: Record<string, unknown> = {}) =>
  submitWorkflow(db.pool, tenantId, nodes, { extra });
const nodeStates = (wf: WorkflowPlan) => nodeStatesOf(db.pool, wf);
const runState = (wf: WorkflowPlan) => runStateOf(db.pool, wf);
const claim = (limit = 500) => claimNodeJobs(db.pool, limit);
const drain = (decide: (job: ClaimedJob) => JobTransition['to'], batch = 500) =>
  drainNodeJobs(db.pool, decide, batch);

describe('submission', () => {
  it('stores the run, its nodes and edges, and makes jobs of its roots only', async () => {
    const t = await createTenantWithKey(db.pool, 'submit');
    const wf = await submit(t.id, [{ id: 'a' }, { id: 'b', dependsOn: ['a'] }, { id: 'c' }]);
    expect(await nodeStates(wf)).toEqual({ a: 'pending', b: 'waiting', c: 'pending' });
    const [jobs] = await db.pool.query<RowDataPacket[]>(
      'SELECT node_id, kind, task_id FROM jobs WHERE workflow_id = ? ORDER BY node_id',
      [idToBin(wf.id)],
    );
    expect(jobs.map((j) => [j.node_id, j.kind, j.task_id])).toEqual([
      ['a', 'workflow', null],
      ['c', 'workflow', null],
    ]);
    await drain(() => 'succeeded');
  });

  it('counts a running run against maxTasks, and frees it when the run ends', async () => {
    const t = await createTenantWithKey(db.pool, 'quota');
    await db.pool.query('UPDATE tenants SET max_tasks = 1 WHERE id = ?', [idToBin(t.id)]);
    const wf = await submit(t.id, [{ id: 'a' }]);
    const req = createWorkflowSchema.parse({
      name: 'x',
      nodes: [{ id: 'a', target: { url: 'http://x.test/' } }],
    });
    expect(await insertWorkflow(db.pool, planWorkflow(req, t.id, Date.now(), 0))).toBe(false);
    await drain(() => 'succeeded');
    expect(await runState(wf)).toBe('succeeded');
    expect(await insertWorkflow(db.pool, planWorkflow(req, t.id, Date.now(), 0))).toBe(true);
    await drain(() => 'succeeded');
  });
});

describe('the walk', () => {
  it('runs a diamond in dependency order, each node once, and finishes the run', async () => {
    const t = await createTenantWithKey(db.pool, 'diamond');
    const wf = await submit(t.id, [
      { id: 'a' },
      { id: 'b', dependsOn: ['a'] },
      { id: 'c', dependsOn: ['a'] },
      { id: 'd', dependsOn: ['b', 'c'] },
    ]);
    const order = (await drain(() => 'succeeded')).map((j) => j.nodeId);
    expect(order[0]).toBe('a');
    expect(order[3]).toBe('d');
    expect(order.toSorted()).toEqual(['a', 'b', 'c', 'd']);
    expect(await nodeStates(wf)).toEqual({ a: 'succeeded', b: 'succeeded', c: 'succeeded', d: 'succeeded' });
    expect(await runState(wf)).toBe('succeeded');
  });

  it('keeps a child of two parents waiting, with no job, until its second parent has finished', async () => {
    const t = await createTenantWithKey(db.pool, 'two-parents');
    const wf = await submit(t.id, [{ id: 'a' }, { id: 'b' }, { id: 'd', dependsOn: ['a', 'b'] }]);
    const jobs = await claim(10);
    const done = (nodeId: string) =>
      recordOutcomes(db.pool, [
        {
          job: jobs.find((j) => j.nodeId === nodeId)!,
          transition: { to: 'succeeded', lastStatus: 200, lastError: null },
          attempt: { status: 200, errorClass: null, error: null, durationMs: 1 },
        },
      ]);
    await done('a');
    expect((await nodeStates(wf)).d).toBe('waiting');
    const dJobs = async () => {
      const [r] = await db.pool.query<RowDataPacket[]>(
        "SELECT COUNT(*) AS n FROM jobs WHERE workflow_id = ? AND node_id = 'd'",
        [idToBin(wf.id)],
      );
      return Number(r[0]!.n);
    };
    expect(await dJobs()).toBe(0);
    await done('b');
    expect((await nodeStates(wf)).d).toBe('pending');
    expect(await dJobs()).toBe(1);
    await drain(() => 'succeeded');
    expect(await runState(wf)).toBe('succeeded');
  });

  it('a fan-in of 2,000 parents finished in batches is counted exactly and its child runs once', async () => {
    const t = await createTenantWithKey(db.pool, 'fanin');
    const parents = Array.from({ length: 2000 }, (_, i) => ({ id: `p${i}` }));
    const wf = await submit(t.id, [...parents, { id: 'sink', dependsOn: parents.map((p) => p.id) }]);
    const ran = await drain(() => 'succeeded', 300);
    expect(ran.filter((j) => j.nodeId === 'sink')).toHaveLength(1);
    expect(ran).toHaveLength(2001);
    expect(await runState(wf)).toBe('succeeded');
  });

  it('a dead node makes its all_success descendants upstream_failed, transitively, past the step bound', async () => {
    const t = await createTenantWithKey(db.pool, 'chain');
    // a -> c1 -> ... -> c30: longer than one transaction's propagation bound (4 steps).
    const chain = Array.from({ length: 30 }, (_, i) => ({
      id: `c${i + 1}`,
      dependsOn: [i === 0 ? 'a' : `c${i}`],
    }));
    const wf = await submit(t.id, [{ id: 'a' }, ...chain, { id: 'other' }]);
    await drain((j) => (j.nodeId === 'a' ? 'dead' : 'succeeded'));
    // Later outcome transactions (and the reconciler) take the walk on; here, keep walking by hand.
    const { continueWalk } = await import('../src/workflows/workflow-walk.ts');
    const { finishDoneRuns } = await import('../src/workflows/workflow-runs.ts');
    const conn = await db.pool.getConnection();
    try {
      for (let i = 0; i < 10; i++) {
        await conn.beginTransaction();
        const runs = await continueWalk(conn, [wf.partition], {
          maxSteps: 4,
          stepLimit: 1000,
          maxEdges: 2000,
        });
        await finishDoneRuns(conn, [...runs.values()]);
        await conn.commit();
      }
    } finally {
      conn.release();
    }
    const states = await nodeStates(wf);
    expect(states.a).toBe('dead');
    expect(states.other).toBe('succeeded');
    for (let i = 1; i <= 30; i++) expect(states[`c${i}`]).toBe('upstream_failed');
    expect(await runState(wf)).toBe('failed');
  });

  it('trigger rules: all_done runs after a failure, one_failed runs only after one, a skip passes on', async () => {
    const t = await createTenantWithKey(db.pool, 'rules');
    const wf = await submit(t.id, [
      { id: 'ok' },
      { id: 'bad' },
      { id: 'cleanup', dependsOn: ['ok', 'bad'], trigger: 'all_done' },
      { id: 'onfail', dependsOn: ['bad'], trigger: 'one_failed' },
      { id: 'onfail-ok', dependsOn: ['ok'], trigger: 'one_failed' },
      { id: 'after-skip', dependsOn: ['onfail-ok'] },
      { id: 'strict', dependsOn: ['ok', 'bad'] },
    ]);
    const ran = (await drain((j) => (j.nodeId === 'bad' ? 'dead' : 'succeeded'))).map((j) => j.nodeId);
    expect(ran.toSorted()).toEqual(['bad', 'cleanup', 'ok', 'onfail']);
    expect(await nodeStates(wf)).toEqual({
      ok: 'succeeded',
      bad: 'dead',
      cleanup: 'succeeded',
      onfail: 'succeeded',
      'onfail-ok': 'skipped',
      'after-skip': 'skipped',
      strict: 'upstream_failed',
    });
    expect(await runState(wf)).toBe('failed');
  });

  it('fail_fast cancels what has not started and fails the run; continue lets independent branches finish', async () => {
    const t = await createTenantWithKey(db.pool, 'policies');
    const nodes: NodeReq[] = [{ id: 'bad' }, { id: 'slow' }, { id: 'next', dependsOn: ['slow'] }];
    const fast = await submit(t.id, nodes, { failurePolicy: 'fail_fast' });
    const cont = await submit(t.id, nodes, { failurePolicy: 'continue' });
    // First batch: both runs' roots. `bad` dies; `slow` succeeds in the same batch.
    const ran = await drain((j) => (j.nodeId === 'bad' ? 'dead' : 'succeeded'));
    const of = (wf: WorkflowPlan) => ran.filter((j) => j.workflowId === wf.id).map((j) => j.nodeId);
    expect(of(cont).toSorted()).toEqual(['bad', 'next', 'slow']);
    expect(of(fast)).not.toContain('next');
    expect((await nodeStates(fast)).next).toBe('cancelled');
    expect(await runState(fast)).toBe('failed');
    expect(await runState(cont)).toBe('failed');
  });

  it('a retried node runs again with the next attempt, and its children still run once', async () => {
    const t = await createTenantWithKey(db.pool, 'retry');
    const wf = await submit(t.id, [{ id: 'a' }, { id: 'b', dependsOn: ['a'] }]);
    const ran = await drain((j) => (j.nodeId === 'a' && j.attempt === 1 ? 'retry' : 'succeeded'));
    expect(ran.map((j) => `${j.nodeId}:${j.attempt}`)).toEqual(['a:1', 'a:2', 'b:1']);
    expect(await runState(wf)).toBe('succeeded');
  });
});

describe('run operations', () => {
  it('maxParallel: never more than that many nodes hold a job at once, and all of them run', async () => {
    const t = await createTenantWithKey(db.pool, 'capped');
    const wide = Array.from({ length: 20 }, (_, i) => ({ id: `w${i}` }));
    const wf = await submit(t.id, [...wide, { id: 'end', dependsOn: wide.map((w) => w.id) }], {
      maxParallel: 3,
    });
    let ran = 0;
    for (;;) {
      const [live] = await db.pool.query<RowDataPacket[]>(
        "SELECT COUNT(*) AS n FROM jobs WHERE workflow_id = ? AND state IN ('pending', 'running')",
        [idToBin(wf.id)],
      );
      expect(Number(live[0]!.n)).toBeLessThanOrEqual(3);
      // One at a time, so every outcome batch frees exactly one place.
      const batch = await drainOnce(1);
      if (batch === 0) break;
      ran += batch;
    }
    expect(ran).toBe(21);
    expect(await runState(wf)).toBe('succeeded');
  });

  it('cancel: pending jobs are cancelled, running ones asked to abort, nothing after them runs', async () => {
    const t = await createTenantWithKey(db.pool, 'cancel');
    const wf = await submit(t.id, [{ id: 'a' }, { id: 'b' }, { id: 'c', dependsOn: ['a'] }]);
    const [running] = await claim(1);
    expect(await cancelWorkflow(db.pool, t.id, wf.id)).toBe('done');
    expect(await runState(wf)).toBe('cancelled');
    const [jobs] = await db.pool.query<RowDataPacket[]>(
      'SELECT node_id, state, cancel_requested FROM jobs WHERE workflow_id = ? ORDER BY node_id',
      [idToBin(wf.id)],
    );
    const other = running!.nodeId === 'a' ? 'b' : 'a';
    expect(jobs.find((j) => j.node_id === other)!.state).toBe('cancelled');
    expect(Number(jobs.find((j) => j.node_id === running!.nodeId)!.cancel_requested)).toBe(1);
    // The running call ends (succeeded, as a call may): its children still do not run.
    await recordOutcomes(db.pool, [
      {
        job: running!,
        transition: { to: 'succeeded', lastStatus: 200, lastError: null },
        attempt: { status: 200, errorClass: null, error: null, durationMs: 1 },
      },
    ]);
    expect(await drain(() => 'succeeded')).toEqual([]);
    expect((await nodeStates(wf)).c).toBe('cancelled');
    // and the run it belonged to stays cancelled: its last live node finishing does not end it again
    expect(await runState(wf)).toBe('cancelled');
    expect(await cancelWorkflow(db.pool, t.id, wf.id)).toBe('not_running');
    expect(await cancelWorkflow(db.pool, (await createTenantWithKey(db.pool, 'other')).id, wf.id)).toBe(
      'not_found',
    );
  });

  it('retry of a dead node re-runs it (same job, higher attempt) and its non-succeeded descendants only', async () => {
    const t = await createTenantWithKey(db.pool, 'rerun');
    const wf = await submit(t.id, [
      { id: 'ok' },
      { id: 'bad' },
      { id: 'mid', dependsOn: ['ok', 'bad'] },
      { id: 'leaf', dependsOn: ['mid'] },
      { id: 'side', dependsOn: ['ok'] },
    ]);
    let fail = true;
    const first = await drain((j) => (j.nodeId === 'bad' && fail ? 'dead' : 'succeeded'));
    expect(first.map((j) => j.nodeId).toSorted()).toEqual(['bad', 'ok', 'side']);
    expect(await runState(wf)).toBe('failed');
    const badJob = first.find((j) => j.nodeId === 'bad')!;

    // job-api's redrive leaves a node's job alone: alone, its success would reach no child.
    expect(await redriveJobs(db.pool, t.id, [badJob.id])).toEqual([]);
    fail = false;
    expect(await retryWorkflowNode(db.pool, t.id, wf.id, 'ok')).toBe('node_not_retryable');
    expect(await retryWorkflowNode(db.pool, t.id, wf.id, 'bad')).toBe('done');
    expect(await runState(wf)).toBe('running');
    const second = await drain(() => 'succeeded');
    expect(second.map((j) => `${j.nodeId}:${j.attempt}`)).toEqual(['bad:2', 'mid:1', 'leaf:1']);
    expect(second[0]!.id).toBe(badJob.id);
    expect(await runState(wf)).toBe('succeeded');
  });
});

describe('fences of the walk', () => {
  it('a node finished twice (a stale repair read racing the outcome) tells its children once', async () => {
    const t = await createTenantWithKey(db.pool, 'twice');
    const wf = await submit(t.id, [{ id: 'a' }, { id: 'b' }, { id: 'c', dependsOn: ['a', 'b'] }]);
    const jobs = await claim(10);
    const a = jobs.find((j) => j.nodeId === 'a')!;
    expect(
      await recordOutcomes(db.pool, [
        {
          job: a,
          transition: { to: 'succeeded', lastStatus: 200, lastError: null },
          attempt: { status: 200, errorClass: null, error: null, durationMs: 1 },
        },
      ]),
    ).toEqual([]);
    // The reconciler's sweep read `a` as pending with a final job before that commit, and repairs it now.
    await withTransaction(db.pool, (conn) =>
      advanceWorkflows(conn, [
        {
          workflowId: wf.id,
          nodeId: 'a',
          jobId: a.id,
          state: 'succeeded',
          attempt: a.attempt,
          partition: wf.partition,
        },
      ]),
    );
    expect((await nodeStates(wf)).c).toBe('waiting');
    const [cJobs] = await db.pool.query<RowDataPacket[]>(
      "SELECT COUNT(*) AS n FROM jobs WHERE workflow_id = ? AND node_id = 'c'",
      [idToBin(wf.id)],
    );
    expect(Number(cJobs[0]!.n)).toBe(0);
    const b = jobs.find((j) => j.nodeId === 'b')!;
    await recordOutcomes(db.pool, [
      {
        job: b,
        transition: { to: 'succeeded', lastStatus: 200, lastError: null },
        attempt: { status: 200, errorClass: null, error: null, durationMs: 1 },
      },
    ]);
    expect((await drain(() => 'succeeded')).map((j) => j.nodeId)).toEqual(['c']);
    expect(await runState(wf)).toBe('succeeded');
  });

  it('a paused run with maxParallel holds its ready nodes when a running one finishes, and resume sends them', async () => {
    const t = await createTenantWithKey(db.pool, 'paused-capped');
    const wf = await submit(
      t.id,
      Array.from({ length: 5 }, (_, i) => ({ id: `w${i}` })),
      { maxParallel: 2 },
    );
    const running = await claim(10);
    expect(running).toHaveLength(2);
    expect(await setWorkflowPaused(db.pool, t.id, wf.id, true)).toBe('done');
    await recordOutcomes(
      db.pool,
      running.map((job) => ({
        job,
        transition: { to: 'succeeded', lastStatus: 200, lastError: null },
        attempt: { status: 200, errorClass: null, error: null, durationMs: 1 },
      })),
    );
    expect(await claim(10)).toEqual([]);
    expect(Object.values(await nodeStates(wf)).filter((s) => s === 'ready')).toHaveLength(3);
    expect(await setWorkflowPaused(db.pool, t.id, wf.id, false)).toBe('done');
    expect((await drain(() => 'succeeded')).length).toBe(3);
    expect(await runState(wf)).toBe('succeeded');
  });

  it('re-running a skipped handler of a succeeded run reopens the run and gives its quota back when it ends', async () => {
    const t = await createTenantWithKey(db.pool, 'reopen-succeeded');
    const wf = await submit(t.id, [{ id: 'ok' }, { id: 'onfail', dependsOn: ['ok'], trigger: 'one_failed' }]);
    await drain(() => 'succeeded');
    expect(await nodeStates(wf)).toEqual({ ok: 'succeeded', onfail: 'skipped' });
    expect(await runState(wf)).toBe('succeeded');
    const taskCount = async () => {
      const [rows] = await db.pool.query<RowDataPacket[]>('SELECT task_count FROM tenants WHERE id = ?', [
        idToBin(t.id),
      ]);
      return Number(rows[0]!.task_count);
    };
    const before = await taskCount();
    expect(await retryWorkflowNode(db.pool, t.id, wf.id, 'onfail')).toBe('done');
    await drain(() => 'succeeded');
    expect(await runState(wf)).toBe('succeeded');
    expect(await taskCount()).toBe(before);
  });
});

async function drainOnce(limit: number): Promise<number> {
  const jobs = await claim(limit);
  if (jobs.length === 0) return 0;
  await recordOutcomes(
    db.pool,
    jobs.map((job) => ({
      job,
      transition: { to: 'succeeded', lastStatus: 200, lastError: null },
      attempt: { status: 200, errorClass: null, error: null, durationMs: 1 },
    })),
  );
  return jobs.length;
}
