import { idToBin } from '@dsched/mysql/ids';
import type { RowDataPacket } from '@dsched/mysql/pool';
import { FAST_LOOPS, type Fleet, startFleet } from '@dsched/testkit/fleet';
import { type ScriptedTarget, startScriptedTarget } from '@dsched/testkit/scripted-target';
import { eventually } from '@dsched/testkit/services';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { metric } from './executor-kit.ts';

// Flow control end to end: tasks created on task-api with a flowControl key, materialised by the
// scheduler, and a workflow's nodes carrying one, called by three executor processes; the limits
// are counted at the loopback target.

const ADMIN_TOKEN = 'e2e-admin-token-0123456789';
const db = useTestDatabase(import.meta.url);
let target: ScriptedTarget;
let fleet: Fleet;

beforeAll(async () => {
  // Each call takes a moment, so calls of a key would overlap without the limit.
  target = await startScriptedTarget(
    () => new Promise((resolve) => setTimeout(() => resolve({ status: 200 }), 150)),
  );
  fleet = await startFleet(
    { DATABASE_URL: db.url, DSCHED_ADMIN_TOKEN: ADMIN_TOKEN, ...FAST_LOOPS, EXECUTOR_POLL_MS: '50' },
    ['task-api', 'scheduler', 'executor', 'executor', 'executor'],
  );
});
afterAll(async () => {
  await fleet?.stop();
  await target?.close();
});

async function tenant(name: string): Promise<{ id: string; apiKey: string }> {
  const res = await fetch(`${fleet.service('task-api').url}/v1/admin/tenants`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; apiKey: string };
}

/** `n` once tasks due in a second, calling /<group>/<i>, all with this flow control. */
async function tasks(apiKey: string, group: string, n: number, flowControl: Record<string, unknown>) {
  const at = new Date(Date.now() + 1000).toISOString();
  for (let i = 0; i < n; i++) {
    const res = await fetch(`${fleet.service('task-api').url}/v1/tasks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: `${group}-${i}`,
        schedule: { type: 'once', at },
        target: { url: `${target.url}/${group}/${i}` },
        flowControl,
      }),
    });
    expect(res.status).toBe(201);
    if (i === 0) expect(((await res.json()) as { flowControl: unknown }).flowControl).toEqual(flowControl);
  }
}

it('never has more than 3 calls of a key with parallelism 3 in flight, over three executors; the rest wait, no attempt spent', async () => {
  const t = await tenant('parallel');
  await tasks(t.apiKey, 'ep', 50, { key: 'customer-endpoint', parallelism: 3 });
  await target.until(() => target.calls.filter((c) => c.group === 'ep').length >= 50, 90_000, '50 calls');
  expect(target.peakInFlight('ep')).toBe(3);
  // The outcomes are written just after the answers.
  await eventually(
    async () => {
      const [r] = await db.pool.query<RowDataPacket[]>(
        "SELECT COUNT(*) AS n FROM jobs WHERE tenant_id = ? AND state = 'succeeded'",
        [idToBin(t.id)],
      );
      return Number(r[0]!.n) === 50 ? true : undefined;
    },
    30_000,
    '50 jobs succeeded',
  );
  const [attempts] = await db.pool.query<RowDataPacket[]>(
    `SELECT COUNT(*) AS n, MAX(j.attempt) AS top, COUNT(DISTINCT a.executor) AS executors
       FROM job_attempts a JOIN jobs j ON j.id = a.job_id WHERE j.tenant_id = ?`,
    [idToBin(t.id)],
  );
  expect(Number(attempts[0]!.n)).toBe(50);
  expect(Number(attempts[0]!.top)).toBe(1);
  expect(Number(attempts[0]!.executors)).toBeGreaterThanOrEqual(2);
  const executors = fleet.services.filter((s) => s.name === 'executor');
  const deferred = await Promise.all(executors.map((e) => metric(e, 'dsched_executor_flow_deferred_total')));
  expect(deferred.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
}, 120_000);

it('never lets a key with ratePerSecond 10 make more than 10 calls in any 1 s window at the target', async () => {
  const t = await tenant('rated');
  await tasks(t.apiKey, 'rate', 30, { key: 'rated-endpoint', ratePerSecond: 10 });
  await target.until(() => target.calls.filter((c) => c.group === 'rate').length >= 30, 60_000, '30 calls');
  const times = target.calls.filter((c) => c.group === 'rate').map((c) => c.receivedAt);
  const worst = Math.max(...times.map((s) => times.filter((x) => x >= s && x < s + 1000).length));
  expect(worst).toBeLessThanOrEqual(10);
}, 90_000);

it('never has more than 2 calls of a workflow’s 12 parallel nodes with parallelism 2 in flight, over three executors', async () => {
  const t = await tenant('nodes');
  const flowControl = { key: 'node-endpoint', parallelism: 2 };
  const res = await fetch(`${fleet.service('task-api').url}/v1/workflows`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'fan-out',
      nodes: Array.from({ length: 12 }, (_, i) => ({
        id: `n${i}`,
        target: { url: `${target.url}/wf/${i}` },
        flowControl,
      })),
    }),
  });
  expect(res.status).toBe(201);
  await target.until(() => target.calls.filter((c) => c.group === 'wf').length >= 12, 60_000, '12 calls');
  expect(target.peakInFlight('wf')).toBe(2);
  const [jobs] = await db.pool.query<RowDataPacket[]>(
    'SELECT COUNT(*) AS n FROM jobs WHERE tenant_id = ? AND flow_key = ? AND flow_parallelism = 2',
    [idToBin(t.id), 'node-endpoint'],
  );
  expect(Number(jobs[0]!.n)).toBe(12);
}, 90_000);
