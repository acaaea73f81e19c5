import { verifyWebhookSignature } from '@dsched/domain';
import { idToBin } from '@dsched/mysql/ids';
import type { RowDataPacket } from '@dsched/mysql/pool';
import { type Fleet, startFleet } from '@dsched/testkit/fleet';
import { insertDueJobs } from '@dsched/testkit/queue';
import {
  type Answer,
  gate,
  type ScriptedTarget,
  startScriptedTarget,
  type TargetCall,
} from '@dsched/testkit/scripted-target';
import { eventually } from '@dsched/testkit/services';
import { useTestStores } from '@dsched/testkit/test-stores';
import { type NodeReq, workflowRequest } from '@dsched/testkit/workflows';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Workflow operations end to end, with services as processes and a loopback target: parent
// outputs passed to the nodes that ask for them (inline, or as a paged URL for a fan-in that does
// not fit), a running call's cancel, and pause holding the jobs already made. The claim lease is
// long (LEASE_S): a cancel that waited for a lease renewal would come LEASE_S / 3 after the call.

const ADMIN_TOKEN = 'workflow-ops-admin-token-0123456789';
const LEASE_S = 300;
const { db, ks } = useTestStores(import.meta.url);
let target: ScriptedTarget;
let apis: Fleet;
let executor: Fleet;
let apiKey: string;
let signingSecret: string;
let tenantId: string;
/** Per path: a test's own answer. */
const special = new Map<string, (call: TargetCall, gone: AbortSignal) => Answer | Promise<Answer>>();

beforeAll(async () => {
  target = await startScriptedTarget((call, gone) => special.get(call.path)?.(call, gone) ?? { status: 200 });
  const env = {
    DATABASE_URL: db.url,
    CASSANDRA_KEYSPACE: ks.keyspace,
    DSCHED_ADMIN_TOKEN: ADMIN_TOKEN,
    EXECUTOR_ALLOWED_TARGETS: '127.0.0.0/8',
    EXECUTOR_POLL_MS: '50',
    EXECUTOR_LEASE_S: String(LEASE_S),
    RECONCILER_INTERVAL_MS: '300',
    RECONCILER_WORKFLOW_INTERVAL_MS: '300',
  };
  apis = await startFleet({ ...env, SCHEDULER_TICK_MS: '200' }, [
    'task-api',
    'job-api',
    'reconciler',
    'scheduler',
  ]);
  executor = await startFleet({ ...env, EXECUTOR_TASK_API_URL: apis.service('task-api').url }, ['executor']);
  const res = await fetch(`${apis.service('task-api').url}/v1/admin/tenants`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'wf-ops' }),
  });
  ({
    apiKey,
    signingSecret,
    id: tenantId,
  } = (await res.json()) as { apiKey: string; signingSecret: string; id: string });
});
afterAll(async () => {
  await Promise.all([apis, executor].map((f) => f?.stop()));
  await target?.close();
});

// biome-ignore lint/suspicious/noExplicitAny: response bodies are read loosely here
type Json = any;

async function api(method: string, path: string, body?: unknown, base: 'task-api' | 'job-api' = 'task-api') {
  const res = await fetch(`${apis.service(base).url}${path}`, {
    method,
    headers: { authorization: `Bearer ${apiKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, json: (await res.json()) as Json };
}

/** A run whose nodes call `/<prefix>/<node id>` on the target, retried three times 50–100 ms apart. */
async function submit(prefix: string, nodes: NodeReq[]): Promise<string> {
  const res = await api(
    'POST',
    '/v1/workflows',
    workflowRequest(prefix, `${target.url}/${prefix}`, nodes, {
      retry: { maxAttempts: 3, initialBackoffMs: 50, maxBackoffMs: 100 },
    }),
  );
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return res.json.id;
}

async function finished(id: string): Promise<Json> {
  return eventually(
    async () => {
      const wf = (await api('GET', `/v1/workflows/${id}`)).json;
      return wf.state === 'running' ? undefined : wf;
    },
    60_000,
    `workflow ${id} finished`,
  );
}

const callTo = (path: string) => target.calls.find((c) => c.path === path);

function signed(call: TargetCall): boolean {
  return verifyWebhookSignature(
    signingSecret,
    String(call.headers['webhook-id']),
    Number(call.headers['webhook-timestamp']),
    call.body,
    String(call.headers['webhook-signature']),
  );
}

describe('parent outputs', () => {
  it('keeps each node’s response body, shows it, and calls a node that asks with its parents’ outputs, signed', async () => {
    special.set('/io/extract', () => ({ status: 200, body: '{"rows":42}' }));
    special.set('/io/load', () => ({ status: 200, body: 'loaded' }));
    const id = await submit('io', [
      { id: 'extract' },
      { id: 'load' },
      { id: 'report', dependsOn: ['extract', 'load'], inputs: 'parents', body: { report: 'daily' } },
      { id: 'plain', dependsOn: ['extract'], body: { only: 'mine' } },
    ]);
    expect((await finished(id)).state).toBe('succeeded');

    const report = callTo('/io/report')!;
    expect(JSON.parse(report.body)).toEqual({
      parents: { extract: { rows: 42 }, load: 'loaded' },
      body: { report: 'daily' },
    });
    expect(report.headers['content-type']).toBe('application/json');
    expect(signed(report)).toBe(true);
    expect(JSON.parse(callTo('/io/plain')!.body)).toEqual({ only: 'mine' });

    const nodes = (await api('GET', `/v1/workflows/${id}/nodes`)).json.nodes as Json[];
    const byId = Object.fromEntries(nodes.map((n) => [n.id, n]));
    expect(byId.extract).toMatchObject({ output: { rows: 42 }, inputs: 'none' });
    expect(byId.load.output).toBe('loaded');
    expect(byId.report).toMatchObject({ inputs: 'parents', output: 'ok' });
  });

  it('sends a fan-in whose parents do not fit the paged URL of them, which answers with their outputs', async () => {
    // Two outputs of 150 KB each: over the 256 KB request cap together.
    const big = (c: string) => `"${c.repeat(150 * 1024)}"`;
    special.set('/fan/p1', () => ({ status: 200, body: big('a') }));
    special.set('/fan/p2', () => ({ status: 200, body: big('b') }));
    special.set('/fan/p3', () => ({ status: 200, body: '3' }));
    let fetched: Json[] = [];
    special.set('/fan/join', async (call) => {
      const sent = JSON.parse(call.body);
      fetched = [];
      let url: string | undefined = `${sent.parentsUrl}?limit=2`;
      while (url) {
        const res = await fetch(url, { headers: { authorization: `Bearer ${apiKey}` } });
        const page = (await res.json()) as Json;
        fetched.push(...page.parents);
        url = page.nextPageToken ? `${sent.parentsUrl}?limit=2&pageToken=${page.nextPageToken}` : undefined;
      }
      return { status: 200 };
    });
    const id = await submit('fan', [
      { id: 'p1' },
      { id: 'p2' },
      { id: 'p3' },
      { id: 'join', dependsOn: ['p1', 'p2', 'p3'], inputs: 'parents', body: 'mine' },
    ]);
    expect((await finished(id)).state).toBe('succeeded');
    const join = callTo('/fan/join')!;
    expect(JSON.parse(join.body)).toEqual({
      parentsUrl: `${apis.service('task-api').url}/v1/workflows/${id}/nodes/join/parents`,
      parentCount: 3,
      body: 'mine',
    });
    expect(signed(join)).toBe(true);
    expect(fetched.map((p) => [p.id, typeof p.output === 'string' ? p.output.length : p.output])).toEqual([
      ['p1', 150 * 1024],
      ['p2', 150 * 1024],
      ['p3', 3],
    ]);
  });
});

/** A call that is held until its client goes away. */
const held = (_call: TargetCall, gone: AbortSignal) =>
  new Promise<Answer>((resolve) => gone.addEventListener('abort', () => resolve({ status: 200 })));

// The lease is renewed every LEASE_S / 3 = 100 s, and each call's timeout is 60 s: a cancel seen
// within the waits below (20 s) was delivered by neither, but by the executor's cancel watch.
const BEFORE_RENEWAL_MS = 20_000;

describe('cancel of a running call', () => {
  it('aborts a plain job’s call (its socket closed) and ends the job cancelled, long before a lease renewal', async () => {
    special.set('/slow/plain', held);
    const [id] = await insertDueJobs(db.pool, {
      tenantId,
      target: { url: `${target.url}/slow/plain`, timeoutMs: 60_000 },
    });
    await target.until(() => target.inFlight('slow') === 1, 30_000, 'the call in flight');
    const res = await api('POST', `/v1/jobs/${id}/cancel`, {}, 'job-api');
    expect(res.json).toMatchObject({ id, state: 'running', cancelRequested: true });
    await target.until(
      () => target.abandoned.some((c) => c.idempotencyKey === id),
      BEFORE_RENEWAL_MS,
      'the call aborted',
    );
    const job = await eventually(
      async () => {
        const j = (await api('GET', `/v1/jobs/${id}`, undefined, 'job-api')).json;
        return j.state === 'cancelled' ? j : undefined;
      },
      BEFORE_RENEWAL_MS,
      'the job cancelled',
    );
    expect(job.attempts).toMatchObject([{ attempt: 1, error: 'call aborted: job cancelled' }]);
    expect(target.calls.filter((c) => c.idempotencyKey === id)).toHaveLength(1);
  });

  it('aborts a running node’s call when its workflow is cancelled; nothing after it runs', async () => {
    special.set('/wfc/slow', held);
    const id = await submit('wfc', [{ id: 'slow' }, { id: 'after', dependsOn: ['slow'] }]);
    await target.until(() => target.inFlight('wfc') === 1, 30_000, 'the node’s call in flight');
    expect((await api('POST', `/v1/workflows/${id}/cancel`)).json.state).toBe('cancelled');
    await target.until(
      () => target.abandoned.some((c) => c.path === '/wfc/slow'),
      BEFORE_RENEWAL_MS,
      'the node’s call aborted',
    );
    const nodes = await eventually(
      async () => {
        const page = (await api('GET', `/v1/workflows/${id}/nodes`)).json.nodes as Json[];
        return page.every((n) => n.state === 'cancelled') ? page : undefined;
      },
      BEFORE_RENEWAL_MS,
      'every node cancelled',
    );
    expect(nodes.map((n) => n.id)).toEqual(['after', 'slow']);
    expect(callTo('/wfc/after')).toBeUndefined();
  });
});

describe('pause', () => {
  it('holds a job already made (a retry due during the pause) until resume; the run then completes', async () => {
    let paused!: () => void;
    const pausedNow = new Promise<void>((r) => {
      paused = r;
    });
    // The first call is answered 503 only once the run is paused: its retry is due at once (50 ms).
    special.set('/pz/flaky', async (call) => {
      if (call.attempt === 1) {
        await pausedNow;
        return { status: 503 };
      }
      return { status: 200 };
    });
    const id = await submit('pz', [{ id: 'flaky' }, { id: 'next', dependsOn: ['flaky'] }]);
    await target.until(() => target.inFlight('pz') === 1, 30_000, 'the first call in flight');
    expect((await api('POST', `/v1/workflows/${id}/pause`)).json.paused).toBe(true);
    paused();
    // The 503 recorded, and the retry's backoff (at most 100 ms) past on the database clock.
    const flaky = await eventually(async () => {
      const nodes = (await api('GET', `/v1/workflows/${id}/nodes`)).json.nodes as Json[];
      const node = nodes.find((n) => n.id === 'flaky');
      return node?.state === 'pending' && node.attempt === 1 ? node : undefined;
    });
    await eventually(async () => {
      const [[row]] = await db.pool.query<RowDataPacket[]>(
        'SELECT NOW(3) > finished_at + INTERVAL 100000 MICROSECOND AS past FROM job_attempts WHERE job_id = ? AND attempt = 1',
        [idToBin(flaky.jobId)],
      );
      return Number(row?.past) === 1 ? true : undefined;
    });
    // A run submitted now, its node due after the retry, is called: the claims since passed the
    // retry by. Nothing of the paused run was called.
    await submit('pz-sentinel', [{ id: 'sentinel' }]);
    await target.until(
      () => callTo('/pz-sentinel/sentinel') !== undefined,
      30_000,
      'the sentinel node called',
    );
    expect(target.calls.filter((c) => c.path.startsWith('/pz/')).map((c) => [c.path, c.attempt])).toEqual([
      ['/pz/flaky', 1],
    ]);

    expect((await api('POST', `/v1/workflows/${id}/resume`)).json.paused).toBe(false);
    expect((await finished(id)).state).toBe('succeeded');
    expect(target.calls.filter((c) => c.path.startsWith('/pz/')).map((c) => [c.path, c.attempt])).toEqual([
      ['/pz/flaky', 1],
      ['/pz/flaky', 2],
      ['/pz/next', 1],
    ]);
  });
});

describe('a scheduled workflow', () => {
  it('starts one run per occurrence, and none while the previous runs under overlap forbid', async () => {
    const release = gate();
    special.set('/sched/slow', async () => {
      await release.promise;
      return { status: 200 };
    });
    const body = {
      name: 'nightly',
      schedule: { type: 'cron', expression: '* * * * * *', timezone: 'Europe/Berlin' },
      overlapPolicy: 'forbid',
      workflow: {
        name: 'etl',
        nodes: [
          { id: 'slow', target: { url: `${target.url}/sched/slow` } },
          { id: 'after', dependsOn: ['slow'], target: { url: `${target.url}/sched/after` } },
        ],
      },
    };
    // Refused by name: a target and a workflow both, or a workflow with a cycle; nothing stored.
    const both = await api('POST', '/v1/tasks', { ...body, target: { url: `${target.url}/x` } });
    expect(both.status).toBe(400);
    expect(both.json.error.details.map((d: Json) => d.field)).toContain('workflow');
    const cyclic = await api('POST', '/v1/tasks', {
      ...body,
      workflow: { name: 'c', nodes: [{ id: 'a', dependsOn: ['a'], target: { url: `${target.url}/x` } }] },
    });
    expect(cyclic.status).toBe(400);
    expect(cyclic.json.error.details[0].field).toBe('workflow.nodes.0.dependsOn.0');

    const created = await api('POST', '/v1/tasks', body);
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const task = created.json;
    expect(task).toMatchObject({ lane: 'workflow', workflow: { name: 'etl' } });
    expect(task.target).toBeUndefined();

    await target.until(() => target.inFlight('sched') === 1, 30_000, 'the first run’s slow node in flight');
    // Several occurrences pass while the first run runs: forbid starts none of them, and records
    // each one it refused (occurrence_skips, reason overlap).
    await eventually(async () => {
      const [[row]] = await db.pool.query<RowDataPacket[]>(
        "SELECT COUNT(*) AS n FROM occurrence_skips WHERE task_id = ? AND reason = 'overlap'",
        [idToBin(task.id)],
      );
      return Number(row!.n) >= 2 ? true : undefined;
    });
    expect(target.calls.filter((c) => c.path === '/sched/slow')).toHaveLength(1);
    const first = target.calls.find((c) => c.path === '/sched/slow')!;
    const runs = (await api('GET', `/v1/tasks/${task.id}/runs`, undefined, 'job-api')).json;
    const live = (runs.runs as Json[]).filter((j: Json) => j.state === 'running');
    expect(live).toHaveLength(1);
    // The occurrence's job id is its run's id.
    expect((await api('GET', `/v1/workflows/${live[0].id}`)).json).toMatchObject({
      name: 'etl',
      state: 'running',
    });

    release.open();
    expect((await finished(live[0].id)).state).toBe('succeeded');
    // Once it ended, a later occurrence starts the next run: another node job, another key.
    await target.until(
      () => target.calls.filter((c) => c.path === '/sched/slow').length >= 2,
      30_000,
      'a second run',
    );
    await api('POST', `/v1/tasks/${task.id}/pause`);
    const slowKeys = target.calls.filter((c) => c.path === '/sched/slow').map((c) => c.idempotencyKey);
    expect(new Set(slowKeys).size).toBe(slowKeys.length);
    expect(slowKeys[0]).toBe(first.idempotencyKey);
    const job = (await api('GET', `/v1/jobs/${live[0].id}`, undefined, 'job-api')).json;
    expect(job).toMatchObject({ state: 'succeeded', taskId: task.id });
  });
});
