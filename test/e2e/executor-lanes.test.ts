import { idToBin } from '@dsched/mysql/ids';
import type { RowDataPacket } from '@dsched/mysql/pool';
import { createTenantWithKey } from '@dsched/testkit/fixtures';
import { insertDueJobs } from '@dsched/testkit/queue';
import { type ScriptedTarget, startScriptedTarget } from '@dsched/testkit/scripted-target';
import { eventually, type RunningService } from '@dsched/testkit/services';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { attemptRows, jobRow, metric, startExecutor, waitForState } from './executor-kit.ts';

// Lanes isolate: a lane full of ten-minute calls does not delay short jobs, and critical jobs
// have slots of their own that a full default lane cannot take, and are claimed ahead of time.

const db = useTestDatabase(import.meta.url);
let target: ScriptedTarget;
let executor: RunningService;

beforeAll(async () => {
  // /hold/* calls are never answered (until the executor goes away); the rest at once.
  target = await startScriptedTarget((call, gone) =>
    call.path.startsWith('/hold/')
      ? new Promise((resolve) => gone.addEventListener('abort', () => resolve({ status: 200 })))
      : { status: 200 },
  );
  executor = await startExecutor(db, {
    EXECUTOR_LONG_CONCURRENCY: '2',
    EXECUTOR_DEFAULT_CONCURRENCY: '8',
    EXECUTOR_CRITICAL_CONCURRENCY: '2',
    EXECUTOR_CRITICAL_LEAD_MS: '1500',
  });
});
afterAll(async () => {
  await executor?.stop('SIGKILL');
  await target?.close();
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

it('claims a critical job ahead of its due time and calls it on the instant, never before', async () => {
  const tenant = await createTenantWithKey(db.pool);
  const seed = { tenantId: tenant.id, runInS: 3 };
  const [critical] = await insertDueJobs(db.pool, {
    ...seed,
    lane: 'critical',
    priority: 0,
    target: { url: `${target.url}/lead/critical` },
  });
  const [other] = await insertDueJobs(db.pool, { ...seed, target: { url: `${target.url}/lead/default` } });
  const claimedAhead = await eventually(
    async () => {
      const [r] = await db.pool.query<RowDataPacket[]>(
        'SELECT state, run_at, NOW(3) AS db_now FROM jobs WHERE id = ?',
        [idToBin(critical!)],
      );
      return r[0]!.state === 'running' ? r[0]! : undefined;
    },
    10_000,
    'the critical job claimed',
  );
  // Claimed while not yet due; the default lane has no lead, so its job, due at the same time, waits.
  expect(claimedAhead.db_now.getTime()).toBeLessThan(claimedAhead.run_at.getTime());
  expect(target.calls.filter((c) => c.path.startsWith('/lead/'))).toHaveLength(0);
  expect((await jobRow(db, other!)).state).toBe('pending');

  await waitForState(db, [critical!, other!], 'succeeded');
  const call = target.calls.find((c) => c.path === '/lead/critical')!;
  expect(call.receivedAt).toBeGreaterThanOrEqual(claimedAhead.run_at.getTime());
  // The attempt started when the call did, at the due time, not at the claim.
  const [attempt] = await attemptRows(db, critical!);
  expect(attempt!.started_at.getTime()).toBe(claimedAhead.run_at.getTime());
});
