import type { ClaimedJob, WorkflowPlan } from '@dsched/domain';
import { createTenantWithKey } from '@dsched/testkit/fixtures';
import { claimDue } from '@dsched/testkit/queue';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import { type NodeReq, submitWorkflow } from '@dsched/testkit/workflows';
import { describe, expect, it } from 'vitest';
import { idToBin } from '../src/ids.ts';
import { recordOutcomes } from '../src/jobs/outcome/outcomes.ts';
import { setWorkflowPaused } from '../src/workflows/workflow-control.ts';
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

describe('pause', () => {
  it('holds the jobs made before it, and resume releases them', async () => {
    const t = await createTenantWithKey(db.pool, 'pause-made');
    const wf = await submit(t.id, [{ id: 'a' }, { id: 'b' }, { id: 'c', dependsOn: ['a'] }]);
    expect(await setWorkflowPaused(db.pool, t.id, wf.id, true)).toBe('done');
    expect(await claimed(wf)).toEqual([]);
    expect(await setWorkflowPaused(db.pool, t.id, wf.id, false)).toBe('done');
    expect(await claimed(wf)).toEqual(['a', 'b']);
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

  it('the sweep holds a paused run’s node job made pending by a path that does not hold', async () => {
    const t = await createTenantWithKey(db.pool, 'pause-sweep');
    const wf = await submit(t.id, [{ id: 'y' }]);
    await setWorkflowPaused(db.pool, t.id, wf.id, true);
    // Pending and due outside the finish path (a node retry, or code from before it; the reconciler's
    // give-back holds it itself now: finish-path.test.ts).
    await db.pool.query('UPDATE jobs SET run_at = NOW(3) WHERE workflow_id = ?', [idToBin(wf.id)]);
    let held = 0;
    let after: string | null = null;
    do {
      const pass = await sweepWorkflows(db.pool, after, 50);
      held += pass.held;
      after = pass.nextAfter;
    } while (after);
    expect(held).toBe(1);
    expect(await claimed(wf)).toEqual([]);
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
    await db.pool.query("UPDATE workflows SET state = 'succeeded' WHERE id = ?", [idToBin(wf.id)]);
    expect(await countRunningWorkflows(db.pool)).toEqual(before);
  });
});
