import { formatUuid, verifyWebhookSignature } from '@dsched/domain';
import { idToBin } from '@dsched/mysql/ids';
import { insertJobs as materialiseJobs } from '@dsched/mysql/jobs';
import type { RowDataPacket } from '@dsched/mysql/pool';
import { withTransaction } from '@dsched/mysql/transaction';
import { createTask, createTenantWithKey, cronTask } from '@dsched/testkit/fixtures';
import { eventually, type RunningService, startService } from '@dsched/testkit/services';
import { type ReceivedCall, type RecordingTarget, startRecordingTarget } from '@dsched/testkit/target';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { metric, startExecutor } from './executor-kit.ts';

// Completion and failure callbacks end to end: executors and the reconciler as real processes,
// a real loopback target for the jobs and their callbacks. An executor killed with SIGKILL in the
// middle of the jobs, and another in the middle of their callbacks, still leaves exactly one
// callback job per final outcome, each delivered with one Idempotency-Key (so once in effect),
// signed like any call. A callback URL that keeps failing is retried and dead-lettered on its
// own, leaving the job it reports succeeded.

const LEASE_S = 6;
const db = useTestDatabase(import.meta.url);
let target: RecordingTarget;
const started: RunningService[] = [];
let env: Record<string, string>;

beforeAll(async () => {
  target = await startRecordingTarget();
  env = {
    DATABASE_URL: db.url,
    EXECUTOR_LEASE_S: String(LEASE_S),
    EXECUTOR_ALLOWED_TARGETS: '127.0.0.0/8',
    RECONCILER_INTERVAL_MS: '500',
  };
  started.push(await startService('reconciler', env));
});
afterAll(async () => {
  await Promise.all(started.map((s) => s.stop('SIGKILL')));
  await target?.close();
});

const count = async (sql: string, params: unknown[] = []) => {
  const [rows] = await db.pool.query<RowDataPacket[]>(sql, params);
  return Number(rows[0]!.n);
};

const reaches = (what: string, sql: string, params: unknown[], n: number, timeoutMs = 60_000) =>
  eventually(async () => ((await count(sql, params)) >= n ? true : undefined), timeoutMs, what);

/** A task with these callbacks calling `path`, and `n` due jobs of it made by the scheduler's insert. */
async function taskWithJobs(tenantId: string, path: string, callbacks: Record<string, string>, n: number) {
  const task = await createTask(
    db.pool,
    cronTask(tenantId, {
      target: { url: `${target.url}${path}`, method: 'POST', headers: {}, timeoutMs: 120_000 },
      // Three attempts: the one cut by a kill is given back, not dead-lettered.
      retry: { maxAttempts: 3, initialBackoffMs: 100, maxBackoffMs: 100, rules: [] },
      callbacks,
    }),
  );
  const base = Date.now() - 1000;
  await withTransaction(db.pool, (conn) =>
    materialiseJobs(
      conn,
      Array.from({ length: n }, (_, i) => ({
        taskId: idToBin(task.id),
        partition: 0,
        occurrence: new Date(base - i * 1000).toISOString(),
        kind: 'scheduled' as const,
        tagged: false,
        scheduledFor: new Date(base - i * 1000),
        runAt: new Date(base - i * 1000),
      })),
      new Date(),
    ),
  );
  return task;
}

const callbackCalls = () => target.calls.filter((c) => c.url.startsWith('/cb/'));
const event = (c: ReceivedCall) => JSON.parse(c.body) as Record<string, unknown>;

it('makes one callback job per final outcome, delivered under one key, through two executor kills', async () => {
  const tenant = await createTenantWithKey(db.pool, 'callbacks');
  const callbacks = { onSuccess: `${target.url}/cb/ok`, onDead: `${target.url}/cb/dead` };
  const good = await taskWithJobs(tenant.id, '/work/ok', callbacks, 10);
  const gone = await taskWithJobs(tenant.id, '/work/gone', callbacks, 10);
  const taskIds = [good.id, gone.id].map(idToBin);

  // 1. Every job's call is held when its executor dies.
  target.setResponder(() => ({ status: 200, delayMs: 120_000 }));
  const first = await startExecutor(db, env, 'executor-first');
  started.push(first);
  await target.waitForCalls(20, 30_000);
  first.process.kill('SIGKILL');
  expect(await first.exited).toBe('SIGKILL');
  expect(await count("SELECT COUNT(*) AS n FROM jobs WHERE kind = 'callback'")).toBe(0);

  // 2. The jobs finish (half succeed, half are dead at once); their callbacks are held, and that
  // executor dies too, after the jobs it reports are final.
  target.setResponder((c) =>
    c.url.startsWith('/cb/')
      ? { status: 200, delayMs: 120_000 }
      : c.url === '/work/ok'
        ? { status: 200, body: '{"n":1}' }
        : { status: 404, body: 'no such thing' },
  );
  const second = await startExecutor(db, env, 'executor-second');
  started.push(second);
  await eventually(
    async () => (callbackCalls().length >= 20 ? true : undefined),
    60_000,
    '20 callback calls',
  );
  expect(
    await count(
      "SELECT COUNT(*) AS n FROM jobs WHERE task_id IN (?) AND kind = 'scheduled' AND state IN ('succeeded', 'dead')",
      [taskIds],
    ),
  ).toBe(20);
  expect(await metric(second, 'dsched_callback_jobs_created_total')).toBe(20);
  second.process.kill('SIGKILL');
  expect(await second.exited).toBe('SIGKILL');

  // 3. A third executor delivers the callbacks given back from the second.
  target.setResponder(() => ({ status: 200 }));
  started.push(await startExecutor(db, env, 'executor-third'));
  await reaches(
    'every callback job succeeded',
    "SELECT COUNT(*) AS n FROM jobs WHERE kind = 'callback' AND state = 'succeeded'",
    [],
    20,
  );

  const [sources] = await db.pool.query<RowDataPacket[]>(
    "SELECT id, state, last_status FROM jobs WHERE task_id IN (?) AND kind = 'scheduled'",
    [taskIds],
  );
  const [made] = await db.pool.query<RowDataPacket[]>(
    "SELECT id, occurrence, attempt FROM jobs WHERE task_id IN (?) AND kind = 'callback'",
    [taskIds],
  );
  // One callback job per final outcome: twenty, each of another job.
  expect(made).toHaveLength(20);
  expect(new Set(made.map((m) => String(m.occurrence))).size).toBe(20);
  expect(made.every((m) => Number(m.attempt) === 2)).toBe(true); // the first call was cut by the kill

  // Delivered at least once each, and every delivery of one report carries the same key.
  const keysByJob = new Map<string, Set<string>>();
  for (const c of callbackCalls()) {
    const e = event(c);
    const keys = keysByJob.get(String(e.jobId)) ?? new Set<string>();
    keys.add(String(c.headers['idempotency-key']));
    keysByJob.set(String(e.jobId), keys);
    expect(
      verifyWebhookSignature(
        tenant.signingSecret,
        String(c.headers['webhook-id']),
        Number(c.headers['webhook-timestamp']),
        c.body,
        String(c.headers['webhook-signature']),
      ),
    ).toBe(true);
  }
  const sourceIds = sources.map((s) => formatUuid(s.id as Buffer)).sort();
  expect([...keysByJob.keys()].sort()).toEqual(sourceIds);
  for (const keys of keysByJob.values()) expect(keys.size).toBe(1);
  expect(new Set([...keysByJob.values()].map((k) => [...k][0])).size).toBe(20);
  expect(callbackCalls().length).toBeGreaterThanOrEqual(40); // held once, delivered again after the kill

  // Each event says what became of its job.
  const byJob = new Map(callbackCalls().map((c) => [String(event(c).jobId), c]));
  for (const s of sources) {
    const c = byJob.get(formatUuid(s.id as Buffer))!;
    const e = event(c);
    if (s.state === 'succeeded') {
      expect(c.url).toBe('/cb/ok');
      expect(e).toMatchObject({
        type: 'job.succeeded',
        taskId: good.id,
        lastStatus: 200,
        responseBody: '{"n":1}',
      });
    } else {
      expect(s.state).toBe('dead');
      expect(c.url).toBe('/cb/dead');
      expect(e).toMatchObject({
        type: 'job.dead',
        taskId: gone.id,
        lastStatus: 404,
        responseBody: 'no such thing',
      });
    }
    expect(e.attempts).toBe(2);
    expect(c.headers['dsched-event']).toBe(e.type);
  }
});

it('retries a failing callback URL and dead-letters it on its own, leaving the reported job succeeded', async () => {
  target.setResponder((c) => (c.url === '/cb/broken' ? { status: 500 } : { status: 200 }));
  const tenant = await createTenantWithKey(db.pool, 'broken-callback');
  const task = await taskWithJobs(tenant.id, '/work/fine', { onSuccess: `${target.url}/cb/broken` }, 1);
  await reaches(
    'the callback job dead',
    "SELECT COUNT(*) AS n FROM jobs WHERE task_id = ? AND kind = 'callback' AND state = 'dead'",
    [idToBin(task.id)],
    1,
  );
  const [rows] = await db.pool.query<RowDataPacket[]>(
    'SELECT kind, state, attempt, max_attempts, last_status FROM jobs WHERE task_id = ? ORDER BY kind',
    [idToBin(task.id)],
  );
  expect(rows.map((r) => ({ ...r }))).toEqual([
    { kind: 'callback', state: 'dead', attempt: 5, max_attempts: 5, last_status: 500 },
    { kind: 'scheduled', state: 'succeeded', attempt: 1, max_attempts: 3, last_status: 200 },
  ]);
  // Every attempt carried the callback job's one key; a dead callback reports nothing further.
  const broken = target.calls.filter((c) => c.url === '/cb/broken');
  expect(broken).toHaveLength(5);
  expect(new Set(broken.map((c) => c.headers['idempotency-key'])).size).toBe(1);
  expect(broken.map((c) => c.headers['dsched-attempt'])).toEqual(['1', '2', '3', '4', '5']);
});
