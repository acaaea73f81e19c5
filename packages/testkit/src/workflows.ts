import {
  type ClaimedJob,
  createWorkflowSchema,
  type JobTransition,
  planWorkflow,
  type RetryPolicy,
  type WorkflowPlan,
} from '@dsched/domain';
import { idToBin } from '@dsched/mysql/ids';
import { recordOutcomes } from '@dsched/mysql/jobs/outcome';
import type { Pool, RowDataPacket } from '@dsched/mysql/pool';
import { insertWorkflow } from '@dsched/mysql/workflows';
import { claimDue } from './queue.ts';

// Workflows for tests, the one set: a run stored as task-api stores it, the request body an API
// test posts, node jobs claimed and finished through the executor's own statements, and the run
// read back. Loading @dsched/mysql/workflows registers the workflows layer's follow-ups with the
// finish path, as in a service.

/** A node as the tests write it: its id and what the request may say besides its target. */
export interface NodeReq {
  id: string;
  dependsOn?: string[];
  trigger?: 'all_success' | 'all_done' | 'one_failed';
  inputs?: 'parents' | 'none';
  /** The node's call's body. */
  body?: unknown;
  /** A node that waits (docs/workflows.md): no target, its own field instead. */
  kind?: 'call' | 'sleep' | 'wait' | 'map';
  sleep?: { for?: string; until?: string };
  wait?: { timeoutS: number; onTimeout?: 'fail' | 'succeed' };
  /** A map node: the parent it maps over; each item calls `<targetUrl>/<node id>`. */
  map?: { over: string; maxItems?: number };
}

/** Retries at once: a retried node's job is due again immediately. */
const FAST_RETRY: Partial<RetryPolicy> = { maxAttempts: 2, initialBackoffMs: 0, maxBackoffMs: 0 };

/**
 * The body of `POST /v1/workflows`: each node calls `<targetUrl>/<node id>` with `retry`
 * (default: two attempts, no backoff); `extra` adds run fields (failurePolicy, maxParallel, …).
 */
export function workflowRequest(
  name: string,
  targetUrl: string,
  nodes: NodeReq[],
  options: { extra?: Record<string, unknown>; retry?: Partial<RetryPolicy> } = {},
): Record<string, unknown> {
  return {
    name,
    nodes: nodes.map(({ body, map, ...n }) => ({
      ...n,
      ...(n.kind === 'sleep' || n.kind === 'wait' || n.kind === 'map'
        ? {}
        : { target: { url: `${targetUrl}/${n.id}`, ...(body !== undefined ? { body } : {}) } }),
      ...(map ? { map: { ...map, target: { url: `${targetUrl}/${n.id}` } } } : {}),
      retry: options.retry ?? FAST_RETRY,
    })),
    ...options.extra,
  };
}

/** A run stored as task-api stores it (checked and planned by the domain, inserted whole). */
export async function submitWorkflow(
  pool: Pool,
  tenantId: string,
  nodes: NodeReq[],
  options: { extra?: Record<string, unknown>; retry?: Partial<RetryPolicy>; partition?: number } = {},
): Promise<WorkflowPlan> {
  const req = createWorkflowSchema.parse(workflowRequest('wf', 'http://127.0.0.1:9', nodes, options));
  const plan = planWorkflow(req, tenantId, Date.now(), options.partition ?? 0);
  if (!(await insertWorkflow(pool, plan))) throw new Error(`workflow ${plan.id} was not stored`);
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

/** Node jobs (and any other due job of the default lane) as an executor claims them. */
export const claimNodeJobs = async (pool: Pool, limit = 500): Promise<ClaimedJob[]> =>
  (await claimDue(pool, { limit, owner: 'exec-t' })).jobs;

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
  if (lost.length > 0) throw new Error(`outcomes of lost claims: ${JSON.stringify(lost)}`);
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
