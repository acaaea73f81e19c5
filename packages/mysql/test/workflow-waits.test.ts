import type { ClaimedJob, WorkflowPlan } from '@dsched/domain';
import { createTenantWithKey } from '@dsched/testkit/fixtures';
import { claimDue } from '@dsched/testkit/queue';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import { type NodeReq, nodeStates, runState, submitWorkflow } from '@dsched/testkit/workflows';
import type { RowDataPacket } from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { idToBin } from '../src/ids.ts';
import { recordOutcomes } from '../src/jobs/outcome/outcomes.ts';
import { type SignalRequest, type SignalResult, signalWaitNode } from '../src/workflows/node-signal.ts';
import { WAIT_TIMED_OUT, wakeDueNodes } from '../src/workflows/node-wake.ts';
import { cancelWorkflow, retryWorkflowNode, setWorkflowPaused } from '../src/workflows/workflow-control.ts';

// Sleep and wait nodes on real storage (docs/workflows.md "Nodes that wait"): their jobs are due
// at their wake time through the claim index, no claim of a lane ever takes them, the node waker
// ends them through the finish path (the walk tells their children in that transaction), pause
// holds them past their time and resume gives them their time back, cancel cancels them.

const db = useTestDatabase(import.meta.url);

const submit = (tenantId: string, nodes: NodeReq[], extra?: Record<string, unknown>) =>
  submitWorkflow(db.pool, tenantId, nodes, { ...(extra ? { extra } : {}) });

/** The node's job: its state, and its due time less now in ms (the database clock). */
async function nodeJob(wf: WorkflowPlan, nodeId: string) {
  const [rows] = await db.pool.query<RowDataPacket[]>(
    `SELECT j.state, j.lane, j.last_error,
            TIMESTAMPDIFF(MICROSECOND, NOW(3), j.run_at) / 1000 AS due_in_ms,
            TIMESTAMPDIFF(MICROSECOND, NOW(3), j.scheduled_for) / 1000 AS scheduled_in_ms
       FROM workflow_nodes n JOIN jobs j ON j.id = n.job_id
      WHERE n.workflow_id = ? AND n.node_id = ?`,
    [idToBin(wf.id), nodeId],
  );
  const r = rows[0];
  if (!r) return null;
  return {
    state: r.state as string,
    lane: r.lane as string,
    lastError: r.last_error as string | null,
    dueInMs: Number(r.due_in_ms),
    scheduledInMs: Number(r.scheduled_in_ms),
  };
}

/** Moves a node's wake time (its job's run_at and scheduled_for) to `ms` from now: time passing. */
async function wakeIn(wf: WorkflowPlan, nodeId: string, ms: number): Promise<void> {
  await db.fixtures.query(
    `UPDATE jobs j JOIN workflow_nodes n ON j.id = n.job_id
        SET j.run_at = NOW(3) + INTERVAL ? MICROSECOND,
            j.scheduled_for = NOW(3) + INTERVAL ? MICROSECOND
      WHERE n.workflow_id = ? AND n.node_id = ?`,
    [ms * 1000, ms * 1000, idToBin(wf.id), nodeId],
  );
}

/** A claimed call node answers 200, through the executor's outcome batch. */
const succeedCall = (job: ClaimedJob) =>
  recordOutcomes(db.pool, [
    {
      job,
      transition: { to: 'succeeded', lastStatus: 200, lastError: null },
      attempt: { status: 200, errorClass: null, error: null, durationMs: 1 },
    },
  ]);

const claimedNodes = async (wf: WorkflowPlan): Promise<string[]> =>
  (await claimDue(db.pool, { owner: 'exec-w', limit: 100 })).jobs
    .filter((j) => j.workflowId === wf.id)
    .map((j) => j.nodeId ?? '')
    .sort();

/** Wakes everything due, pass after pass, until a pass ends nothing (as the executor's loop). */
async function wakeAll(): Promise<{ sleep: number; wait: number }> {
  const total = { sleep: 0, wait: 0 };
  for (;;) {
    const pass = await wakeDueNodes(db.pool, 100);
    total.sleep += pass.woken.sleep;
    total.wait += pass.woken.wait;
    if (pass.woken.sleep + pass.woken.wait === 0) return total;
  }
}

describe('sleep nodes', () => {
  it('are due at their wake time, never claimed, and succeed without a call, telling their children', async () => {
    const t = await createTenantWithKey(db.pool, 'sleep-basic');
    const wf = await submit(t.id, [
      { id: 's', kind: 'sleep', sleep: { for: '2m' } },
      { id: 'c', dependsOn: ['s'] },
    ]);
    const job = await nodeJob(wf, 's');
    expect(job).toMatchObject({ state: 'pending', lane: 'sleep' });
    expect(job!.dueInMs).toBeGreaterThan(115_000);
    expect(job!.dueInMs).toBeLessThanOrEqual(120_000);
    expect(await wakeAll()).toEqual({ sleep: 0, wait: 0 });

    await wakeIn(wf, 's', -10);
    // Due, and still no claim of a lane takes it: a sleeper holds no executor slot.
    expect(await claimedNodes(wf)).toEqual([]);
    expect(await wakeAll()).toEqual({ sleep: 1, wait: 0 });
    expect(await nodeStates(db.pool, wf)).toEqual({ s: 'succeeded', c: 'pending' });
    expect((await nodeJob(wf, 's'))!.state).toBe('succeeded');
    // The child was made in the wake's transaction: claimable at once.
    expect(await claimedNodes(wf)).toEqual(['c']);
    // A second pass finds nothing: the wake was fenced by the job's state.
    expect(await wakeAll()).toEqual({ sleep: 0, wait: 0 });
  });

  it('count their time from when they are reached; `until` is an instant', async () => {
    const t = await createTenantWithKey(db.pool, 'sleep-reached');
    const until = new Date(Date.now() + 3_600_000);
    const wf = await submit(t.id, [
      { id: 'p' },
      { id: 's', kind: 'sleep', sleep: { for: '30s' }, dependsOn: ['p'] },
      { id: 'u', kind: 'sleep', sleep: { until: until.toISOString() } },
    ]);
    expect(await nodeJob(wf, 's')).toBeNull();
    const u = await nodeJob(wf, 'u');
    expect(Math.abs(u!.dueInMs - (until.getTime() - Date.now()))).toBeLessThan(5_000);
    const [p] = (await claimDue(db.pool, { owner: 'exec-w', limit: 100 })).jobs.filter(
      (j) => j.workflowId === wf.id,
    );
    await succeedCall(p!);
    const s = await nodeJob(wf, 's');
    expect(s!.dueInMs).toBeGreaterThan(25_000);
    expect(s!.dueInMs).toBeLessThanOrEqual(30_000);
  });

  it('a paused run holds a sleeper past its time; resume gives back its time, or wakes it when past', async () => {
    const t = await createTenantWithKey(db.pool, 'sleep-pause');
    const wf = await submit(t.id, [
      { id: 'later', kind: 'sleep', sleep: { for: '1h' } },
      { id: 'soon', kind: 'sleep', sleep: { for: '1h' } },
      { id: 'c', dependsOn: ['soon'] },
    ]);
    await wakeIn(wf, 'soon', 1_000);
    expect(await setWorkflowPaused(db.pool, t.id, wf.id, true)).toBe('done');
    await wakeIn(wf, 'soon', -1_000);
    // Its wake time passed while the run was paused: held, not woken.
    expect(await wakeAll()).toEqual({ sleep: 0, wait: 0 });
    expect(await setWorkflowPaused(db.pool, t.id, wf.id, false)).toBe('done');
    // Resumed: the one whose time passed is due now, the other keeps its hour (not cut short).
    expect((await nodeJob(wf, 'later'))!.dueInMs).toBeGreaterThan(3_500_000);
    expect(await wakeAll()).toEqual({ sleep: 1, wait: 0 });
    expect(await nodeStates(db.pool, wf)).toEqual({ later: 'pending', soon: 'succeeded', c: 'pending' });
  });

  it('cancel cancels a sleeper: it never wakes', async () => {
    const t = await createTenantWithKey(db.pool, 'sleep-cancel');
    const wf = await submit(t.id, [
      { id: 's', kind: 'sleep', sleep: { for: '5m' } },
      { id: 'c', dependsOn: ['s'] },
    ]);
    expect(await cancelWorkflow(db.pool, t.id, wf.id)).toBe('done');
    await wakeIn(wf, 's', -10);
    expect(await wakeAll()).toEqual({ sleep: 0, wait: 0 });
    expect((await nodeJob(wf, 's'))!.state).toBe('cancelled');
    expect(await runState(db.pool, wf)).toBe('cancelled');
  });
});

describe('wait nodes at their timeout', () => {
  it('`fail` (the default) fails the node and the run by its policy', async () => {
    const t = await createTenantWithKey(db.pool, 'wait-fail');
    const wf = await submit(t.id, [
      { id: 'w', kind: 'wait', wait: { timeoutS: 600 } },
      { id: 'c', dependsOn: ['w'] },
    ]);
    const job = await nodeJob(wf, 'w');
    expect(job).toMatchObject({ state: 'pending', lane: 'wait' });
    expect(job!.dueInMs).toBeGreaterThan(590_000);
    expect(await claimedNodes(wf)).toEqual([]);
    await wakeIn(wf, 'w', -10);
    expect(await claimedNodes(wf)).toEqual([]);
    expect(await wakeAll()).toEqual({ sleep: 0, wait: 1 });
    expect(await nodeStates(db.pool, wf)).toEqual({ w: 'dead', c: 'upstream_failed' });
    expect((await nodeJob(wf, 'w'))!.lastError).toBe(WAIT_TIMED_OUT);
    expect(await runState(db.pool, wf)).toBe('failed');
  });

  it('`succeed` succeeds it and lets its children run', async () => {
    const t = await createTenantWithKey(db.pool, 'wait-succeed');
    const wf = await submit(t.id, [
      { id: 'w', kind: 'wait', wait: { timeoutS: 600, onTimeout: 'succeed' } },
      { id: 'c', dependsOn: ['w'] },
    ]);
    await wakeIn(wf, 'w', -10);
    expect(await wakeAll()).toEqual({ sleep: 0, wait: 1 });
    expect(await nodeStates(db.pool, wf)).toEqual({ w: 'succeeded', c: 'pending' });
    expect(await claimedNodes(wf)).toEqual(['c']);
  });

  it('a node retry of a timed-out wait waits its whole timeout again', async () => {
    const t = await createTenantWithKey(db.pool, 'wait-retry');
    const wf = await submit(t.id, [{ id: 'w', kind: 'wait', wait: { timeoutS: 600 } }]);
    await wakeIn(wf, 'w', -10);
    expect(await wakeAll()).toEqual({ sleep: 0, wait: 1 });
    expect(await retryWorkflowNode(db.pool, t.id, wf.id, 'w')).toBe('done');
    const job = await nodeJob(wf, 'w');
    expect(job!.state).toBe('pending');
    expect(job!.dueInMs).toBeGreaterThan(590_000);
  });
});

describe('signals', () => {
  const signal = (wf: WorkflowPlan, nodeId: string, extra: Partial<SignalRequest> = {}) =>
    signalWaitNode(db.pool, {
      workflowId: wf.id,
      nodeId,
      tenantId: wf.tenantId,
      payload: '{"approved":true}',
      by: 'key dsk_test from 127.0.0.1',
      ...extra,
    });

  it('succeed the node with the payload as its output, audited; a second one is a conflict', async () => {
    const t = await createTenantWithKey(db.pool, 'signal-basic');
    const wf = await submit(t.id, [
      { id: 'w', kind: 'wait', wait: { timeoutS: 600 } },
      { id: 'c', dependsOn: ['w'], inputs: 'parents' },
    ]);
    expect(await signal(wf, 'w')).toMatchObject({ result: 'signalled' });
    expect(await nodeStates(db.pool, wf)).toEqual({ w: 'succeeded', c: 'pending' });
    const [out] = await db.pool.query<RowDataPacket[]>(
      'SELECT output, attempt FROM workflow_node_outputs WHERE workflow_id = ? AND node_id = ?',
      [idToBin(wf.id), 'w'],
    );
    expect(JSON.parse(out[0]!.output)).toEqual({ approved: true });
    const [audit] = await db.pool.query<RowDataPacket[]>(
      `SELECT a.attempt, a.executor FROM job_attempts a JOIN workflow_nodes n ON n.job_id = a.job_id
        WHERE n.workflow_id = ? AND n.node_id = 'w'`,
      [idToBin(wf.id)],
    );
    expect(audit.map((a) => [a.attempt, a.executor])).toEqual([[1, 'signal: key dsk_test from 127.0.0.1']]);
    expect(await signal(wf, 'w')).toEqual({ result: 'conflict', issue: 'the node has ended: succeeded' });
    expect(await claimedNodes(wf)).toEqual(['c']);
  });

  it('a signal before the node waits is a conflict and changes nothing; the later one works', async () => {
    const t = await createTenantWithKey(db.pool, 'signal-early');
    const wf = await submit(t.id, [
      { id: 'p' },
      { id: 'w', kind: 'wait', wait: { timeoutS: 600 }, dependsOn: ['p'] },
    ]);
    expect(await signal(wf, 'w')).toEqual({
      result: 'conflict',
      issue: 'not waiting yet: its parents have not finished',
    });
    expect(await nodeStates(db.pool, wf)).toEqual({ p: 'pending', w: 'waiting' });
    const [p] = (await claimDue(db.pool, { owner: 'exec-w', limit: 100 })).jobs.filter(
      (j) => j.workflowId === wf.id,
    );
    await succeedCall(p!);
    expect(await signal(wf, 'w')).toMatchObject({ result: 'signalled' });
    expect(await runState(db.pool, wf)).toBe('succeeded');
  });

  it('a cancelled run, a call node, another tenant or a wrong token: nothing changes', async () => {
    const t = await createTenantWithKey(db.pool, 'signal-refused');
    const wf = await submit(t.id, [{ id: 'w', kind: 'wait', wait: { timeoutS: 600 } }, { id: 'x' }]);
    expect(await signal(wf, 'x')).toEqual({ result: 'conflict', issue: 'not a wait node' });
    expect(await signal(wf, 'w', { tenantId: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b' })).toEqual({
      result: 'not_found',
    });
    expect(await signal(wf, 'w', { tenantId: undefined, tokenMatches: () => false })).toEqual({
      result: 'not_found',
    });
    expect(await signal(wf, 'nope')).toEqual({ result: 'not_found' });
    expect(await cancelWorkflow(db.pool, t.id, wf.id)).toBe('done');
    expect(await signal(wf, 'w')).toEqual({ result: 'conflict', issue: 'the run is cancelled' });
    expect((await nodeJob(wf, 'w'))!.state).toBe('cancelled');
  });

  it('a signal racing its timeout ends the node exactly once (100 races)', async () => {
    const t = await createTenantWithKey(db.pool, 'signal-race');
    const won = { signal: 0, timeout: 0 };
    for (let i = 0; i < 100; i++) {
      const wf = await submit(t.id, [
        { id: 'w', kind: 'wait', wait: { timeoutS: 600 } },
        { id: 'c', dependsOn: ['w'] },
      ]);
      await wakeIn(wf, 'w', -10);
      // Both at once, in either order of start.
      const [signalled, woken] =
        i % 2 === 0
          ? await Promise.all([signal(wf, 'w'), wakeDueNodes(db.pool, 10)])
          : await Promise.all([signal(wf, 'w'), wakeDueNodes(db.pool, 10)].reverse()).then(
              ([a, b]) => [b, a] as const,
            );
      const bySignal = (signalled as SignalResult).result === 'signalled';
      const byTimeout = (woken as Awaited<ReturnType<typeof wakeDueNodes>>).woken.wait === 1;
      expect([i, bySignal, byTimeout]).toEqual([i, !byTimeout, !bySignal]);
      const states = await nodeStates(db.pool, wf);
      expect(states).toEqual(
        bySignal ? { w: 'succeeded', c: 'pending' } : { w: 'dead', c: 'upstream_failed' },
      );
      const [counts] = await db.pool.query<RowDataPacket[]>(
        `SELECT (SELECT COUNT(*) FROM job_attempts a JOIN workflow_nodes n ON n.job_id = a.job_id
                  WHERE n.workflow_id = ? AND n.node_id = 'w') AS audits,
                (SELECT COUNT(*) FROM workflow_node_outputs WHERE workflow_id = ?) AS outputs,
                (SELECT unfinished_parents FROM workflow_nodes WHERE workflow_id = ? AND node_id = 'c') AS unfinished`,
        [idToBin(wf.id), idToBin(wf.id), idToBin(wf.id)],
      );
      expect([
        i,
        Number(counts[0]!.audits),
        Number(counts[0]!.outputs),
        Number(counts[0]!.unfinished),
      ]).toEqual([i, bySignal ? 1 : 0, bySignal ? 1 : 0, 0]);
      won[bySignal ? 'signal' : 'timeout']++;
    }
    expect(won.signal + won.timeout).toBe(100);
  });
});
