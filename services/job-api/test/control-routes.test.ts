import { type ClaimedJob, createWorkflowSchema, planWorkflow } from '@dsched/domain';
import { idToBin } from '@dsched/mysql/ids';
import { claimJobs } from '@dsched/mysql/jobs/claim';
import { recordOutcomes } from '@dsched/mysql/jobs/outcome';
import type { RowDataPacket } from '@dsched/mysql/pool';
import { insertWorkflow } from '@dsched/mysql/workflows';
import { createTenantWithKey } from '@dsched/testkit/fixtures';
import { clearJobs, insertDueJobs } from '@dsched/testkit/queue';
import { useTestStores } from '@dsched/testkit/test-stores';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp } from './test-app.ts';

// job-api's cancel, heartbeat and complete routes through fastify inject, on real MariaDB and
// Cassandra (a job not in MySQL is looked up in history).

const { db, ks } = useTestStores(import.meta.url);
let app: FastifyInstance;
let tenant: Awaited<ReturnType<typeof createTenantWithKey>>;
let other: Awaited<ReturnType<typeof createTenantWithKey>>;
const target = { url: 'http://127.0.0.1:9/' };

beforeAll(async () => {
  app = buildTestApp(db, ks, { random: () => 0.5 });
  await app.ready();
  tenant = await createTenantWithKey(db.pool, 'acme');
  other = await createTenantWithKey(db.pool, 'other');
});
afterAll(async () => {
  await app?.close();
});
beforeEach(() => clearJobs(db.pool));

const post = (path: string, body: unknown, key = tenant.apiKey) =>
  app.inject({
    method: 'POST',
    url: path,
    headers: { authorization: `Bearer ${key}` },
    payload: body as object,
  });

async function claimOne(): Promise<ClaimedJob> {
  const [job] = (await claimJobs(db.pool, { lane: 'default', limit: 1, owner: 'exec-a', leaseSeconds: 60 }))
    .jobs;
  return job!;
}

/** A job that was called and answered 202: parked, waiting for its completion. */
async function parkedJob(retry = {}): Promise<ClaimedJob> {
  await insertDueJobs(db.pool, { tenantId: tenant.id, target, retry });
  const job = await claimOne();
  await recordOutcomes(db.pool, [
    {
      job,
      transition: { to: 'parked', lastStatus: 202, heartbeatSeconds: 60, deadlineSeconds: 600 },
      attempt: { status: 202, errorClass: null, error: null, durationMs: 4 },
    },
  ]);
  return job;
}

async function row(id: string): Promise<RowDataPacket> {
  const [r] = await db.pool.query<RowDataPacket[]>(
    `SELECT state, attempt, cancel_requested, deadline_at, lease_expires_at, run_at > NOW(3) AS later
       FROM jobs WHERE id = ?`,
    [idToBin(id)],
  );
  return r[0]!;
}

async function metric(name: string): Promise<number> {
  const text = (await app.inject({ method: 'GET', url: '/metrics' })).body;
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `));
  return Number(line?.split(' ').pop() ?? 0);
}

describe('POST /v1/jobs/{id}/cancel', () => {
  it('cancels a pending job at once, so it is never claimed', async () => {
    const [id] = await insertDueJobs(db.pool, { tenantId: tenant.id, target });
    const res = await post(`/v1/jobs/${id}/cancel`, {});
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id, state: 'cancelled', attempt: 0 });
    expect(
      (await claimJobs(db.pool, { lane: 'default', limit: 5, owner: 'e', leaseSeconds: 60 })).jobs,
    ).toEqual([]);
    // Again: a no-op that answers the same.
    expect((await post(`/v1/jobs/${id}/cancel`, {})).json()).toMatchObject({ state: 'cancelled' });
  });

  it('needs no body (curl -X POST …/cancel): the document says it is optional, and a bad one is still refused', async () => {
    const [id] = await insertDueJobs(db.pool, { tenantId: tenant.id, target });
    const bare = await app.inject({
      method: 'POST',
      url: `/v1/jobs/${id}/cancel`,
      headers: { authorization: `Bearer ${tenant.apiKey}` },
    });
    expect(bare.statusCode).toBe(200);
    expect(bare.json()).toMatchObject({ id, state: 'cancelled' });
    const typo = await post(`/v1/jobs/${id}/cancel`, { reason: 'x' });
    expect(typo.statusCode).toBe(400);
    expect(typo.json().error.details).toEqual([{ field: 'reason', issue: expect.any(String) }]);
  });

  it('marks a job an executor is calling; the executor aborts the call', async () => {
    const [id] = await insertDueJobs(db.pool, { tenantId: tenant.id, target });
    await claimOne();
    const res = await post(`/v1/jobs/${id}/cancel`, {});
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ state: 'running', cancelRequested: true });
    expect(await row(id!)).toMatchObject({ state: 'running', cancel_requested: 1 });
  });

  it('cancels a parked job at once; its late completion is stale', async () => {
    const job = await parkedJob();
    expect((await post(`/v1/jobs/${job.id}/cancel`, {})).json()).toMatchObject({ state: 'cancelled' });
    const late = await post(`/v1/jobs/${job.id}/complete`, { attempt: job.attempt, outcome: 'succeeded' });
    expect(late.statusCode).toBe(409);
    expect(late.json().error.code).toBe('conflict');
  });

  it('answers 409 for a finished job, 404 for another tenant’s, 400 for a body it does not take', async () => {
    const [id] = await insertDueJobs(db.pool, { tenantId: tenant.id, target });
    expect((await post(`/v1/jobs/${id}/cancel`, {}, other.apiKey)).statusCode).toBe(404);
    const bad = await post(`/v1/jobs/${id}/cancel`, { reason: 'x' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('invalid_argument');
    expect(await row(id!)).toMatchObject({ state: 'pending' });
    await db.pool.query("UPDATE jobs SET state = 'succeeded'");
    expect((await post(`/v1/jobs/${id}/cancel`, {})).statusCode).toBe(409);
  });
});

describe('asynchronous completion', () => {
  it('heartbeats push the heartbeat timeout out and keep progress; a stale attempt answers 409 and changes nothing', async () => {
    const job = await parkedJob();
    const stale0 = await metric('dsched_stale_results_total');
    const stale = await post(`/v1/jobs/${job.id}/heartbeat`, { attempt: job.attempt + 1 });
    expect(stale.statusCode).toBe(409);
    expect(await metric('dsched_stale_results_total')).toBe(stale0 + 1);

    const before = await row(job.id);
    const res = await post(`/v1/jobs/${job.id}/heartbeat`, { attempt: job.attempt, progress: { done: 40 } });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      id: job.id,
      attempt: job.attempt,
      state: 'running',
      cancelRequested: false,
    });
    // Parked with a 60 s heartbeat timeout; the heartbeat asks for 600 s more; the deadline stays.
    expect(new Date(body.heartbeatBy).getTime()).toBeGreaterThan(
      (before.lease_expires_at as Date).getTime() + 500_000,
    );
    expect(body.deadlineAt).toBe((before.deadline_at as Date).toISOString());
    const view = await app.inject({
      method: 'GET',
      url: `/v1/jobs/${job.id}`,
      headers: { authorization: `Bearer ${tenant.apiKey}` },
    });
    expect(view.json()).toMatchObject({
      state: 'running',
      progress: { done: 40 },
      deadlineAt: body.deadlineAt,
      heartbeatBy: body.heartbeatBy,
    });
  });

  it('rejects a heartbeat without an attempt, naming the field', async () => {
    const job = await parkedJob();
    const res = await post(`/v1/jobs/${job.id}/heartbeat`, { progress: { done: 1 } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details).toEqual([expect.objectContaining({ field: 'attempt' })]);
  });

  it('completes with the attempt token once; a second completion is stale', async () => {
    const job = await parkedJob();
    const res = await post(`/v1/jobs/${job.id}/complete`, {
      attempt: job.attempt,
      outcome: 'succeeded',
      output: { rows: 12 },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ state: 'succeeded', output: { rows: 12 }, lastStatus: 202 });
    expect(res.json().attempts[0].finishedAt).toBeDefined();
    const again = await post(`/v1/jobs/${job.id}/complete`, { attempt: job.attempt, outcome: 'succeeded' });
    expect(again.statusCode).toBe(409);
  });

  it('retries a reported failure while attempts remain, and dead-letters it at the cap', async () => {
    const job = await parkedJob({ maxAttempts: 2, initialBackoffMs: 60_000, maxBackoffMs: 60_000 });
    const failed = await post(`/v1/jobs/${job.id}/complete`, {
      attempt: job.attempt,
      outcome: 'failed',
      error: 'export crashed',
    });
    expect(failed.json()).toMatchObject({ state: 'pending', lastError: 'failed: export crashed' });
    expect(await row(job.id)).toMatchObject({ later: 1 });

    await db.pool.query('UPDATE jobs SET run_at = NOW(3)');
    const second = await claimOne();
    await recordOutcomes(db.pool, [
      {
        job: second,
        transition: { to: 'parked', lastStatus: 202, heartbeatSeconds: 60, deadlineSeconds: 600 },
        attempt: { status: 202, errorClass: null, error: null, durationMs: 4 },
      },
    ]);
    const dlq0 = await metric('dsched_dlq_additions_total');
    const dead = await post(`/v1/jobs/${job.id}/complete`, { attempt: 2, outcome: 'failed' });
    expect(dead.json()).toMatchObject({ state: 'dead', attempt: 2 });
    expect(dead.json().attempts).toMatchObject([{ attempt: 1 }, { attempt: 2, errorClass: 'async_failed' }]);
    expect(await metric('dsched_dlq_additions_total')).toBe(dlq0 + 1);
  });

  it('accepts a completion that arrives before the executor recorded the 202; the executor’s report is then stale', async () => {
    await insertDueJobs(db.pool, { tenantId: tenant.id, target });
    const job = await claimOne();
    const res = await post(`/v1/jobs/${job.id}/complete`, { attempt: job.attempt, outcome: 'succeeded' });
    expect(res.json()).toMatchObject({ state: 'succeeded' });
    const lost = await recordOutcomes(db.pool, [
      {
        job,
        transition: { to: 'parked', lastStatus: 202, heartbeatSeconds: 60, deadlineSeconds: 600 },
        attempt: { status: 202, errorClass: null, error: null, durationMs: 4 },
      },
    ]);
    expect(lost).toHaveLength(1);
    expect(await row(job.id)).toMatchObject({ state: 'succeeded' });
  });
});

describe('a workflow node that answered 202, completed through job-api', () => {
  // No reconciler runs here: only the completion's own transaction can move the run on (the finish
  // path, docs/design.md invariant 11). Before it, the child waited for the workflow sweep.
  async function parkedNodeRun() {
    const plan = planWorkflow(
      createWorkflowSchema.parse({
        name: 'hop',
        nodes: [
          { id: 'a', target, retry: { maxAttempts: 1, initialBackoffMs: 0, maxBackoffMs: 0 } },
          { id: 'b', dependsOn: ['a'], target, inputs: 'parents' },
        ],
      }),
      tenant.id,
      Date.now(),
      0,
    );
    expect(await insertWorkflow(db.pool, plan)).toBe(true);
    const a = await claimOne();
    expect(a.nodeId).toBe('a');
    await recordOutcomes(db.pool, [
      {
        job: a,
        transition: { to: 'parked', lastStatus: 202, heartbeatSeconds: 60, deadlineSeconds: 600 },
        attempt: { status: 202, errorClass: null, error: null, durationMs: 4 },
      },
    ]);
    return { plan, a };
  }

  async function nodes(workflowId: string): Promise<Record<string, string>> {
    const [rows] = await db.pool.query<RowDataPacket[]>(
      `SELECT n.node_id, n.state, j.state AS job FROM workflow_nodes n
         LEFT JOIN jobs j ON j.workflow_id = n.workflow_id AND j.node_id = n.node_id
        WHERE n.workflow_id = ?`,
      [idToBin(workflowId)],
    );
    return Object.fromEntries(rows.map((r) => [r.node_id, `${r.state}/${r.job ?? 'no job'}`]));
  }

  it('makes its child a job before the answer, with the completion’s output as the parent’s', async () => {
    const { plan, a } = await parkedNodeRun();
    expect(await nodes(plan.id)).toEqual({ a: 'pending/running', b: 'waiting/no job' });
    const res = await post(`/v1/jobs/${a.id}/complete`, {
      attempt: a.attempt,
      outcome: 'succeeded',
      output: { rows: 7 },
    });
    expect(res.statusCode).toBe(200);
    expect(await nodes(plan.id)).toEqual({ a: 'succeeded/succeeded', b: 'pending/pending' });
    const [[out]] = await db.pool.query<RowDataPacket[]>(
      "SELECT output FROM workflow_node_outputs WHERE workflow_id = ? AND node_id = 'a'",
      [idToBin(plan.id)],
    );
    expect(JSON.parse(String(out!.output))).toEqual({ rows: 7 });
    const b = await claimOne();
    expect(b.nodeId).toBe('b');
  });

  it('that failed on its last attempt fails its child upstream and ends its run, before the answer', async () => {
    const { plan, a } = await parkedNodeRun();
    const res = await post(`/v1/jobs/${a.id}/complete`, { attempt: a.attempt, outcome: 'failed' });
    expect(res.json()).toMatchObject({ state: 'dead' });
    expect(await nodes(plan.id)).toEqual({ a: 'dead/dead', b: 'upstream_failed/no job' });
    const [[run]] = await db.pool.query<RowDataPacket[]>('SELECT state FROM workflows WHERE id = ?', [
      idToBin(plan.id),
    ]);
    expect(run!.state).toBe('failed');
  });
});
