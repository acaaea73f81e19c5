import { createTenantWithKey } from '@dsched/testkit/jobs';
import { createTestDatabase, type TestDatabase } from '@dsched/testkit/mysql';
import { insertDueJobs } from '@dsched/testkit/queue';
import { type ScriptedTarget, startScriptedTarget } from '@dsched/testkit/scripted-target';
import { eventually, type RunningService } from '@dsched/testkit/services';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { metric, startExecutor, waitForState } from './executor-kit.ts';

// Lanes isolate: a lane full of ten-minute calls does not delay short jobs, and critical jobs
// have slots of their own that a full default lane cannot take.

let db: TestDatabase;
let target: ScriptedTarget;
let executor: RunningService;

beforeAll(async () => {
  [db, target] = await Promise.all([
    createTestDatabase(import.meta.url),
    // /hold/* calls are never answered (until the executor goes away); the rest at once.
    startScriptedTarget((call, gone) =>
      call.path.startsWith('/hold/')
        ? new Promise((resolve) => gone.addEventListener('abort', () => resolve({ status: 200 })))
        : { status: 200 },
    ),
  ]);
  executor = await startExecutor(db, {
    EXECUTOR_LONG_CONCURRENCY: '2',
    EXECUTOR_DEFAULT_CONCURRENCY: '8',
    EXECUTOR_CRITICAL_CONCURRENCY: '2',
  });
});
afterAll(async () => {
  await executor?.stop('SIGKILL');
  await target?.close();
  await db?.close();
});

it('runs 100 short jobs while the long lane is full of ten-minute calls', async () => {
  const tenant = await createTenantWithKey(db.pool);
  const tenMinutes = 600_000;
  await insertDueJobs(
    db.pool,
    { tenantId: tenant.id, lane: 'long', target: { url: `${target.url}/hold/long`, timeoutMs: tenMinutes } },
    4,
  );
  await target.until(() => target.inFlight('hold') === 2, 30_000, 'the long lane full');
  const short = await insertDueJobs(
    db.pool,
    { tenantId: tenant.id, target: { url: `${target.url}/short` } },
    100,
  );
  await waitForState(db, short, 'succeeded');
  // All 100 went through while both long calls were still in flight and two more waited.
  expect(target.inFlight('hold')).toBe(2);
  expect(target.calls.filter((c) => c.path === '/short')).toHaveLength(100);
  // The gauge settles once the last short job's outcome is written: then only the long calls are left.
  await eventually(
    async () => ((await metric(executor, 'dsched_executor_in_flight')) === 2 ? true : undefined),
    10_000,
    'in-flight gauge at the two long calls',
  );
});

it('runs a critical job while the default lane is full', async () => {
  const tenant = await createTenantWithKey(db.pool);
  await insertDueJobs(db.pool, { tenantId: tenant.id, target: { url: `${target.url}/hold/default` } }, 12);
  await target.until(() => target.inFlight('hold') === 2 + 8, 30_000, 'the default lane full');
  const [critical] = await insertDueJobs(db.pool, {
    tenantId: tenant.id,
    lane: 'critical',
    priority: 0,
    target: { url: `${target.url}/critical` },
  });
  await waitForState(db, [critical!], 'succeeded');
  expect(target.inFlight('hold')).toBe(10);
});
