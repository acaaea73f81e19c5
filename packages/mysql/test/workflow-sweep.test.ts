import type { WorkflowPlan } from '@dsched/domain';
import { allPartitions, DEFAULT_PARTITIONS } from '@dsched/domain';
import { createTenantWithKey } from '@dsched/testkit/fixtures';
import { claimDue } from '@dsched/testkit/queue';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import { type NodeReq, submitWorkflow } from '@dsched/testkit/workflows';
import type { RowDataPacket } from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { idToBin } from '../src/ids.ts';
import { selectArchivableJobs } from '../src/jobs/archive/archive.ts';
import { recordOutcomes } from '../src/jobs/outcome/outcomes.ts';
import { registerWorkflowFollowUps } from '../src/workflows/finish-follow-ups.ts';
import { sweepWorkflows } from '../src/workflows/workflow-sweep.ts';

const EVERY = allPartitions(DEFAULT_PARTITIONS);

// The reconciler's workflow sweep on real MariaDB: it finishes and repairs runs from their durable
// node states alone, idempotently, and fails runs past their deadline.

registerWorkflowFollowUps();

const db = useTestDatabase(import.meta.url);

const submit = (tenantId: string, nodes: NodeReq[], extra = {}) =>
  submitWorkflow(db.pool, tenantId, nodes, { extra });

const state = async (wf: WorkflowPlan) =>
  (await db.pool.query<RowDataPacket[]>('SELECT state FROM workflows WHERE id = ?', [idToBin(wf.id)]))[0][0]!
    .state as string;

const sweepAll = async () => {
  let after: string | null = null;
  const total = { finished: 0, repaired: 0, pastDeadline: 0 };
  do {
    const r = await sweepWorkflows(db.pool, after, 2);
    total.finished += r.finished;
    total.repaired += r.repaired;
    total.pastDeadline += r.pastDeadline;
    after = r.nextAfter;
  } while (after);
  return total;
};

describe('the workflow sweep', () => {
  it('applies an outcome no walk applied (a job finished by a bare update) and finishes the run, once', async () => {
    const t = await createTenantWithKey(db.pool, 'stranded');
    const wf = await submit(t.id, [{ id: 'a' }, { id: 'b', dependsOn: ['a'] }]);
    // a finishes by a path that does not walk: every path walks through the finish path now, so a
    // bare update stands for a job ended by code from before it, or by a bug.
    await db.fixtures.query(
      "UPDATE jobs SET state = 'succeeded', attempt = 1, finished_at = NOW(3) WHERE workflow_id = ? AND node_id = 'a'",
      [idToBin(wf.id)],
    );
    // The archiver leaves it until the sweep applied its outcome, so that outcome is never lost.
    const archivable = async () =>
      (
        await selectArchivableJobs(db.pool, { limit: 100, deadRetentionSeconds: 0, partitions: EVERY })
      ).filter((j) => j.view.workflowId === wf.id);
    expect(await archivable()).toEqual([]);
    expect((await sweepAll()).repaired).toBe(1);
    expect((await archivable()).map((j) => j.view.nodeId)).toEqual(['a']);
    const { jobs } = await claimDue(db.pool, { limit: 10, owner: 'x' });
    expect(jobs.map((j) => j.nodeId)).toEqual(['b']);
    // The run's last node finishes by that path too: the sweep completes the run.
    await db.fixtures.query("UPDATE jobs SET state = 'succeeded', finished_at = NOW(3) WHERE id = ?", [
      idToBin(jobs[0]!.id),
    ]);
    expect(await sweepAll()).toMatchObject({ repaired: 1 });
    expect(await state(wf)).toBe('succeeded');
    // Idempotent: nothing more to do, and the tenant's quota was freed once.
    expect(await sweepAll()).toEqual({ finished: 0, repaired: 0, pastDeadline: 0 });
    const [tenant] = await db.pool.query<RowDataPacket[]>('SELECT task_count FROM tenants WHERE id = ?', [
      idToBin(t.id),
    ]);
    expect(Number(tenant[0]!.task_count)).toBe(0);
  });

  it("serves one group of partitions per pass: another group's stranded run is left to that group's pass", async () => {
    const t = await createTenantWithKey(db.pool, 'groups');
    // A run of partition 1: on two shards, the odd partitions' (docs/sharding.md).
    const wf = await submitWorkflow(db.pool, t.id, [{ id: 'a' }], { partition: 1 });
    await db.fixtures.query(
      "UPDATE jobs SET state = 'succeeded', attempt = 1, finished_at = NOW(3) WHERE workflow_id = ? AND node_id = 'a'",
      [idToBin(wf.id)],
    );
    const even = EVERY.filter((p) => p % 2 === 0);
    const odd = EVERY.filter((p) => p % 2 === 1);
    await sweepWorkflows(db.pool, null, 10, even);
    expect(await state(wf)).toBe('running');
    expect(await sweepWorkflows(db.pool, null, 10, odd)).toMatchObject({ repaired: 1, finished: 1 });
    expect(await state(wf)).toBe('succeeded');
  });

  it('finishes a run whose last completion did not finish it (two last nodes in two transactions)', async () => {
    const t = await createTenantWithKey(db.pool, 'lost');
    const wf = await submit(t.id, [{ id: 'a' }]);
    const [job] = (await claimDue(db.pool, { limit: 10, owner: 'x' })).jobs;
    await recordOutcomes(db.pool, [
      {
        job: job!,
        transition: { to: 'succeeded', lastStatus: 200, lastError: null },
        attempt: { status: 200, errorClass: null, error: null, durationMs: 1 },
      },
    ]);
    // Simulate the race: the outcome transaction committed the node, not the run.
    await db.fixtures.query("UPDATE workflows SET state = 'running', finished_at = NULL WHERE id = ?", [
      idToBin(wf.id),
    ]);
    expect((await sweepAll()).finished).toBe(1);
    expect(await state(wf)).toBe('succeeded');
  });

  it('fails a run past its deadline and cancels what has not started', async () => {
    const t = await createTenantWithKey(db.pool, 'deadline');
    const wf = await submit(t.id, [{ id: 'a' }, { id: 'b', dependsOn: ['a'] }], { deadlineS: 60 });
    expect((await sweepAll()).pastDeadline).toBe(0);
    await db.fixtures.query('UPDATE workflows SET deadline_at = NOW(3) - INTERVAL 1 SECOND WHERE id = ?', [
      idToBin(wf.id),
    ]);
    expect((await sweepAll()).pastDeadline).toBe(1);
    expect(await state(wf)).toBe('failed');
    const [nodes] = await db.pool.query<RowDataPacket[]>(
      'SELECT node_id, state FROM workflow_nodes WHERE workflow_id = ? ORDER BY node_id',
      [idToBin(wf.id)],
    );
    expect(nodes.map((n) => n.state)).toEqual(['cancelled', 'cancelled']);
  });
});
