import type { ClaimedJob, WorkflowPlan } from '@dsched/domain';
import { createTenantWithKey } from '@dsched/testkit/fixtures';
import { claimDue } from '@dsched/testkit/queue';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import { type NodeReq, submitWorkflow } from '@dsched/testkit/workflows';
import type { RowDataPacket } from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { idToBin } from '../src/ids.ts';
import { cancelJob } from '../src/jobs/control/job-control.ts';
import { recordOutcomes } from '../src/jobs/outcome/outcomes.ts';
import { retryWorkflowNode, setWorkflowPaused } from '../src/workflows/workflow-control.ts';
import { countRunningWorkflows, sweepWorkflows } from '../src/workflows/workflow-sweep.ts';

// Pause holds the jobs a run already made, on real MariaDB: a paused run's pending node jobs are
// never claimed (whether made before the pause, sent back by a retry during it, or made pending
// by any other path, which the sweep holds), and resume releases them.

const db = useTestDatabase(import.meta.url);

const submit = (tenantId: string, nodes: NodeReq[]) =>
  submitWorkflow(db.pool, tenantId, nodes, {
    retry: { maxAttempts: 3, initialBackoffMs: 0, maxBackoffMs: 0 },
  });

const claim = async (): Promise<ClaimedJob[]> => (await claimDue(db.pool, { owner: 'exec-p' })).jobs;
const claimed = async (wf: WorkflowPlan) =>
  (await claim())
    .filter((j) => j.workflowId === wf.id)
    .map((j) => j.nodeId)
    .sort();

/** Sweeps every running run, page by page; returns the jobs it held. */
async function sweepAll(): Promise<number> {
  let held = 0;
  let after: string | null = null;
  do {
    const pass = await sweepWorkflows(db.pool, after, 50);
    held += pass.held;
    after = pass.nextAfter;
  } while (after);
  return held;
}

const heldRows = async (wf: WorkflowPlan) => {
  const [rows] = await db.pool.query<RowDataPacket[]>(
    'SELECT held, run_at, run_at <= NOW(3) AS due FROM jobs WHERE workflow_id = ? ORDER BY node_id',
    [idToBin(wf.id)],
  );
  return rows.map((r) => ({ held: Number(r.held), runAt: r.run_at as Date, due: Number(r.due) }));
};

describe('pause', () => {
  it('holds the jobs made before it, and resume releases them', async () => {
    const t = await createTenantWithKey(db.pool, 'pause-made');
    const wf = await submit(t.id, [{ id: 'a' }, { id: 'b' }, { id: 'c', dependsOn: ['a'] }]);
    expect(await setWorkflowPaused(db.pool, t.id, wf.id, true)).toBe('done');
    expect(await claimed(wf)).toEqual([]);
    expect(await setWorkflowPaused(db.pool, t.id, wf.id, false)).toBe('done');
    expect(await claimed(wf)).toEqual(['a', 'b']);
  });

  it('marks the jobs held and keeps their due time; resume clears the flag and nothing else', async () => {
    const t = await createTenantWithKey(db.pool, 'pause-flag');
    const wf = await submit(t.id, [{ id: 'a' }, { id: 'b' }]);
    const before = await heldRows(wf);
    expect(before.map((r) => r.held)).toEqual([0, 0]);
    await setWorkflowPaused(db.pool, t.id, wf.id, true);
    const paused = await heldRows(wf);
    expect(paused.map((r) => r.held)).toEqual([1, 1]);
    // Held, not moved: run_at is the time the job is due, and the job is due, yet no claim takes it.
    expect(paused.map((r) => r.runAt)).toEqual(before.map((r) => r.runAt));
    expect(paused.map((r) => r.due)).toEqual([1, 1]);
    expect(await claimed(wf)).toEqual([]);
    await setWorkflowPaused(db.pool, t.id, wf.id, false);
    expect(await heldRows(wf)).toEqual(before);
    expect(await claimed(wf)).toEqual(['a', 'b']);
  });

  it('keeps a retry’s backoff through the pause: released, the job waits out what is left of it', async () => {
    const t = await createTenantWithKey(db.pool, 'pause-backoff');
    const wf = await submit(t.id, [{ id: 'z' }]);
    const job = (await claim()).find((j) => j.workflowId === wf.id);
    expect(job?.nodeId).toBe('z');
    await setWorkflowPaused(db.pool, t.id, wf.id, true);
    await recordOutcomes(db.pool, [
      {
        job: job!,
        transition: { to: 'retry', lastStatus: 503, lastError: 'HTTP 503', delayMs: 3_600_000 },
        attempt: { status: 503, errorClass: null, error: null, durationMs: 1 },
      },
    ]);
    expect(await heldRows(wf)).toMatchObject([{ held: 1, due: 0 }]);
    await setWorkflowPaused(db.pool, t.id, wf.id, false);
    expect(await heldRows(wf)).toMatchObject([{ held: 0, due: 0 }]);
    expect(await claimed(wf)).toEqual([]);
  });

  it('a node job cancelled while held and re-run by a node retry after the resume is claimable', async () => {
    const t = await createTenantWithKey(db.pool, 'pause-revive');
    const wf = await submit(t.id, [{ id: 'a' }, { id: 'b' }]);
    await setWorkflowPaused(db.pool, t.id, wf.id, true);
    expect(await cancelJob(db.pool, t.id, wf.jobIds[0]!)).toBe('cancelled');
    await setWorkflowPaused(db.pool, t.id, wf.id, false);
    expect(await claimed(wf)).toEqual(['b']);
    // The cancelled job kept its flag; the retry revives the same row, unheld in a run not paused.
    expect(await retryWorkflowNode(db.pool, t.id, wf.id, 'a')).toBe('done');
    expect(await claimed(wf)).toEqual(['a']);
  });

  it('holds a node job a retry sends back to pending during the pause', async () => {
    const t = await createTenantWithKey(db.pool, 'pause-retry');
    const wf = await submit(t.id, [{ id: 'x' }]);
    const [job] = await claim();
    expect(await setWorkflowPaused(db.pool, t.id, wf.id, true)).toBe('done');
    // The call was running at the pause: it finishes, and its retry (due at once) is held.
    await recordOutcomes(db.pool, [
      {
        job: job!,
        transition: { to: 'retry', lastStatus: 503, lastError: 'HTTP 503', delayMs: 0 },
        attempt: { status: 503, errorClass: null, error: null, durationMs: 1 },
      },
    ]);
    expect(await claimed(wf)).toEqual([]);
    await setWorkflowPaused(db.pool, t.id, wf.id, false);
    expect(await claimed(wf)).toEqual(['x']);
  });

  it('a call running through a whole pause: its retry after the resume is claimable', async () => {
    const t = await createTenantWithKey(db.pool, 'pause-through');
    const wf = await submit(t.id, [{ id: 'w' }]);
    const job = (await claim()).find((j) => j.workflowId === wf.id);
    // Paused and resumed while the call runs: only pending jobs are held, so nothing is left held.
    await setWorkflowPaused(db.pool, t.id, wf.id, true);
    await setWorkflowPaused(db.pool, t.id, wf.id, false);
    await recordOutcomes(db.pool, [
      {
        job: job!,
        transition: { to: 'retry', lastStatus: 503, lastError: 'HTTP 503', delayMs: 0 },
        attempt: { status: 503, errorClass: null, error: null, durationMs: 1 },
      },
    ]);
    expect(await claimed(wf)).toEqual(['w']);
  });

  it('the sweep holds a paused run’s node job made pending by a path that does not hold', async () => {
    const t = await createTenantWithKey(db.pool, 'pause-sweep');
    const wf = await submit(t.id, [{ id: 'y' }]);
    await setWorkflowPaused(db.pool, t.id, wf.id, true);
    // Pending and not held outside the finish path (a node retry, or code from before it; the
    // reconciler's give-back holds it itself now: finish-path.test.ts).
    await db.fixtures.query('UPDATE jobs SET held = 0 WHERE workflow_id = ?', [idToBin(wf.id)]);
    expect(await sweepAll()).toBe(1);
    expect(await claimed(wf)).toEqual([]);
    // A job already held is not held again: the sweep counts only what it repaired.
    expect(await sweepAll()).toBe(0);
    await setWorkflowPaused(db.pool, t.id, wf.id, false);
    expect(await claimed(wf)).toEqual(['y']);
  });
});

describe('runs by state', () => {
  it('counts live runs, paused apart, and no finished one', async () => {
    const t = await createTenantWithKey(db.pool, 'count');
    const before = await countRunningWorkflows(db.pool);
    const wf = await submit(t.id, [{ id: 'a' }]);
    expect(await countRunningWorkflows(db.pool)).toEqual({
      running: before.running + 1,
      paused: before.paused,
    });
    await setWorkflowPaused(db.pool, t.id, wf.id, true);
    expect(await countRunningWorkflows(db.pool)).toEqual({
      running: before.running,
      paused: before.paused + 1,
    });
    await db.fixtures.query("UPDATE workflows SET state = 'succeeded' WHERE id = ?", [idToBin(wf.id)]);
    expect(await countRunningWorkflows(db.pool)).toEqual(before);
  });
});
