import {
  type ClaimedJob,
  createWorkflowSchema,
  type JobTransition,
  planWorkflow,
  type WorkflowPlan,
} from '@dsched/domain';
import type { Pool, RowDataPacket } from 'mysql2/promise';
import { expect } from 'vitest';
import { idToBin } from '../src/ids.ts';
import { claimJobs } from '../src/jobs/claim/claims.ts';
import { recordOutcomes } from '../src/jobs/outcome/outcomes.ts';
import { registerWorkflowFollowUps } from '../src/workflows/finish-follow-ups.ts';
import { insertWorkflow } from '../src/workflows/workflow-submit.ts';

// What the walk's tests share: a run stored as task-api stores it, node jobs claimed and finished
// through the executor's own statements, and the run read back. The workflows layer's follow-ups
// are registered with the finish path, as loading @dsched/mysql/workflows does in a service.

registerWorkflowFollowUps();

export type NodeReq = {
  id: string;
  dependsOn?: string[];
  trigger?: 'all_success' | 'all_done' | 'one_failed';
};

export async function submitWorkflow(
  pool: Pool,
  tenantId: string,
  nodes: NodeReq[],
  extra: Record<string, unknown> = {},
  maxAttempts = 2,
): Promise<WorkflowPlan> {
  const req = createWorkflowSchema.parse({
    name: 'wf',
    nodes: nodes.map((n) => ({
      ...n,
      target: { url: 'http://127.0.0.1:9/' },
      retry: { maxAttempts, initialBackoffMs: 0, maxBackoffMs: 0 },
    })),
    ...extra,
  });
  const plan = planWorkflow(req, tenantId, Date.now());
  expect(await insertWorkflow(pool, plan)).toBe(true);
  return plan;
}

export async function nodeStates(pool: Pool, wf: WorkflowPlan): Promise<Record<string, string>> {
  const [rows] = await pool.query<RowDataPacket[]>(
    'SELECT node_id, state FROM workflow_nodes WHERE workflow_id = ?',
    [idToBin(wf.id)],
  );
  return Object.fromEntries(rows.map((r) => [r.node_id, r.state]));
}

export async function runState(pool: Pool, wf: WorkflowPlan): Promise<string> {
  const [rows] = await pool.query<RowDataPacket[]>('SELECT state FROM workflows WHERE id = ?', [
    idToBin(wf.id),
  ]);
  return rows[0]!.state;
}

export const claimNodeJobs = async (pool: Pool, limit = 500): Promise<ClaimedJob[]> =>
  (await claimJobs(pool, { lane: 'default', limit, owner: 'exec-t', leaseSeconds: 60 })).jobs;

/** Records each job's outcome as `decide` says, in one outcome batch (the executor's transaction). */
export async function finishNodeJobs(
  pool: Pool,
  jobs: ClaimedJob[],
  decide: (job: ClaimedJob) => JobTransition['to'],
): Promise<void> {
  const lost = await recordOutcomes(
    pool,
    jobs.map((job) => {
      const to = decide(job);
      const transition: JobTransition =
        to === 'retry'
          ? { to, lastStatus: 503, lastError: 'HTTP 503', delayMs: 0 }
          : ({ to, lastStatus: to === 'succeeded' ? 200 : 400, lastError: null } as JobTransition);
      return { job, transition, attempt: { status: 200, errorClass: null, error: null, durationMs: 1 } };
    }),
  );
  expect(lost).toEqual([]);
}

/** Claims and finishes node jobs as `decide` says until none are left; returns the claim order. */
export async function drainNodeJobs(
  pool: Pool,
  decide: (job: ClaimedJob) => JobTransition['to'],
  batch = 500,
): Promise<ClaimedJob[]> {
  const seen: ClaimedJob[] = [];
  for (;;) {
    const jobs = await claimNodeJobs(pool, batch);
    if (jobs.length === 0) return seen;
    seen.push(...jobs);
    await finishNodeJobs(pool, jobs, decide);
  }
}
