import type { RowDataPacket } from '@dsched/mysql/pool';
import { gate, type ScriptedTarget, startScriptedTarget } from '@dsched/testkit/scripted-target';
import { eventually, type RunningService, startService } from '@dsched/testkit/services';
import { useTestStores } from '@dsched/testkit/test-stores';
import { type NodeReq, workflowRequest } from '@dsched/testkit/workflows';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metric } from './executor-kit.ts';

// Workflows end to end: task-api, two executors and a reconciler as processes, a loopback target that
// counts effects by Idempotency-Key, real MariaDB (and Cassandra behind task-api's readiness).

const ADMIN_TOKEN = 'workflow-admin-token-0123456789';
const LEASE_S = 3;
const { db, ks } = useTestStores(import.meta.url);
let jobApi: RunningService;
let target: ScriptedTarget;
let taskApi: RunningService;
/** Two executors walk the same runs at once, by instance id. */
const executors = new Map<string, RunningService>();
let apiKey: string;
/** Per path: a handler override (held, failing) for one test's nodes. */
const special = new Map<string, (attempt: number) => Promise<{ status: number }> | { status: number }>();

/** Every service this file started, stopped in afterAll even when beforeAll did not finish. */
const started: RunningService[] = [];
async function start(name: Parameters<typeof startService>[0], extra: Record<string, string> = {}) {
  const service = await startService(name, { ...env(), ...extra });
  started.push(service);
  return service;
}

const env = () => ({
  DATABASE_URL: db.url,
  CASSANDRA_KEYSPACE: ks.keyspace,
  DSCHED_ADMIN_TOKEN: ADMIN_TOKEN,
  EXECUTOR_ALLOWED_TARGETS: '127.0.0.0/8',
  EXECUTOR_POLL_MS: '50',
  EXECUTOR_LEASE_S: String(LEASE_S),
  RECONCILER_INTERVAL_MS: '300',
  RECONCILER_WORKFLOW_INTERVAL_MS: '300',
});

beforeAll(async () => {
  target = await startScriptedTarget((call) => special.get(call.path)?.(call.attempt) ?? { status: 200 });
  let a: RunningService;
  let b: RunningService;
  [taskApi, jobApi, , , a, b] = await Promise.all([
    start('task-api'),
    start('job-api'),
    start('archiver'),
    start('reconciler'),
    start('executor', { INSTANCE_ID: 'executor-a' }),
    start('executor', { INSTANCE_ID: 'executor-b' }),
  ]);
  executors.set('executor-a', a).set('executor-b', b);
  const res = await fetch(`${taskApi.url}/v1/admin/tenants`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'wf' }),
  });
  apiKey = ((await res.json()) as { apiKey: string }).apiKey;
});
afterAll(async () => {
  await Promise.all(started.map((s) => s.stop('SIGKILL')));
  await target?.close();
});

/** The bodies these tests read: a workflow (nodes: counts by state) or a node page (nodes: a list). */
interface Doc {
  id: string;
  state: string;
  nodes: Record<string, number> & { id: string; state: string; attempt: number; jobId: string }[];
}

async function api(method: string, path: string, body?: unknown): Promise<{ status: number; json: Doc }> {
  const res = await fetch(`${taskApi.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${apiKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, json: (await res.json()) as Doc };
}

type NodeSpec = NodeReq;

/** A run whose nodes call `/<prefix>/<node id>` on the target, retried five times 50–100 ms apart. */
async function submit(prefix: string, nodes: NodeSpec[], extra: Record<string, unknown> = {}) {
  const res = await api(
    'POST',
    '/v1/workflows',
    workflowRequest(prefix, `${target.url}/${prefix}`, nodes, {
      extra,
      retry: { maxAttempts: 5, initialBackoffMs: 50, maxBackoffMs: 100 },
    }),
  );
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return res.json as { id: string };
}

async function finished(id: string, timeoutMs = 60_000): Promise<Doc> {
  return eventually(
    async () => {
      const wf = (await api('GET', `/v1/workflows/${id}`)).json;
      return wf.state === 'running' ? undefined : wf;
    },
    timeoutMs,
    `workflow ${id} finished`,
  );
}

const callsOf = (prefix: string) => target.calls.filter((c) => c.path.startsWith(`/${prefix}/`));
const nodeOf = (path: string) => path.split('/')[2]!;

describe('a DAG of a few hundred nodes with fan-out, multi-parent edges and a fan-in', () => {
  it('runs every node after its parents, the flaky one three times with one key, each effect once', async () => {
    // root -> 30 "a" -> 240 "b" (each b has two a parents) -> 30 "c" (each with 8 b parents) -> sink
    const nodes: NodeSpec[] = [{ id: 'root' }];
    for (let i = 0; i < 30; i++) nodes.push({ id: `a${i}`, dependsOn: ['root'] });
    for (let i = 0; i < 240; i++) nodes.push({ id: `b${i}`, dependsOn: [`a${i % 30}`, `a${(i + 7) % 30}`] });
    for (let i = 0; i < 30; i++) {
      nodes.push({ id: `c${i}`, dependsOn: Array.from({ length: 8 }, (_, k) => `b${i * 8 + k}`) });
    }
    nodes.push({ id: 'sink', dependsOn: nodes.filter((n) => n.id.startsWith('c')).map((n) => n.id) });
    special.set('/big/b17', (attempt) => ({ status: attempt <= 2 ? 503 : 200 }));
    const wf = await submit('big', nodes);
    const done = await finished(wf.id, 120_000);
    expect(done.state).toBe('succeeded');
    expect(done.nodes).toMatchObject({ succeeded: nodes.length, pending: 0, running: 0, waiting: 0 });

    const calls = callsOf('big');
    // Sink side: one effect per node (one Idempotency-Key each), applied once.
    const keys = new Map<string, Set<string>>();
    for (const c of calls)
      keys.set(nodeOf(c.path), (keys.get(nodeOf(c.path)) ?? new Set()).add(c.idempotencyKey));
    expect(keys.size).toBe(nodes.length);
    for (const set of keys.values()) expect(set.size).toBe(1);
    const flaky = calls.filter((c) => nodeOf(c.path) === 'b17');
    expect(flaky.map((c) => c.attempt)).toEqual([1, 2, 3]);
    expect(calls.length).toBe(nodes.length + 2);
    // Every child's first call comes after its parents' last calls (successful answers).
    const last = new Map<string, number>();
    const first = new Map<string, number>();
    for (const c of calls) {
      const n = nodeOf(c.path);
      last.set(n, Math.max(last.get(n) ?? 0, c.receivedAt));
      if (!first.has(n)) first.set(n, c.receivedAt);
    }
    for (const n of nodes)
      for (const p of n.dependsOn ?? []) expect(first.get(n.id)!).toBeGreaterThanOrEqual(last.get(p)!);

    // The node list shows each node's job, attempt and state.
    const page = await api('GET', `/v1/workflows/${wf.id}/nodes?state=succeeded&limit=500`);
    const b17 = page.json.nodes.find((n: { id: string }) => n.id === 'b17')!;
    expect(b17).toMatchObject({ state: 'succeeded', attempt: 3 });
    // job-api shows the node's job (live or already archived) with its workflow and node.
    const job = await fetch(`${jobApi.url}/v1/jobs/${b17.jobId}`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    expect(await job.json()).toMatchObject({
      workflowId: wf.id,
      nodeId: 'b17',
      attempt: 3,
      state: 'succeeded',
    });
    expect(flaky[0]!.idempotencyKey).toBe(b17.jobId);
    // Every node's completion counted once, over both executors.
    const completions = async () => {
      let n = 0;
      for (const e of executors.values()) n += await metric(e, 'dsched_workflow_node_completions_total');
      return n;
    };
    await eventually(
      async () => ((await completions()) >= nodes.length ? true : undefined),
      30_000,
      'node completions counted',
    );
    expect(await completions()).toBe(nodes.length);
  }, 150_000);
});

describe('the walk is a graph walk, not levels', () => {
  it('a slow level-2 node does not hold back level-3 nodes that do not depend on it', async () => {
    const slow = gate<void>();
    special.set('/walk/slow', async () => {
      await slow.promise;
      return { status: 200 };
    });
    const wf = await submit('walk', [
      { id: 'root' },
      { id: 'slow', dependsOn: ['root'] },
      { id: 'fast', dependsOn: ['root'] },
      { id: 'third', dependsOn: ['fast'] },
      { id: 'fourth', dependsOn: ['third'] },
      { id: 'join', dependsOn: ['slow', 'fourth'] },
    ]);
    // Level 3 and 4 run while the level-2 slow node is still in its call.
    await target.until(
      () => callsOf('walk').some((c) => nodeOf(c.path) === 'fourth'),
      30_000,
      'fourth called',
    );
    expect(callsOf('walk').some((c) => nodeOf(c.path) === 'join')).toBe(false);
    slow.open();
    expect((await finished(wf.id)).state).toBe('succeeded');
    const order = callsOf('walk').map((c) => nodeOf(c.path));
    expect(order.indexOf('fourth')).toBeLessThan(order.length - 1);
    expect(order.at(-1)).toBe('join');
  });
});

describe('failure', () => {
  it('trigger rules and continue: a dead node fails its all_success branch, its handlers run', async () => {
    special.set('/rules/bad', () => ({ status: 400 }));
    const wf = await submit('rules', [
      { id: 'ok' },
      { id: 'bad' },
      { id: 'after-bad', dependsOn: ['bad'] },
      { id: 'after-after', dependsOn: ['after-bad'] },
      { id: 'on-failure', dependsOn: ['bad'], trigger: 'one_failed' },
      { id: 'cleanup', dependsOn: ['ok', 'bad'], trigger: 'all_done' },
      { id: 'independent', dependsOn: ['ok'] },
    ]);
    const done = await finished(wf.id);
    expect(done.state).toBe('failed');
    expect(done.nodes).toMatchObject({ succeeded: 4, dead: 1, upstream_failed: 2 });
    expect(
      callsOf('rules')
        .map((c) => nodeOf(c.path))
        .sort(),
    ).toEqual(['bad', 'cleanup', 'independent', 'ok', 'on-failure']);
  });

  it('fail_fast cancels what has not started; retries re-run only the retried nodes and what they blocked', async () => {
    let fail = true;
    special.set('/fast/bad', () => ({ status: fail ? 400 : 200 }));
    // held answers after bad has died, so fail_fast finds after-held waiting.
    special.set('/fast/held', async () => {
      await new Promise((r) => setTimeout(r, 200));
      return { status: 200 };
    });
    const wf = await submit(
      'fast',
      [
        { id: 'bad' },
        { id: 'held' },
        { id: 'after-held', dependsOn: ['held'] },
        { id: 'after-bad', dependsOn: ['bad'] },
      ],
      { failurePolicy: 'fail_fast' },
    );
    const done = await finished(wf.id);
    expect(done.state).toBe('failed');
    await eventually(async () =>
      (await api('GET', `/v1/workflows/${wf.id}`)).json.nodes.running === 0 ? true : undefined,
    );
    const nodes = (await api('GET', `/v1/workflows/${wf.id}/nodes`)).json.nodes;
    const stateOf = (id: string) => nodes.find((n: { id: string }) => n.id === id)?.state;
    expect(stateOf('after-held')).toBe('cancelled');
    expect(stateOf('after-bad')).toBe('cancelled');
    expect(callsOf('fast').map((c) => nodeOf(c.path))).not.toContain('after-held');

    fail = false;
    const retried = await api('POST', `/v1/workflows/${wf.id}/nodes/bad/retry`);
    expect(retried.status).toBe(200);
    expect(retried.json.state).toBe('running');
    // after-held was cancelled by fail_fast, not blocked by bad: it stays cancelled, so the run
    // ends failed again; bad and after-bad now succeeded.
    expect((await finished(wf.id)).state).toBe('failed');
    const after = (await api('GET', `/v1/workflows/${wf.id}/nodes`)).json.nodes;
    const now = (id: string) => after.find((n: { id: string }) => n.id === id)?.state;
    expect([now('bad'), now('after-bad'), now('after-held')]).toEqual([
      'succeeded',
      'succeeded',
      'cancelled',
    ]);
    // held was running when bad died: its cancel was requested, and it either answered first
    // (succeeded) or was aborted (cancelled); either way it was called once.
    expect(['succeeded', 'cancelled']).toContain(now('held'));
    const bad = callsOf('fast').filter((c) => nodeOf(c.path) === 'bad');
    expect(bad.map((c) => c.attempt)).toEqual([1, 2]);
    expect(new Set(bad.map((c) => c.idempotencyKey)).size).toBe(1);
    // held never ran again; after-bad ran once.
    expect(callsOf('fast').filter((c) => nodeOf(c.path) === 'held')).toHaveLength(1);
    expect(callsOf('fast').filter((c) => nodeOf(c.path) === 'after-bad')).toHaveLength(1);
  });
});

describe('an executor killed mid-call', () => {
  it('the node runs again with the same key, the run is not restarted, its child runs once', async () => {
    const inCall = gate<void>();
    special.set('/crash/mid', (attempt) => {
      if (attempt === 1) {
        inCall.open();
        return new Promise(() => undefined); // never answered: the executor dies holding it
      }
      return { status: 200 };
    });
    const wf = await submit('crash', [
      { id: 'first' },
      { id: 'mid', dependsOn: ['first'] },
      { id: 'last', dependsOn: ['mid'] },
    ]);
    await inCall.promise;
    // Kill the executor that holds the call, and start another in its place.
    const [[claim]] = await db.pool.query<RowDataPacket[]>(
      "SELECT claimed_by FROM jobs WHERE workflow_id = UNHEX(REPLACE(?, '-', '')) AND node_id = 'mid'",
      [wf.id],
    );
    const holder = String(claim!.claimed_by);
    await executors.get(holder)!.stop('SIGKILL');
    executors.set('executor-c', await start('executor', { INSTANCE_ID: 'executor-c' }));
    executors.delete(holder);
    expect((await finished(wf.id, 60_000)).state).toBe('succeeded');
    const calls = callsOf('crash');
    const mid = calls.filter((c) => nodeOf(c.path) === 'mid');
    expect(mid.map((c) => c.attempt)).toEqual([1, 2]);
    expect(new Set(mid.map((c) => c.idempotencyKey)).size).toBe(1);
    expect(calls.filter((c) => nodeOf(c.path) === 'first')).toHaveLength(1);
    expect(calls.filter((c) => nodeOf(c.path) === 'last')).toHaveLength(1);
  }, 90_000);
});

describe('a node that answers 202', () => {
  it('completed through job-api: its completion walks on, the archiver waits, its output reaches the child', async () => {
    special.set('/async/later', () => ({ status: 202 }));
    const wf = await submit('async', [
      { id: 'later' },
      { id: 'after', dependsOn: ['later'], inputs: 'parents' },
    ]);
    await target.until(() => callsOf('async').length === 1, 30_000, 'async node called');
    const call = callsOf('async')[0]!;
    // Parked: the job is running with no executor until the target completes it.
    await eventually(async () => {
      const [[row]] = await db.pool.query<RowDataPacket[]>(
        'SELECT claimed_by FROM jobs WHERE id = UNHEX(REPLACE(?, "-", ""))',
        [call.idempotencyKey],
      );
      return row && row.claimed_by === null ? true : undefined;
    });
    const done = await fetch(`${jobApi.url}/v1/jobs/${call.idempotencyKey}/complete`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ attempt: call.attempt, outcome: 'succeeded', output: { rows: 42 } }),
    });
    expect(done.status).toBe(200);
    expect((await finished(wf.id)).state).toBe('succeeded');
    expect(callsOf('async').map((c) => nodeOf(c.path))).toEqual(['later', 'after']);
    // The completion's output is the node's output: the child asked for its parents' and got it.
    expect(JSON.parse(callsOf('async')[1]!.body)).toMatchObject({ parents: { later: { rows: 42 } } });
    const nodes = (await api('GET', `/v1/workflows/${wf.id}/nodes`)).json.nodes as unknown as {
      id: string;
      output?: unknown;
    }[];
    expect(nodes.find((n) => n.id === 'later')?.output).toEqual({ rows: 42 });
    // The node job, finished and walked, is archived like any job, and reads the same from history.
    await eventually(async () => {
      const [[row]] = await db.pool.query<RowDataPacket[]>(
        'SELECT COUNT(*) AS n FROM jobs WHERE id = UNHEX(REPLACE(?, "-", ""))',
        [call.idempotencyKey],
      );
      return Number(row!.n) === 0 ? true : undefined;
    });
    const job = await fetch(`${jobApi.url}/v1/jobs/${call.idempotencyKey}`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    expect(await job.json()).toMatchObject({ workflowId: wf.id, nodeId: 'later', state: 'succeeded' });
  });
});
