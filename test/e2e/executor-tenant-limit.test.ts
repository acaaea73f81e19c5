import { idToBin } from '@dsched/mysql/ids';
import type { RowDataPacket } from '@dsched/mysql/pool';
import { createTenantWithKey } from '@dsched/testkit/fixtures';
import { insertDueJobs } from '@dsched/testkit/queue';
import { type ScriptedTarget, startScriptedTarget } from '@dsched/testkit/scripted-target';
import type { RunningService } from '@dsched/testkit/services';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { metric, startExecutor, waitForState } from './executor-kit.ts';

// A tenant's concurrency limit holds across executor processes, not per process, and a tenant at
// its limit does not hold back the others.

const db = useTestDatabase(import.meta.url);
let target: ScriptedTarget;
const executors: RunningService[] = [];

beforeAll(async () => {
  // Each call takes a moment, so calls overlap; the group is the tenant (first path segment).
  target = await startScriptedTarget(
    () => new Promise((resolve) => setTimeout(() => resolve({ status: 200 }), 150)),
  );
});
afterAll(async () => {
  await Promise.all(executors.map((e) => e.stop('SIGKILL')));
  await target?.close();
});

it('never lets the target see more than 5 calls of a tenant limited to 5, over three executors, while others proceed', async () => {
  const limited = await createTenantWithKey(db.pool, 'limited', { maxConcurrency: 5 });
  const others = await Promise.all([createTenantWithKey(db.pool), createTenantWithKey(db.pool)]);
  executors.push(
    ...(await Promise.all(
      ['exec-1', 'exec-2', 'exec-3'].map((name) =>
        startExecutor(db, { EXECUTOR_DEFAULT_CONCURRENCY: '16', EXECUTOR_TENANT_DEFER_MS: '100' }, name),
      ),
    )),
  );
  // The limited tenant's jobs are first in the claim order (older run_at), the others behind them.
  const limitedJobs = await insertDueJobs(
    db.pool,
    { tenantId: limited.id, target: { url: `${target.url}/limited/` } },
    40,
  );
  const otherJobs = (
    await Promise.all(
      others.map((t, i) =>
        insertDueJobs(db.pool, { tenantId: t.id, target: { url: `${target.url}/other${i}/` } }, 30),
      ),
    )
  ).flat();

  await waitForState(db, otherJobs, 'succeeded', 60_000);
  // The other tenants finished while the limited one still had work queued: they were not held back.
  expect(target.calls.filter((c) => c.group === 'limited').length).toBeLessThan(40);
  await waitForState(db, limitedJobs, 'succeeded', 60_000);

  expect(target.peakInFlight('limited')).toBe(5);
  expect(target.peakInFlight('other0') + target.peakInFlight('other1')).toBeGreaterThan(5);
  // The limited tenant's calls were spread over several executors, so the bound above is the
  // fleet's, not one process's; and it was enforced by deferring, not by failing jobs.
  const [spread] = await db.pool.query<RowDataPacket[]>(
    `SELECT COUNT(DISTINCT a.executor) AS n FROM job_attempts a JOIN jobs j ON j.id = a.job_id
      WHERE j.tenant_id = ?`,
    [idToBin(limited.id)],
  );
  expect(Number(spread[0]!.n)).toBeGreaterThanOrEqual(2);
  const deferred = await Promise.all(
    executors.map((e) => metric(e, 'dsched_executor_tenant_deferred_total')),
  );
  expect(deferred.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
  expect(target.calls.filter((c) => c.group === 'limited')).toHaveLength(40);
});
