import { type ClaimedJob, MAP_INDEX_HEADER, type OutcomeWrite, type WorkflowPlan } from '@dsched/domain';
import { createTenantWithKey } from '@dsched/testkit/fixtures';
import { claimDue } from '@dsched/testkit/queue';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import { type NodeReq, nodeStates, runState, submitWorkflow } from '@dsched/testkit/workflows';
import type { RowDataPacket } from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { idToBin } from '../src/ids.ts';
import { recordOutcomes } from '../src/jobs/outcome/outcomes.ts';
import { withTransaction } from '../src/transaction.ts';
import { type MapOptions, stepDueMap } from '../src/workflows/map-expand.ts';
import { wakeDueNodes } from '../src/workflows/node-wake.ts';
import { cancelWorkflow, retryWorkflowNode } from '../src/workflows/workflow-control.ts';
import { listWorkflowNodes } from '../src/workflows/workflow-reads.ts';

// Map nodes on real storage (docs/workflows.md "Map nodes", D49): the node waker expands a map
// node into item nodes in slices, each item a call node with its own job (its own retries, one
// Idempotency-Key), the map node waits on them like a fan-in, and ends with their outputs in
// index order; a parent output that is not an array fails it, a failed item fails it.

const db = useTestDatabase(import.meta.url);
const MAP: MapOptions = { maxOutputBytes: 262_144, taskApiUrl: 'http://task-api.test:8080', parkMs: 60_000 };

const submit = (tenantId: string, nodes: NodeReq[], extra?: Record<string, unknown>): Promise<WorkflowPlan> =>
  submitWorkflow(db.pool, tenantId, nodes, {
    retry: { maxAttempts: 3, initialBackoffMs: 0, maxBackoffMs: 0 },
    ...(extra ? { extra } : {}),
  });

const claim = async (wf: WorkflowPlan, limit = 5000): Promise<ClaimedJob[]> =>
  (await claimDue(db.pool, { limit, owner: 'exec-m' })).jobs.filter((j) => j.workflowId === wf.id);

function outcome(job: ClaimedJob, to: 'succeeded' | 'dead' | 'retry', responseBody?: string): OutcomeWrite {
  const transition =
    to === 'retry'
      ? { to, lastStatus: 503, lastError: 'HTTP 503', delayMs: 0 }
      : { to, lastStatus: to === 'succeeded' ? 200 : 400, lastError: null };
  return {
    job,
    transition,
    attempt: { status: transition.lastStatus, errorClass: null, error: null, durationMs: 1 },
    ...(responseBody !== undefined ? { responseBody } : {}),
  } as OutcomeWrite;
}

/** Outcome batches of at most 1,000 (an outcome transaction tells at most 2,000 children: D33). */
const answer = async (writes: OutcomeWrite[]): Promise<void> => {
  for (let i = 0; i < writes.length; i += 1_000) {
    const lost = await recordOutcomes(db.pool, writes.slice(i, i + 1_000));
    expect(lost).toEqual([]);
  }
};

/** Steps the waker, pass after pass, until a pass has nothing more to do (as the executor's loop). */
async function wakeAll(options: MapOptions = MAP): Promise<number> {
  let ended = 0;
  for (;;) {
    const pass = await wakeDueNodes(db.pool, 100, options);
    ended += pass.woken.map;
    if (!pass.full) return ended;
  }
}

/** One waker step of map nodes (one transaction), not a whole drain. */
const wakeOnce = () => withTransaction(db.pool, (conn) => stepDueMap(conn, MAP));

/** Time passing: the node's job (parked, or waiting its turn) is due now. */
async function dueNow(wf: WorkflowPlan, nodeId: string): Promise<void> {
  await db.fixtures.query(
    `UPDATE jobs j JOIN workflow_nodes n ON j.id = n.job_id SET j.run_at = NOW(3)
      WHERE n.workflow_id = ? AND n.node_id = ?`,
    [idToBin(wf.id), nodeId],
  );
}

async function node(wf: WorkflowPlan, nodeId: string) {
  const [rows] = await db.pool.query<RowDataPacket[]>(
    `SELECT n.state, n.unfinished_parents, n.map_count, n.map_made, j.state AS job_state, j.last_error,
            o.output
       FROM workflow_nodes n
       LEFT JOIN jobs j ON j.id = n.job_id
       LEFT JOIN workflow_node_outputs o ON o.workflow_id = n.workflow_id AND o.node_id = n.node_id
      WHERE n.workflow_id = ? AND n.node_id = ?`,
    [idToBin(wf.id), nodeId],
  );
  return rows[0] ?? null;
}

async function itemCount(wf: WorkflowPlan, mapId: string): Promise<number> {
  const [rows] = await db.pool.query<RowDataPacket[]>(
    "SELECT COUNT(*) AS n FROM workflow_nodes WHERE workflow_id = ? AND node_id LIKE CONCAT(?, '~%')",
    [idToBin(wf.id), mapId],
  );
  return Number(rows[0]!.n);
}

/** The root p answers `body`; returns the run after the map node's job is made. */
async function runMapOver(tenant: string, body: string, mapExtra: { maxItems?: number } = {}) {
  const t = await createTenantWithKey(db.pool, tenant);
  const wf = await submit(t.id, [
    { id: 'p' },
    { id: 'm', kind: 'map', map: { over: 'p', ...mapExtra }, dependsOn: ['p'] },
    { id: 'c', dependsOn: ['m'] },
  ]);
  const [p] = await claim(wf);
  expect(p!.nodeId).toBe('p');
  await answer([outcome(p!, 'succeeded', body)]);
  return wf;
}

describe('map nodes', () => {
  it('call each item once with the item as the body and its index in a header, then succeed with the outputs in order', async () => {
    const wf = await runMapOver('map-basic', '[{"a":1},2,"x"]');
    // The map node's job is in a lane no claim reads.
    expect(await claim(wf)).toEqual([]);
    expect((await node(wf, 'm'))!.state).toBe('pending');
    await wakeAll();
    const items = await claim(wf);
    expect(items.map((j) => j.nodeId).sort()).toEqual(['m~0', 'm~1', 'm~2']);
    const byId = Object.fromEntries(items.map((j) => [j.nodeId, j]));
    expect(byId['m~0']!.target.body).toEqual({ a: 1 });
    expect(byId['m~1']!.target.body).toBe(2);
    expect(byId['m~2']!.target.body).toBe('x');
    expect(byId['m~2']!.target.headers[MAP_INDEX_HEADER]).toBe('2');
    expect(byId['m~0']!.target.url).toBe('http://127.0.0.1:9/m');
    // The map node waits on its items; the API shows it running, with its items among the nodes.
    expect(await node(wf, 'm')).toMatchObject({
      state: 'waiting',
      unfinished_parents: 3,
      map_count: 3,
      map_made: 3,
    });
    const listed = await listWorkflowNodes(db.pool, wf.id, { limit: 10 });
    expect(listed.map((n) => n.nodeId)).toEqual(['c', 'm', 'm~0', 'm~1', 'm~2', 'p']);
    expect(listed.find((n) => n.nodeId === 'm')).toMatchObject({
      kind: 'map',
      state: 'running',
      map: { over: 'p', count: 3, made: 3 },
    });

    // Item 1 fails once and is retried under the same job id (its Idempotency-Key).
    await answer([
      outcome(byId['m~0']!, 'succeeded', '"zero"'),
      outcome(byId['m~1']!, 'retry'),
      outcome(byId['m~2']!, 'succeeded', '{"two":2}'),
    ]);
    const [again] = await claim(wf);
    expect(again!.id).toBe(byId['m~1']!.id);
    expect(again!.attempt).toBe(2);
    await answer([outcome(again!, 'succeeded', '1')]);
    // The walk decided the node pending and made its parked job due: one pass ends it.
    expect((await node(wf, 'm'))!.state).toBe('pending');
    expect(await wakeAll()).toBe(1);
    const m = await node(wf, 'm');
    expect(m).toMatchObject({ state: 'succeeded', job_state: 'succeeded' });
    expect(JSON.parse(m!.output)).toEqual(['zero', 1, { two: 2 }]);
    // Its child runs, and the run ends when it does.
    const [c] = await claim(wf);
    expect(c!.nodeId).toBe('c');
    await answer([outcome(c!, 'succeeded')]);
    expect(await runState(db.pool, wf)).toBe('succeeded');
    const [run] = await db.pool.query<RowDataPacket[]>(
      'SELECT node_count, edge_count FROM workflows WHERE id = ?',
      [idToBin(wf.id)],
    );
    expect(run[0]).toMatchObject({ node_count: 6, edge_count: 5 });
  });

  it('make wide maps in slices, waiting on every item: items that end before the last slice do not end the map', async () => {
    const n = 4_500;
    const wf = await runMapOver('map-slices', JSON.stringify(Array.from({ length: n }, (_, i) => i)));
    expect(await wakeOnce()).toBe('started');
    expect(await itemCount(wf, 'm')).toBe(2_000);
    // The first slice's items all end before the rest are made: the map node still waits.
    const first = await claim(wf);
    expect(first).toHaveLength(2_000);
    await answer(first.map((j) => outcome(j, 'succeeded', String(Number(j.target.body) * 10))));
    expect(await node(wf, 'm')).toMatchObject({ state: 'waiting', map_made: 2_000 });
    await wakeAll();
    expect(await itemCount(wf, 'm')).toBe(n);
    const rest = await claim(wf);
    expect(rest).toHaveLength(n - 2_000);
    // Every item called once, under its own key.
    expect(new Set([...first, ...rest].map((j) => j.id)).size).toBe(n);
    expect((await node(wf, 'm'))!.state).toBe('waiting');
    await answer(rest.map((j) => outcome(j, 'succeeded', String(Number(j.target.body) * 10))));
    expect(await wakeAll()).toBe(1);
    const m = await node(wf, 'm');
    expect(m!.state).toBe('succeeded');
    expect(JSON.parse(m!.output)).toEqual(Array.from({ length: n }, (_, i) => i * 10));
  });

  it('two wakers at once make each item once', async () => {
    const wf = await runMapOver('map-race', JSON.stringify(Array.from({ length: 3_000 }, (_, i) => i)));
    await Promise.all([wakeAll(), wakeAll(), wakeAll()]);
    expect(await itemCount(wf, 'm')).toBe(3_000);
    const items = await claim(wf);
    expect(items).toHaveLength(3_000);
    expect(new Set(items.map((j) => j.nodeId)).size).toBe(3_000);
  });

  it('fail on a parent output that is not an array, or longer than maxItems; the run goes on by its policy', async () => {
    const wf = await runMapOver('map-object', '{"rows": 3}');
    await wakeAll();
    expect(await node(wf, 'm')).toMatchObject({
      state: 'dead',
      last_error: 'map over "p": its output is an object, not a JSON array',
    });
    expect(await itemCount(wf, 'm')).toBe(0);
    expect((await nodeStates(db.pool, wf)).c).toBe('upstream_failed');
    expect(await runState(db.pool, wf)).toBe('failed');

    const long = await runMapOver('map-long', '[1,2,3]', { maxItems: 2 });
    await wakeAll();
    expect(await node(long, 'm')).toMatchObject({
      state: 'dead',
      last_error: 'map over "p": its output has 3 items, over maxItems 2',
    });
  });

  it('succeed at once over an empty array', async () => {
    const wf = await runMapOver('map-empty', '[]');
    expect(await wakeAll()).toBe(1);
    const m = await node(wf, 'm');
    expect(m!.state).toBe('succeeded');
    expect(JSON.parse(m!.output)).toEqual([]);
    expect((await claim(wf)).map((j) => j.nodeId)).toEqual(['c']);
  });

  it('fail when an item fails; the output is a reference past the output cap', async () => {
    const wf = await runMapOver('map-item-dead', '[1,2,3]');
    await wakeAll();
    const items = await claim(wf);
    await answer(items.map((j) => outcome(j, j.nodeId === 'm~1' ? 'dead' : 'succeeded', '"ok"')));
    await wakeAll();
    expect(await node(wf, 'm')).toMatchObject({ state: 'dead', last_error: '1 of 3 items did not succeed' });
    expect(await runState(db.pool, wf)).toBe('failed');
    // A retry of the failed item runs it again under its key, then the map node, then its child.
    expect(await retryWorkflowNode(db.pool, wf.tenantId, wf.id, 'm~1')).toBe('done');
    const [rerun] = await claim(wf);
    expect(rerun!.id).toBe(items.find((j) => j.nodeId === 'm~1')!.id);
    await answer([outcome(rerun!, 'succeeded', '"again"')]);
    await wakeAll();
    const retried = await node(wf, 'm');
    expect(retried!.state).toBe('succeeded');
    expect(JSON.parse(retried!.output)).toEqual(['ok', 'again', 'ok']);
    const [child] = await claim(wf);
    await answer([outcome(child!, 'succeeded')]);
    expect(await runState(db.pool, wf)).toBe('succeeded');

    const big = await runMapOver('map-big', JSON.stringify(Array.from({ length: 50 }, (_, i) => i)));
    const small = { ...MAP, maxOutputBytes: 100 };
    await wakeAll(small);
    await answer((await claim(big)).map((j) => outcome(j, 'succeeded', '"a long enough answer"')));
    await wakeAll(small);
    const m = await node(big, 'm');
    expect(m!.state).toBe('succeeded');
    expect(JSON.parse(m!.output)).toEqual({
      itemsUrl: `http://task-api.test:8080/v1/workflows/${big.id}/nodes/m/parents`,
      count: 50,
    });
  });

  it('stop with their run: a cancel cancels the items, and the map node’s job ends', async () => {
    const wf = await runMapOver('map-cancel', '[1,2,3]');
    await wakeAll();
    await cancelWorkflow(db.pool, wf.tenantId, wf.id);
    // Its job was parked while the items ran; when it is due, the waker finds the node ended.
    await dueNow(wf, 'm');
    expect(await wakeOnce()).toBe('ended');
    const states = await nodeStates(db.pool, wf);
    expect(states).toMatchObject({ m: 'cancelled', 'm~0': 'cancelled', c: 'cancelled' });
    expect((await node(wf, 'm'))!.job_state).toBe('cancelled');
    expect(await claim(wf)).toEqual([]);
  });
});
