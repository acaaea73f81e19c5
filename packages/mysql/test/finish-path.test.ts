import type { ClaimedJob, WorkflowPlan } from '@dsched/domain';
import { createTenantWithKey } from '@dsched/testkit/fixtures';
import { inEachGroup } from '@dsched/testkit/mysql';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import { claimNodeJobs, nodeStates, runState, submitWorkflow } from '@dsched/testkit/workflows';
import type { RowDataPacket } from 'mysql2/promise';
import { beforeEach, describe, expect, it } from 'vitest';
import { idToBin } from '../src/ids.ts';
import { cancelJob, completeJob } from '../src/jobs/control/job-control.ts';
import { followUps } from '../src/jobs/finish/index.ts';
import { recordOutcomes } from '../src/jobs/outcome/outcomes.ts';
import { failPastDeadline, releaseExpiredClaims } from '../src/jobs/reconcile/reconcile.ts';
import { setWorkflowPaused } from '../src/workflows/workflow-control.ts';

// One way to end a job (docs/design.md invariant 11), on real MariaDB: whatever path ends a node's
// job, its run moves on in that path's own transaction, with no reconciler sweep in between. Before
// the finish path only the executor's outcome batch walked; a node finished through job-api or by
// the reconciler waited for the next workflow sweep (RECONCILER_WORKFLOW_INTERVAL_MS).

const db = useTestDatabase(import.meta.url);
let tenantId: string;

beforeEach(async () => {
  for (const t of [
    'jobs',
    'job_attempts',
    'workflow_node_outputs',
    'workflow_edges',
    'workflow_nodes',
    'workflows',
  ])
    await db.fixtures.query(`DELETE FROM ${t}`);
  tenantId = (await createTenantWithKey(db.pool, 'finish-path', { maxTasks: 100 })).id;
});

const chain = (maxAttempts = 2) =>
  submitWorkflow(db.pool, tenantId, [{ id: 'a' }, { id: 'b', dependsOn: ['a'] }], {
    retry: { maxAttempts, initialBackoffMs: 0, maxBackoffMs: 0 },
  });

async function nodeJobs(wf: WorkflowPlan, nodeId: string): Promise<RowDataPacket[]> {
  const [rows] = await db.pool.query<RowDataPacket[]>(
    'SELECT state, attempt, run_at FROM jobs WHERE workflow_id = ? AND node_id = ?',
    [idToBin(wf.id), nodeId],
  );
  return rows;
}

/** Claims a's job and has its call answer 202: parked, waiting for job-api. */
async function parkRoot(): Promise<ClaimedJob> {
  const [a] = await claimNodeJobs(db.pool);
  expect(a?.nodeId).toBe('a');
  const lost = await recordOutcomes(db.pool, [
    {
      job: a!,
      transition: { to: 'parked', lastStatus: 202, heartbeatSeconds: 60, deadlineSeconds: 600 },
      attempt: { status: 202, errorClass: null, error: null, durationMs: 1 },
    },
  ]);
  expect(lost).toEqual([]);
  return a!;
}

const complete = (job: ClaimedJob, decide: Parameters<typeof completeJob>[2]) =>
  completeJob(db.pool, { tenantId, id: job.id, attempt: job.attempt, errorClass: null }, decide);

describe('a 202 node finished through job-api', () => {
  it('makes its child a job in the completion’s transaction, with its report as its output', async () => {
    const wf = await chain();
    const a = await parkRoot();
    expect(await nodeStates(db.pool, wf)).toEqual({ a: 'pending', b: 'waiting' });
    const done = await complete(a, () => ({ to: 'succeeded', output: { rows: 3 }, error: null }));
    expect(done.kind).toBe('ok');
    // No sweep ran: the child is pending with its job, and the parent's report is its output.
    expect(await nodeStates(db.pool, wf)).toEqual({ a: 'succeeded', b: 'pending' });
    expect((await nodeJobs(wf, 'b')).map((r) => r.state)).toEqual(['pending']);
    const [out] = await db.pool.query<RowDataPacket[]>(
      "SELECT output FROM workflow_node_outputs WHERE workflow_id = ? AND node_id = 'a'",
      [idToBin(wf.id)],
    );
    expect(JSON.parse(String(out[0]!.output))).toEqual({ rows: 3 });
    // The child runs and the run ends through the executor's path as before.
    const [b] = await claimNodeJobs(db.pool);
    expect(b?.nodeId).toBe('b');
    await recordOutcomes(db.pool, [
      {
        job: b!,
        transition: { to: 'succeeded', lastStatus: 200, lastError: null },
        attempt: { status: 200, errorClass: null, error: null, durationMs: 1 },
      },
    ]);
    expect(await runState(db.pool, wf)).toBe('succeeded');
  });

  it('that failed on its last attempt fails its child upstream and ends its run, at once', async () => {
    const wf = await chain(1);
    const a = await parkRoot();
    await complete(a, () => ({ to: 'dead', output: undefined, error: 'no' }));
    expect(await nodeStates(db.pool, wf)).toEqual({ a: 'dead', b: 'upstream_failed' });
    expect(await runState(db.pool, wf)).toBe('failed');
  });

  it('that failed with attempts left, in a paused run, is held until the resume', async () => {
    const wf = await chain();
    const a = await parkRoot();
    expect(await setWorkflowPaused(db.pool, tenantId, wf.id, true)).toBe('done');
    await complete(a, () => ({ to: 'retry', output: undefined, error: 'later', delayMs: 0 }));
    const [job] = await nodeJobs(wf, 'a');
    expect(job!.state).toBe('pending');
    expect(await claimNodeJobs(db.pool)).toEqual([]);
    expect(await setWorkflowPaused(db.pool, tenantId, wf.id, false)).toBe('done');
    expect((await claimNodeJobs(db.pool)).map((j) => j.nodeId)).toEqual(['a']);
  });
});

describe('a node job cancelled through job-api', () => {
  it('tells its children at once: they fail upstream and the run ends', async () => {
    const wf = await chain();
    const [aJob] = await nodeJobs(wf, 'a');
    expect(aJob!.state).toBe('pending');
    expect(await cancelJob(db.pool, tenantId, wf.jobIds[0]!)).toBe('cancelled');
    expect(await nodeStates(db.pool, wf)).toEqual({ a: 'cancelled', b: 'upstream_failed' });
    expect(await runState(db.pool, wf)).toBe('failed');
  });
});

describe('a node job ended by the reconciler', () => {
  it('dead-lettered at its lease’s expiry tells its children at once', async () => {
    const wf = await chain(1);
    const [a] = await claimNodeJobs(db.pool);
    await db.fixtures.query('UPDATE jobs SET lease_expires_at = NOW(3) - INTERVAL 1 SECOND WHERE id = ?', [
      idToBin(a!.id),
    ]);
    expect(await inEachGroup((p) => releaseExpiredClaims(db.pool, 10, undefined, null, p))).toMatchObject({
      released: 0,
      dead: 1,
    });
    expect(await nodeStates(db.pool, wf)).toEqual({ a: 'dead', b: 'upstream_failed' });
    expect(await runState(db.pool, wf)).toBe('failed');
  });

  it('dead-lettered past its 202 deadline tells its children at once', async () => {
    const wf = await chain(1);
    const a = await parkRoot();
    await db.fixtures.query('UPDATE jobs SET deadline_at = NOW(3) - INTERVAL 1 SECOND WHERE id = ?', [
      idToBin(a.id),
    ]);
    expect(await inEachGroup((p) => failPastDeadline(db.pool, 10, undefined, null, p))).toMatchObject({
      released: 0,
      dead: 1,
    });
    expect(await nodeStates(db.pool, wf)).toEqual({ a: 'dead', b: 'upstream_failed' });
    expect(await runState(db.pool, wf)).toBe('failed');
  });

  it('given back in a paused run is held until the resume', async () => {
    const wf = await chain();
    const [a] = await claimNodeJobs(db.pool);
    expect(await setWorkflowPaused(db.pool, tenantId, wf.id, true)).toBe('done');
    await db.fixtures.query('UPDATE jobs SET lease_expires_at = NOW(3) - INTERVAL 1 SECOND WHERE id = ?', [
      idToBin(a!.id),
    ]);
    expect(await inEachGroup((p) => releaseExpiredClaims(db.pool, 10, undefined, null, p))).toMatchObject({
      released: 1,
      dead: 0,
    });
    expect(await claimNodeJobs(db.pool)).toEqual([]);
    expect(await setWorkflowPaused(db.pool, tenantId, wf.id, false)).toBe('done');
    expect((await claimNodeJobs(db.pool)).map((j) => j.nodeId)).toEqual(['a']);
  });
});

describe('the follow-ups', () => {
  it('run in their phases: what the attempt leaves, then the walk, then the run ends', () => {
    expect(followUps().map((f) => `${f.phase}: ${f.name}`)).toEqual([
      'record: callback jobs',
      'record: failure streaks',
      'record: node outputs',
      'record: held retries',
      'tell: the walk',
      'settle: run ends',
    ]);
  });
});
