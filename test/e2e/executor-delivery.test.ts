import { releaseExpiredClaims } from '@dsched/mysql/jobs/reconcile';
import { createTenantWithKey } from '@dsched/testkit/fixtures';
import { insertDueJobs } from '@dsched/testkit/queue';
import { gate, type ScriptedTarget, startScriptedTarget } from '@dsched/testkit/scripted-target';
import { eventually, type RunningService, startService } from '@dsched/testkit/services';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { attemptRows, jobRow, metricReaches, startExecutor, waitForState } from './executor-kit.ts';

// At-least-once under lost claims, with executors as real processes, real MariaDB and a real
// target on loopback: the attempt fences a late result, and a killed executor's call is
// delivered again with the same Idempotency-Key.

const db = useTestDatabase(import.meta.url);
let target: ScriptedTarget;
const services: RunningService[] = [];

beforeAll(async () => {
  target = await startScriptedTarget();
});
afterAll(async () => {
  await Promise.all(services.map((s) => s.stop('SIGKILL')));
  await target?.close();
});

it('keeps the second claimant’s outcome when the first reports after its claim was taken over, and counts the stale write', async () => {
  const tenant = await createTenantWithKey(db.pool);
  const firstAnswer = gate<number>();
  target.setHandler(async (call) =>
    call.attempt === 1 ? { status: await firstAnswer.promise } : { status: 200 },
  );
  // A holds one call at a time, so once it holds the first call it cannot take the job back itself.
  const a = await startExecutor(db, { EXECUTOR_DEFAULT_CONCURRENCY: '1', EXECUTOR_LEASE_S: '60' }, 'exec-a');
  services.push(a);
  // A's call is held until the test answers it: its timeout must outlast the test's steps (the
  // 5 s default ran out while B started through vtgate at load 27-71: attempt 1 ended by timeout,
  // attempt 2 succeeded, and no claim was left to release).
  const [id] = await insertDueJobs(db.pool, {
    tenantId: tenant.id,
    target: { url: `${target.url}/fence`, timeoutMs: 120_000 },
  });
  await target
    .until(() => target.calls.length === 1, 30_000, 'first call')
    .catch(async (err: Error) => {
      // Seen once in a CI run (never reproduced): say where the job was and what A logged.
      throw new Error(`${err.message}; job ${JSON.stringify(await jobRow(db, id!))}; exec-a:\n${a.output()}`);
    });

  // A's lease is made to run out (as if A were partitioned from MySQL) and the reconciler's
  // statement gives the job back; B claims it as attempt 2 and the target answers 200. B is
  // started first, so it claims at its next poll: A's lease keeper, at its next renewal, finds its
  // claim lost and aborts the call, which frees A's slot, and A would then claim attempt 2 itself
  // if B were still starting (seen through vtgate, where a start takes seconds).
  const b = await startExecutor(db, {}, 'exec-b');
  services.push(b);
  // A's lease keeper does still renew, every third of its 60 s lease: a renewal that lands between
  // the rewrite and the release puts the lease back (released 0: seen once through vtgate at load
  // 27-71, where the two statements can be seconds apart). Then rewrite and release again.
  const released = await eventually(
    async () => {
      await db.pool.query('UPDATE jobs SET lease_expires_at = NOW(3) - INTERVAL 1 SECOND');
      const r = await releaseExpiredClaims(db.pool, 10);
      return r.released + r.dead > 0 ? r : undefined;
    },
    60_000,
    'the expired claim released',
  ).catch(async (err: Error) => {
    throw new Error(`${err.message}; job ${JSON.stringify(await jobRow(db, id!))}; exec-a:\n${a.output()}`);
  });
  expect(released).toMatchObject({ released: 1, dead: 0 });
  await waitForState(db, [id!], 'succeeded');

  // Now A's call returns, late, with a 500: the fence drops it.
  firstAnswer.open(500);
  await target.until(() => target.calls.length === 2);
  await metricReaches(a, 'dsched_stale_results_total', 1);
  expect(await jobRow(db, id!)).toMatchObject({ state: 'succeeded', attempt: 2, last_status: 200 });
  const attempts = await attemptRows(db, id!);
  // The reconciler closed A's attempt when it took the claim back; A's late 500 changes nothing.
  expect(attempts.map((r) => [r.attempt, r.executor, r.status, r.error_class])).toEqual([
    [1, 'exec-a', null, 'lease_expired'],
    [2, 'exec-b', 200, null],
  ]);
  await Promise.all([a.stop(), b.stop()]);
});

it('delivers again, with the same Idempotency-Key, a call whose executor was killed before recording it', async () => {
  const tenant = await createTenantWithKey(db.pool);
  let first: RunningService | undefined;
  target.setHandler((call, gone) => {
    if (call.attempt === 1) {
      // The target has the call; its executor dies before the answer (and so the outcome).
      first!.process.kill('SIGKILL');
      return new Promise((resolve) => gone.addEventListener('abort', () => resolve({ status: 200 })));
    }
    return { status: 200 };
  });
  first = await startExecutor(db, { EXECUTOR_LEASE_S: '3' }, 'exec-killed');
  services.push(first);
  const reconciler = await startService('reconciler', {
    DATABASE_URL: db.url,
    RECONCILER_INTERVAL_MS: '200',
  });
  services.push(reconciler);
  const [id] = await insertDueJobs(db.pool, { tenantId: tenant.id, target: { url: `${target.url}/pay` } });
  const exit = await first.exited;
  // Seen once through vtgate in CI: the first executor exited 1 on its own; say what it logged.
  if (exit !== 'SIGKILL') throw new Error(`exec-killed exited ${exit} before the kill:\n${first.output()}`);

  services.push(await startExecutor(db, { EXECUTOR_LEASE_S: '3' }, 'exec-second'));
  await waitForState(db, [id!], 'succeeded');
  const calls = target.calls.filter((c) => c.path === '/pay');
  expect(calls.map((c) => [c.idempotencyKey, c.attempt])).toEqual([
    [id, 1],
    [id, 2],
  ]);
  // An idempotent endpoint applied the effect once: the first delivery of the key won.
  expect([...target.effects.values()].filter((c) => c.path === '/pay')).toHaveLength(1);
  expect(await jobRow(db, id!)).toMatchObject({ state: 'succeeded', attempt: 2 });
});
