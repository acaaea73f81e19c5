import type { WorkflowPlan } from '@dsched/domain';
import { createTenantWithKey } from '@dsched/testkit/fixtures';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import {
  claimNodeJobs,
  drainNodeJobs,
  finishNodeJobs,
  type NodeReq,
  runState,
  submitWorkflow,
} from '@dsched/testkit/workflows';
import type { RowDataPacket } from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { idToBin } from '../src/ids.ts';
import { withTransaction } from '../src/transaction.ts';
import { retryWorkflowNode } from '../src/workflows/workflow-control.ts';
import { finishDoneRuns } from '../src/workflows/workflow-runs.ts';
import { countWalkQueue } from '../src/workflows/workflow-sweep.ts';
import {
  continueWalk,
  type FrontierNode,
  OUTCOME_WALK_BOUNDS,
  takeStep,
} from '../src/workflows/workflow-walk.ts';

// A parent with more children than one transaction's walk budget (OUTCOME_WALK_BOUNDS.maxEdges,
// 2,000) is told in slices, one per transaction, its cursor (walk_after) kept on its row (D33):
// each child is told once, whatever the number of transactions, and no transaction makes more
// than a budget of jobs.

const db = useTestDatabase(import.meta.url);

const BUDGET = OUTCOME_WALK_BOUNDS.maxEdges;

interface Cursor {
  walkPending: number | null;
  walkAfter: string | null;
}

async function cursor(wf: WorkflowPlan, nodeId: string): Promise<Cursor> {
  const [rows] = await db.pool.query<RowDataPacket[]>(
    'SELECT walk_pending, walk_after FROM workflow_nodes WHERE workflow_id = ? AND node_id = ?',
    [idToBin(wf.id), nodeId],
  );
  return { walkPending: rows[0]!.walk_pending, walkAfter: rows[0]!.walk_after };
}

/** Per node: how many parents it still waits for, and whether it has a job. */
async function children(wf: WorkflowPlan): Promise<Map<string, { unfinished: number; job: boolean }>> {
  const [rows] = await db.pool.query<RowDataPacket[]>(
    `SELECT n.node_id, n.unfinished_parents, j.id IS NOT NULL AS job
       FROM workflow_nodes n LEFT JOIN jobs j ON j.id = n.job_id
      WHERE n.workflow_id = ?`,
    [idToBin(wf.id)],
  );
  return new Map(
    rows.map((r) => [r.node_id, { unfinished: Number(r.unfinished_parents), job: Number(r.job) === 1 }]),
  );
}

/** One walker's transaction, as a later outcome batch or the sweep runs it: the walk queue, one budget. */
async function walkOnce(): Promise<void> {
  await withTransaction(db.pool, async (conn) => {
    // The runs here are submitted in partition 0 (testkit's default): the walker of that partition.
    const runs = await continueWalk(conn, [0], OUTCOME_WALK_BOUNDS);
    await finishDoneRuns(conn, [...runs.values()]);
  });
}

/** Walks until the node's children are all told; returns the transactions it took. */
async function walkUntilTold(wf: WorkflowPlan, nodeId: string): Promise<number> {
  let transactions = 0;
  while ((await cursor(wf, nodeId)).walkPending === 1) {
    await walkOnce();
    transactions++;
    expect(transactions).toBeLessThan(100);
  }
  return transactions;
}

const ids = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(5, '0')}`);

describe('a wide parent', () => {
  it('is told in slices of the budget, one per transaction, each child once', async () => {
    const t = await createTenantWithKey(db.pool, 'wide');
    // Every child waits for two wide parents: a child told twice by `root` (a slice bound counted
    // twice) would reach zero while `gate` still runs, and get a job.
    const mids = ids('m', 5000);
    const wf = await submitWorkflow(db.pool, t.id, [
      { id: 'root' },
      { id: 'gate' },
      ...mids.map((id): NodeReq => ({ id, dependsOn: ['root', 'gate'] })),
    ]);
    const roots = await claimNodeJobs(db.pool, 10);
    expect(roots.map((j) => j.nodeId).toSorted()).toEqual(['gate', 'root']);

    // root's outcome transaction tells the first slice only: the budget's children, in key order.
    await finishNodeJobs(
      db.pool,
      roots.filter((j) => j.nodeId === 'root'),
      () => 'succeeded',
    );
    expect(await cursor(wf, 'root')).toEqual({ walkPending: 1, walkAfter: mids[BUDGET - 1] });
    expect(await countWalkQueue(db.pool)).toBe(1);
    let counts = await children(wf);
    expect(mids.filter((m) => counts.get(m)!.unfinished === 1)).toEqual(mids.slice(0, BUDGET));

    // Later transactions take a slice each: 2,000, then the last 1,000.
    expect(await walkUntilTold(wf, 'root')).toBe(2);
    expect(await cursor(wf, 'root')).toEqual({ walkPending: null, walkAfter: null });
    expect(await countWalkQueue(db.pool)).toBe(0);
    counts = await children(wf);
    for (const m of mids) expect(counts.get(m), m).toEqual({ unfinished: 1, job: false });

    // gate, likewise; then every child has its job, made once, and the run completes.
    await finishNodeJobs(
      db.pool,
      roots.filter((j) => j.nodeId === 'gate'),
      () => 'succeeded',
    );
    await walkUntilTold(wf, 'gate');
    counts = await children(wf);
    for (const m of mids) expect(counts.get(m), m).toEqual({ unfinished: 0, job: true });
    const ran = await drainNodeJobs(db.pool, () => 'succeeded');
    expect(ran.map((j) => j.nodeId).toSorted()).toEqual(mids);
    expect(await runState(db.pool, wf)).toBe('succeeded');
  });

  it('keeps a node a retry resets waiting for a parent whose slices have not reached it yet', async () => {
    const t = await createTenantWithKey(db.pool, 'wide-retry');
    // `last` sorts after root's other children, so root's first slice does not tell it; `q` dies,
    // then is retried while root's walk is still on the queue.
    const mids = ids('m', 3000);
    const wf = await submitWorkflow(db.pool, t.id, [
      { id: 'root' },
      { id: 'q' },
      ...mids.map((id): NodeReq => ({ id, dependsOn: ['root'] })),
      { id: 'zlast', dependsOn: ['root', 'q'] },
    ]);
    const roots = await claimNodeJobs(db.pool, 10);
    await finishNodeJobs(db.pool, roots, (j) => (j.nodeId === 'q' ? 'dead' : 'succeeded'));
    expect((await cursor(wf, 'root')).walkPending).toBe(1);
    expect((await children(wf)).get('zlast')).toEqual({ unfinished: 1, job: false });

    // The retry recounts zlast's parents: q (reset) and root (finished, but zlast not told yet).
    expect(await retryWorkflowNode(db.pool, t.id, wf.id, 'q')).toBe('done');
    expect((await children(wf)).get('zlast')).toEqual({ unfinished: 2, job: false });
    // root's walk reaches zlast: one parent left, q, which has not run again.
    await walkUntilTold(wf, 'root');
    expect((await children(wf)).get('zlast')).toEqual({ unfinished: 1, job: false });

    const ran = await drainNodeJobs(db.pool, () => 'succeeded');
    const order = ran.map((j) => j.nodeId);
    expect(order.filter((id) => id === 'zlast')).toHaveLength(1);
    expect(order.indexOf('q')).toBeLessThan(order.indexOf('zlast'));
    expect(await runState(db.pool, wf)).toBe('succeeded');
  });
});

describe('one step of the budget (takeStep)', () => {
  const node = (nodeId: string, childCount: number, walkAfter: string | null = null): FrontierNode => ({
    workflowId: Buffer.alloc(16),
    nodeId,
    partition: 0,
    state: 'succeeded',
    childCount,
    walkAfter,
  });
  const names = (nodes: FrontierNode[]) => nodes.map((n) => n.nodeId);

  it('takes whole the nodes that fit, and defers a wide one met after them', () => {
    const budget = { edges: 2000, full: 2000 };
    const step = takeStep([node('a', 10), node('wide', 5000), node('b', 5), node('big', 1990)], budget);
    expect([names(step.whole), step.slice?.nodeId, names(step.deferred)]).toEqual([
      ['a', 'b'],
      undefined,
      ['wide', 'big'],
    ]);
    expect(budget.edges).toBe(1985);
  });

  it('slices a wide node that comes first, or one already sliced, and nothing after it', () => {
    const fresh = takeStep([node('wide', 5000), node('leaf', 0)], { edges: 2000, full: 2000 });
    expect([names(fresh.whole), fresh.slice?.nodeId, names(fresh.deferred)]).toEqual([[], 'wide', ['leaf']]);
    // A node told in slices is never taken whole again, however few children it has left.
    const resumed = takeStep([node('wide', 10, 'm00009')], { edges: 2000, full: 2000 });
    expect(resumed.slice?.nodeId).toBe('wide');
  });

  it('slices only with half the budget or more left', () => {
    expect(takeStep([node('wide', 5000)], { edges: 1000, full: 2000 }).slice?.nodeId).toBe('wide');
    expect(names(takeStep([node('wide', 5000)], { edges: 999, full: 2000 }).deferred)).toEqual(['wide']);
  });
});
