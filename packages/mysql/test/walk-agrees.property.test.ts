import {
  type ClaimedJob,
  canNodeTransition,
  FINISHED_NODE_STATES,
  finalWorkflowState,
  parentOutcome,
  type StoredNodeState,
  TRIGGER_RULES,
  type TriggerRule,
  triggerDecision,
  type WorkflowState,
} from '@dsched/domain';
import { createTenantWithKey } from '@dsched/testkit/fixtures';
import { inEachGroup } from '@dsched/testkit/mysql';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import { nodeStates, runState, submitWorkflow } from '@dsched/testkit/workflows';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { idToBin } from '../src/ids.ts';
import { claimJobs } from '../src/jobs/claim/claims.ts';
import { cancelJob, completeJob } from '../src/jobs/control/job-control.ts';
import { recordOutcomes } from '../src/jobs/outcome/outcomes.ts';
import { releaseExpiredClaims } from '../src/jobs/reconcile/reconcile.ts';
import { sweepWorkflows } from '../src/workflows/workflow-sweep.ts';

// The walk's decisions are SQL (walk-decide.sql, walk-runs-done.sql, stopRuns); the domain states
// them as functions (triggerDecision, parentOutcome, canNodeTransition, finalWorkflowState in
// packages/domain/src/decisions/workflow-nodes.ts). This property runs random small DAGs (random
// parents, trigger rules and failure policy) whose nodes end at random (succeeded, dead,
// cancelled) by random paths (the executor's outcome, job-api's complete or cancel of a 202 node,
// the reconciler dead-lettering an expired claim) through the SQL walk on MariaDB, one node job at
// a time, and through a model built on the domain's functions, and asserts: every node the SQL
// walk runs is one the model may run; every change of a node's stored state is a transition the
// domain allows; and at the end the same state for every node, and for the run.
//
// At most 6 nodes: a propagation (skipped, upstream_failed) is then at most 5 deep, within one
// outcome transaction's bound (a first step and 4 more), so the SQL walk never defers part of it
// to a later walker and its order of effects is the model's.

const NODES = { min: 1, max: 6 };
const RUNS = Number(process.env.WALK_PROPERTY_RUNS ?? 60);

type Outcome = 'succeeded' | 'dead' | 'cancelled';
type Path = 'executor' | 'job-api' | 'reconciler';

interface NodeSpec {
  parents: number[];
  trigger: TriggerRule;
  outcome: Outcome;
  path: Path;
}

interface RunSpec {
  failurePolicy: 'continue' | 'fail_fast';
  nodes: NodeSpec[];
}

const runSpec: fc.Arbitrary<RunSpec> = fc
  .integer(NODES)
  .chain((n) =>
    fc.record({
      failurePolicy: fc.constantFrom('continue' as const, 'fail_fast' as const),
      nodes: fc.tuple(
        ...Array.from({ length: n }, (_, i) =>
          fc.record({
            parents: fc.subarray(Array.from({ length: i }, (_, p) => p)),
            trigger: fc.constantFrom(...TRIGGER_RULES),
            outcome: fc.constantFrom<Outcome>('succeeded', 'dead', 'cancelled'),
            path: fc.constantFrom<Path>('executor', 'job-api', 'reconciler'),
          }),
        ),
      ),
    }),
  )
  // The reconciler ends a claim only by giving it back or, on its last attempt, dead-lettering it.
  .map((r) => ({
    ...r,
    nodes: r.nodes.map((n) =>
      n.path === 'reconciler' && n.outcome !== 'dead' ? { ...n, path: 'executor' } : n,
    ),
  }));

const FINISHED = new Set<string>(FINISHED_NODE_STATES);

/** The walk as the domain states it: node states and the run's, moved by one node's end at a time. */
class WalkModel {
  readonly state: StoredNodeState[];
  run: WorkflowState = 'running';
  private readonly children: number[][];
  private readonly spec: RunSpec;

  constructor(spec: RunSpec) {
    this.spec = spec;
    this.state = spec.nodes.map((n) => (n.parents.length === 0 ? 'pending' : 'waiting'));
    this.children = spec.nodes.map(() => []);
    spec.nodes.forEach((n, i) => {
      for (const p of n.parents) this.children[p]!.push(i);
    });
  }

  /** A node whose job exists and has not finished: one the walk may run now. */
  mayRun(i: number): boolean {
    return this.state[i] === 'pending';
  }

  end(i: number, outcome: Outcome): void {
    this.state[i] = outcome;
    // fail_fast: a dead node ends its run failed; what has not finished is cancelled.
    if (outcome === 'dead' && this.spec.failurePolicy === 'fail_fast' && this.run === 'running') {
      this.run = 'failed';
      this.state.forEach((s, j) => {
        if (!FINISHED.has(s)) this.state[j] = 'cancelled';
      });
    }
    const told = [i];
    while (told.length > 0) {
      const parent = told.shift()!;
      for (const c of this.children[parent]!) {
        if (this.state[c] !== 'waiting') continue;
        const parents = this.spec.nodes[c]!.parents.map((p) => this.state[p]!);
        const finished = parents.filter((s) => FINISHED.has(s)) as (typeof FINISHED_NODE_STATES)[number][];
        const decision = triggerDecision(this.spec.nodes[c]!.trigger, {
          unfinished: parents.length - finished.length,
          failed: finished.filter((s) => parentOutcome(s) === 'failed').length,
          skipped: finished.filter((s) => parentOutcome(s) === 'skipped').length,
        });
        if (decision === 'waiting') continue;
        if (this.run !== 'running') this.state[c] = 'cancelled';
        else this.state[c] = decision === 'run' ? 'pending' : decision;
        if (this.state[c] !== 'pending') told.push(c);
      }
    }
    if (this.run === 'running' && this.state.every((s) => FINISHED.has(s))) {
      const counts: Partial<Record<StoredNodeState, number>> = {};
      for (const s of this.state) counts[s] = (counts[s] ?? 0) + 1;
      this.run = finalWorkflowState(counts);
    }
  }
}

const db = useTestDatabase(import.meta.url);
let tenantId: string;

beforeAll(async () => {
  tenantId = (await createTenantWithKey(db.pool, 'walk-property', { maxTasks: 10_000 })).id;
});

const attempt = { status: 200, errorClass: null, error: null, durationMs: 1 };

/** Ends a claimed node job as its spec says, by its path. */
async function endJob(job: ClaimedJob, node: NodeSpec): Promise<void> {
  if (node.path === 'reconciler') {
    await db.fixtures.query('UPDATE jobs SET lease_expires_at = NOW(3) - INTERVAL 1 SECOND WHERE id = ?', [
      idToBin(job.id),
    ]);
    expect(await inEachGroup((p) => releaseExpiredClaims(db.pool, 10, undefined, null, p))).toMatchObject({
      dead: 1,
    });
    return;
  }
  if (node.path === 'executor') {
    const lastStatus = node.outcome === 'succeeded' ? 200 : node.outcome === 'dead' ? 404 : null;
    const lost = await recordOutcomes(db.pool, [
      { job, transition: { to: node.outcome, lastStatus, lastError: null }, attempt },
    ]);
    expect(lost).toEqual([]);
    return;
  }
  // job-api: the call answers 202, then the target completes it, or its tenant cancels it.
  await recordOutcomes(db.pool, [
    {
      job,
      transition: { to: 'parked', lastStatus: 202, heartbeatSeconds: 60, deadlineSeconds: 600 },
      attempt: { ...attempt, status: 202 },
    },
  ]);
  if (node.outcome === 'cancelled') {
    expect(await cancelJob(db.pool, tenantId, job.id)).toBe('cancelled');
    return;
  }
  const outcome = node.outcome;
  const done = await completeJob(
    db.pool,
    { tenantId, id: job.id, attempt: job.attempt, errorClass: null },
    () => ({ to: outcome, output: { from: job.nodeId }, error: outcome === 'dead' ? 'failed' : null }),
  );
  expect(done.kind).toBe('ok');
}

async function runBoth(spec: RunSpec): Promise<void> {
  for (const t of [
    'job_attempts',
    'jobs',
    'workflow_node_outputs',
    'workflow_edges',
    'workflow_nodes',
    'workflows',
  ])
    await db.fixtures.query(`DELETE FROM ${t}`);
  const wf = await submitWorkflow(
    db.pool,
    tenantId,
    spec.nodes.map((n, i) => ({ id: `n${i}`, dependsOn: n.parents.map((p) => `n${p}`), trigger: n.trigger })),
    {
      extra: { failurePolicy: spec.failurePolicy },
      retry: { maxAttempts: 1, initialBackoffMs: 0, maxBackoffMs: 0 },
    },
  );
  const model = new WalkModel(spec);
  const sqlStates = async () => {
    const s = await nodeStates(db.pool, wf);
    return spec.nodes.map((_, i) => s[`n${i}`] as StoredNodeState);
  };
  let before = await sqlStates();
  expect(before).toEqual(model.state);
  for (let step = 0; step <= spec.nodes.length; step++) {
    const [job] = (
      await claimJobs(db.pool, { lane: 'default', limit: 1, owner: 'walk-property', leaseSeconds: 60 })
    ).jobs;
    if (!job) break;
    const i = Number(job.nodeId!.slice(1));
    expect(model.mayRun(i), `the SQL walk ran n${i}, which the domain's walk does not run`).toBe(true);
    await endJob(job, spec.nodes[i]!);
    model.end(i, spec.nodes[i]!.outcome);
    const after = await sqlStates();
    after.forEach((to, n) => {
      const from = before[n]!;
      if (from !== to) expect(canNodeTransition(from, to), `n${n}: ${from} → ${to}`).toBe(true);
    });
    before = after;
  }
  // What a walker left (none is expected here, but production has the sweep for it).
  await sweepWorkflows(db.pool, null, 10);
  expect(await sqlStates()).toEqual(model.state);
  expect(await runState(db.pool, wf)).toBe(model.run);
}

describe('the SQL walk and the domain’s decisions', () => {
  it('agree on every node and on the run, for random DAGs ended at random by every path', async () => {
    await fc.assert(fc.asyncProperty(runSpec, runBoth), { numRuns: RUNS });
  });

  it('agree on a case each rule and policy meets', async () => {
    // A failure handler (one_failed) and a cleanup (all_done) under a dead node; a skipped branch.
    await runBoth({
      failurePolicy: 'continue',
      nodes: [
        { parents: [], trigger: 'all_success', outcome: 'dead', path: 'job-api' },
        { parents: [0], trigger: 'one_failed', outcome: 'succeeded', path: 'executor' },
        { parents: [0], trigger: 'all_done', outcome: 'cancelled', path: 'job-api' },
        { parents: [1, 2], trigger: 'all_success', outcome: 'succeeded', path: 'executor' },
        { parents: [3], trigger: 'one_failed', outcome: 'succeeded', path: 'executor' },
      ],
    });
    // fail_fast: a dead node by the reconciler cancels what has not started.
    await runBoth({
      failurePolicy: 'fail_fast',
      nodes: [
        { parents: [], trigger: 'all_success', outcome: 'succeeded', path: 'executor' },
        { parents: [], trigger: 'all_success', outcome: 'dead', path: 'reconciler' },
        { parents: [0], trigger: 'all_done', outcome: 'succeeded', path: 'executor' },
      ],
    });
  });
});
