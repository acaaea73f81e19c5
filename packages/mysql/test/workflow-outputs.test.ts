import { type ClaimedJob, MAX_INLINE_PARENTS, type OutcomeWrite, type WorkflowPlan } from '@dsched/domain';
import { createTenantWithKey } from '@dsched/testkit/fixtures';
import { claimDue } from '@dsched/testkit/queue';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import { type NodeReq, submitWorkflow } from '@dsched/testkit/workflows';
import type { RowDataPacket } from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { idToBin } from '../src/ids.ts';
import { recordOutcomes } from '../src/jobs/outcome/outcomes.ts';
import { registerWorkflowFollowUps } from '../src/workflows/finish-follow-ups.ts';
import { attachNodeInputs } from '../src/workflows/node-inputs.ts';
import { listWorkflowNodeParents, listWorkflowNodes } from '../src/workflows/workflow-reads.ts';

// Parent outputs on real MariaDB: the outcome batch keeps a node's response body in
// workflow_node_outputs (fenced like the job update), and a claimed child that asked for its
// inputs is given its parents' outputs, or the paged URL of them when they do not fit.

registerWorkflowFollowUps();

const db = useTestDatabase(import.meta.url);
const TASK_API = 'http://task-api.test:8080';

const submit = (tenantId: string, nodes: NodeReq[]): Promise<WorkflowPlan> =>
  submitWorkflow(db.pool, tenantId, nodes, {
    retry: { maxAttempts: 3, initialBackoffMs: 0, maxBackoffMs: 0 },
  });

const claim = async (limit = 2000): Promise<ClaimedJob[]> =>
  (await claimDue(db.pool, { limit, owner: 'exec-o' })).jobs;

function success(
  job: ClaimedJob,
  responseBody?: string,
  to: 'succeeded' | 'dead' = 'succeeded',
): OutcomeWrite {
  return {
    job,
    transition: { to, lastStatus: to === 'succeeded' ? 200 : 400, lastError: null },
    attempt: { status: 200, errorClass: null, error: null, durationMs: 1 },
    ...(responseBody !== undefined ? { responseBody } : {}),
  };
}

async function outputs(wf: WorkflowPlan): Promise<Record<string, { attempt: number; output: string }>> {
  const [rows] = await db.pool.query<RowDataPacket[]>(
    'SELECT node_id, attempt, output FROM workflow_node_outputs WHERE workflow_id = ?',
    [idToBin(wf.id)],
  );
  return Object.fromEntries(rows.map((r) => [r.node_id, { attempt: Number(r.attempt), output: r.output }]));
}

const byNode = (jobs: ClaimedJob[]) => new Map(jobs.map((j) => [j.nodeId!, j]));

describe('node outputs', () => {
  it('keeps each finished node’s body in the outcome batch, as JSON, and shows it in the node list', async () => {
    const t = await createTenantWithKey(db.pool, 'outputs');
    const wf = await submit(t.id, [{ id: 'a' }, { id: 'b' }, { id: 'c' }, { id: 'x' }]);
    const jobs = byNode(await claim());
    const lost = await recordOutcomes(db.pool, [
      success(jobs.get('a')!, '{"rows": 3}'),
      success(jobs.get('b')!, 'plain text'),
      success(jobs.get('c')!, 'not found', 'dead'),
      success(jobs.get('x')!),
    ]);
    expect(lost).toEqual([]);
    expect(await outputs(wf)).toEqual({
      a: { attempt: 1, output: '{"rows": 3}' },
      b: { attempt: 1, output: '"plain text"' },
      c: { attempt: 1, output: '"not found"' },
    });
    const page = await listWorkflowNodes(db.pool, wf.id, { limit: 10 });
    expect(Object.fromEntries(page.map((n) => [n.nodeId, n.output]))).toEqual({
      a: { rows: 3 },
      b: 'plain text',
      c: 'not found',
      x: undefined,
    });
  });

  it('drops the body of a stale claim with its outcome, and never lets an older attempt overwrite a newer one', async () => {
    const t = await createTenantWithKey(db.pool, 'stale');
    const wf = await submit(t.id, [{ id: 'a' }]);
    const [job] = await claim();
    const stale = { ...job!, attempt: job!.attempt + 7 };
    expect(await recordOutcomes(db.pool, [success(stale, '"late"')])).toHaveLength(1);
    expect(await outputs(wf)).toEqual({});
    // A newer attempt's output is in place (a node re-run); the first attempt's replay is older.
    await db.pool.query(
      "INSERT INTO workflow_node_outputs (workflow_id, node_id, attempt, output, created_at, `partition`) VALUES (?, 'a', 9, '\"newer\"', NOW(3), 0)",
      [idToBin(wf.id)],
    );
    expect(await recordOutcomes(db.pool, [success(job!, '"older"')])).toEqual([]);
    expect(await outputs(wf)).toEqual({ a: { attempt: 9, output: '"newer"' } });
  });
});

describe('node inputs', () => {
  it('calls a node that asked with its parents’ outputs beside its body; the others with their body alone', async () => {
    const t = await createTenantWithKey(db.pool, 'inputs');
    const wf = await submit(t.id, [
      { id: 'p1' },
      { id: 'p2' },
      { id: 'p3' },
      { id: 'child', dependsOn: ['p2', 'p1', 'p3'], inputs: 'parents', body: { day: '2026-12-01' } },
      { id: 'plain', dependsOn: ['p1'], body: 'as is' },
    ]);
    const roots = byNode(await claim());
    await recordOutcomes(db.pool, [
      success(roots.get('p1')!, '{"n":1}'),
      success(roots.get('p2')!, 'two'),
      success(roots.get('p3')!),
    ]);
    const jobs = await claim();
    await attachNodeInputs(db.pool, jobs, { maxRequestBytes: 256 * 1024, taskApiUrl: TASK_API });
    const got = byNode(jobs);
    expect(got.get('child')!.target.body).toBe(
      '{"parents":{"p1":{"n":1},"p2":"two","p3":null},"body":{"day":"2026-12-01"}}',
    );
    expect(got.get('child')!.target.headers['content-type']).toBe('application/json');
    expect(got.get('plain')!.target.body).toBe('as is');
    expect(got.get('plain')!.target.headers['content-type']).toBeUndefined();
    void wf;
  });

  it('sends the paged URL instead when the outputs would pass the request cap, or the parents are too many', async () => {
    const t = await createTenantWithKey(db.pool, 'paged');
    const many = Array.from({ length: MAX_INLINE_PARENTS + 1 }, (_, i) => ({ id: `m${i}` }));
    const wf = await submit(t.id, [
      { id: 'p1' },
      { id: 'p2' },
      { id: 'big', dependsOn: ['p1', 'p2'], inputs: 'parents', body: 'b' },
      ...many,
      { id: 'fanin', dependsOn: many.map((m) => m.id), inputs: 'parents' },
    ]);
    const roots = await claim(5000);
    await recordOutcomes(
      db.pool,
      roots.map((j) => success(j, j.nodeId === 'p1' ? `"${'x'.repeat(300)}"` : '1')),
    );
    const jobs = await claim();
    expect(jobs.map((j) => j.nodeId).sort()).toEqual(['big', 'fanin']);
    const got = byNode(jobs);
    // big: two parents, over 300 bytes; fanin: small outputs, but more parents than are ever inlined.
    await attachNodeInputs(db.pool, [got.get('big')!], { maxRequestBytes: 300, taskApiUrl: TASK_API });
    await attachNodeInputs(db.pool, [got.get('fanin')!], { maxRequestBytes: 1 << 20, taskApiUrl: TASK_API });
    expect(JSON.parse(got.get('big')!.target.body as string)).toEqual({
      parentsUrl: `${TASK_API}/v1/workflows/${wf.id}/nodes/big/parents`,
      parentCount: 2,
      body: 'b',
    });
    expect(JSON.parse(got.get('fanin')!.target.body as string)).toEqual({
      parentsUrl: `${TASK_API}/v1/workflows/${wf.id}/nodes/fanin/parents`,
      parentCount: MAX_INLINE_PARENTS + 1,
      body: null,
    });
    // The paged list: every parent once, in id order, with its output.
    const seen: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await listWorkflowNodeParents(db.pool, wf.id, 'fanin', {
        limit: 400,
        ...(after ? { afterNodeId: after } : {}),
      });
      expect(page).not.toBeNull();
      if (page!.length === 0) break;
      for (const n of page!) {
        expect(n.output).toBe(1);
        seen.push(n.nodeId);
      }
      after = page!.at(-1)!.nodeId;
    }
    expect(seen).toEqual(many.map((m) => m.id).sort());
    expect(await listWorkflowNodeParents(db.pool, wf.id, 'nope', { limit: 5 })).toBeNull();
  });
});
