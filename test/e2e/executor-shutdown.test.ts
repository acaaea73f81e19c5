import { createTenantWithKey } from '@dsched/testkit/fixtures';
import { insertDueJobs } from '@dsched/testkit/queue';
import { type ScriptedTarget, startScriptedTarget } from '@dsched/testkit/scripted-target';
import { eventually, type RunningService } from '@dsched/testkit/services';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { attemptRows, jobRow, startExecutor, waitForState } from './executor-kit.ts';

// SIGTERM: the executor stops claiming, lets calls finish within the grace period, and gives
// back the rest with a fenced update that does not count as an attempt.

const db = useTestDatabase(import.meta.url);
let target: ScriptedTarget;
const executors: RunningService[] = [];

beforeAll(async () => {
  target = await startScriptedTarget();
});
afterAll(async () => {
  await Promise.all(executors.map((e) => e.stop('SIGKILL')));
  await target?.close();
});

it('finishes what it can within the grace period and gives back the rest without spending an attempt', async () => {
  const tenant = await createTenantWithKey(db.pool);
  target.setHandler((call, gone) => {
    if (call.path === '/quick')
      return new Promise((resolve) => setTimeout(() => resolve({ status: 200 }), 300));
    if (call.path === '/stuck' && call.attempt === 1)
      return new Promise((resolve) => gone.addEventListener('abort', () => resolve({ status: 200 })));
    return { status: 200 };
  });
  const first = await startExecutor(db, { SHUTDOWN_GRACE_MS: '5000', LOG_LEVEL: 'info' }, 'exec-stopping');
  executors.push(first);
  const [quick] = await insertDueJobs(db.pool, {
    tenantId: tenant.id,
    target: { url: `${target.url}/quick` },
  });
  // One attempt only: if the give-back counted, this job would be dead after it.
  const [stuck] = await insertDueJobs(db.pool, {
    tenantId: tenant.id,
    target: { url: `${target.url}/stuck`, timeoutMs: 60_000 },
    retry: { maxAttempts: 1 },
  });
  await target.until(() => target.calls.length === 2, 30_000, 'both calls in flight');

  first.process.kill('SIGTERM');
  await eventually(
    async () => ((await fetch(`${first.url}/readyz`)).status === 503 ? true : undefined),
    10_000,
    'shutdown started',
  );
  // While it drains (the stuck call holds it for the whole grace period, 5 s), a new due job is
  // not claimed: a live claim loop polls every 50 ms, so it would have claimed the job inserted
  // once its loops stopped (run it, or given it back with a spent attempt) long before the executor
  // exits. No fixed wait: the job is inserted after the log says no pass runs any more, and read
  // once the executor is gone.
  await eventually(
    async () => (first.output().includes('"msg":"loops stopped"') ? true : undefined),
    10_000,
    'the loops stopped',
  );
  const [late] = await insertDueJobs(db.pool, { tenantId: tenant.id, target: { url: `${target.url}/late` } });
  expect(first.process.exitCode).toBeNull();
  expect(await first.exited).toBe(0);
  expect(await jobRow(db, late!)).toMatchObject({ state: 'pending', attempt: 0 });

  expect(await jobRow(db, quick!)).toMatchObject({ state: 'succeeded', attempt: 1 });
  expect(await jobRow(db, stuck!)).toMatchObject({
    state: 'pending',
    attempt: 1,
    max_attempts: 2,
    claimed_by: null,
  });
  expect(await attemptRows(db, stuck!)).toMatchObject([{ attempt: 1, error_class: 'given_back' }]);
  expect(target.abandoned.map((c) => c.path)).toEqual(['/stuck']);

  // Another executor takes the given-back job: its one counted attempt is still there to use.
  executors.push(await startExecutor(db, {}, 'exec-next'));
  await waitForState(db, [stuck!, late!], 'succeeded');
  expect(await jobRow(db, stuck!)).toMatchObject({ state: 'succeeded', attempt: 2, max_attempts: 2 });
});
