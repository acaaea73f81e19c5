import { idToBin } from '@dsched/mysql/ids';
import type { RowDataPacket } from '@dsched/mysql/pool';
import { eventually, type RunningService, startService } from '@dsched/testkit/services';
import { type RecordingTarget, startRecordingTarget } from '@dsched/testkit/target';
import { useTestStores } from '@dsched/testkit/test-stores';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { metric } from './executor-kit.ts';
import { startScheduler } from './scheduler-helpers.ts';

// Pause on failure end to end: task-api, scheduler, executor and reconciler as processes, a
// loopback target that answers 404 (dead at once). An interval task with pauseAfterFailures: 3
// pauses itself with its reason after three dead occurrences in a row, materialises nothing more
// while paused, and after a resume counts again from zero.

const ADMIN_TOKEN = 'e2e-admin-token-pause-0123';
const { db, ks } = useTestStores(import.meta.url);
let target: RecordingTarget;
const services: RunningService[] = [];

beforeAll(async () => {
  target = await startRecordingTarget(() => ({ status: 404 }));
  const env = {
    DATABASE_URL: db.url,
    CASSANDRA_KEYSPACE: ks.keyspace,
    DSCHED_ADMIN_TOKEN: ADMIN_TOKEN,
    EXECUTOR_POLL_MS: '50',
    EXECUTOR_ALLOWED_TARGETS: '127.0.0.0/8',
    SCHEDULER_LOOKAHEAD_S: '2',
  };
  services.push(
    ...(await Promise.all([
      startService('task-api', env),
      // The scheduler's default 10 s lease, not the leases tests' 3 s (nothing here takes over a
      // lease): at load ~50 through vtgate, a scheduler starting beside three services once went
      // 3 s without a renewal and stopped itself, as designed (exit 70, "no lease renewal for a
      // whole TTL").
      startScheduler({ ...env, SCHEDULER_LEASE_TTL_MS: '10000' }),
      startService('executor', env),
      startService('reconciler', env),
    ])),
  );
});
afterAll(async () => {
  await Promise.all(services.map((s) => s.stop()));
  await target?.close();
});

const service = (name: string) => services.find((s) => s.name === name)!;

async function scheduledJobs(taskId: string): Promise<{ dead: number; live: number; cancelled: number }> {
  const [rows] = await db.pool.query<RowDataPacket[]>(
    `SELECT SUM(state = 'dead') AS dead, SUM(state IN ('pending', 'running')) AS live,
            SUM(state = 'cancelled') AS cancelled
       FROM jobs WHERE task_id = ? AND kind = 'scheduled'`,
    [idToBin(taskId)],
  );
  return {
    dead: Number(rows[0]!.dead ?? 0),
    live: Number(rows[0]!.live ?? 0),
    cancelled: Number(rows[0]!.cancelled ?? 0),
  };
}

it('pauses an interval task after three dead occurrences in a row, with its reason, and counts again after a resume', async () => {
  const api = service('task-api').url;
  const tenant = (await (
    await fetch(`${api}/v1/admin/tenants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'pausing' }),
    })
  ).json()) as { apiKey: string };
  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${api}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${tenant.apiKey}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const created = await call('POST', '/v1/tasks', {
    name: 'flaky',
    schedule: { type: 'interval', every: '1s' },
    target: { url: `${target.url}/missing` },
    retry: { maxAttempts: 1 },
    pauseAfterFailures: 3,
  });
  expect(created.status).toBe(201);
  const task = (await created.json()) as { id: string };

  const pausedTask = async () => {
    const t = (await (await call('GET', `/v1/tasks/${task.id}`)).json()) as Record<string, unknown>;
    return t.state === 'paused' ? t : undefined;
  };
  const paused = await eventually(pausedTask, 60_000, 'task paused');
  expect(paused.pausedReason).toMatch(
    /^paused after [3-9] dead occurrences in a row \(pauseAfterFailures 3\)$/,
  );
  expect(paused.nextFireAt).toBeNull();
  const executor = service('executor');
  await eventually(
    async () =>
      (await metric(executor, 'dsched_tasks_paused_after_failures_total')) === 1 ? true : undefined,
    10_000,
    'the pause counted',
  );

  // Three dead in a row paused it: the calls it made were all answered 404, none succeeded.
  const atPause = await scheduledJobs(task.id);
  expect(atPause.dead).toBeGreaterThanOrEqual(3);
  // Nothing new is made or run while it is paused (what was materialised ahead was cancelled).
  await eventually(
    async () => ((await scheduledJobs(task.id)).live === 0 ? true : undefined),
    10_000,
    'no live job',
  );
  const settled = await scheduledJobs(task.id);
  // The occurrences materialised ahead (a 2 s lookahead of a 1 s interval) were cancelled by the pause.
  expect(settled.cancelled).toBeGreaterThanOrEqual(1);
  const calls = target.calls.length;
  // A sentinel task made after the pause, every second: two of its occurrences called prove two
  // scheduler passes and the executor's claims ran since, and made nothing of the paused task.
  const sentinel = await call('POST', '/v1/tasks', {
    name: 'sentinel',
    schedule: { type: 'interval', every: '1s' },
    target: { url: `${target.url}/sentinel` },
    retry: { maxAttempts: 1 },
  });
  const sentinelId = ((await sentinel.json()) as { id: string }).id;
  const sentinelCalls = () => target.calls.filter((c) => c.url === '/sentinel').length;
  await eventually(async () => (sentinelCalls() >= 2 ? true : undefined), 30_000, 'two sentinel calls');
  expect((await call('DELETE', `/v1/tasks/${sentinelId}`)).status).toBe(204);
  expect(await scheduledJobs(task.id)).toEqual(settled);
  expect(target.calls.filter((c) => c.url !== '/sentinel').length).toBe(calls);

  // A resume counts from zero: it takes three more dead occurrences, not one, to pause again.
  const resumed = await call('POST', `/v1/tasks/${task.id}/resume`);
  expect(resumed.status).toBe(200);
  expect(((await resumed.json()) as { state: string; pausedReason?: string }).pausedReason).toBeUndefined();
  const again = await eventually(pausedTask, 60_000, 'task paused again');
  expect(again.pausedReason).toMatch(/^paused after [3-9] dead/);
  expect((await scheduledJobs(task.id)).dead - settled.dead).toBeGreaterThanOrEqual(3);
  await eventually(
    async () =>
      (await metric(executor, 'dsched_tasks_paused_after_failures_total')) === 2 ? true : undefined,
    10_000,
    'the second pause counted',
  );
});
