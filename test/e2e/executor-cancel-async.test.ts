import type { JobView } from '@dsched/domain';
import { idToBin } from '@dsched/mysql/ids';
import { createTenantWithKey } from '@dsched/testkit/fixtures';
import { awaitSentinelJob, insertDueJobs } from '@dsched/testkit/queue';
import { type ScriptedTarget, startScriptedTarget } from '@dsched/testkit/scripted-target';
import { type RunningService, startService } from '@dsched/testkit/services';
import { useTestStores } from '@dsched/testkit/test-stores';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attemptRows, jobRow, startExecutor, waitForState } from './executor-kit.ts';

// Cancel and asynchronous completion across processes: an executor, job-api and a target on
// loopback that talks back to job-api the way a real asynchronous endpoint would.

const { db, ks } = useTestStores(import.meta.url);
let target: ScriptedTarget;
let executor: RunningService;
let jobApi: RunningService;
let tenant: Awaited<ReturnType<typeof createTenantWithKey>>;

const LEASE_S = 3; // renewed (and cancels delivered) every second

beforeAll(async () => {
  target = await startScriptedTarget();
  [executor, jobApi] = await Promise.all([
    startExecutor(db, { EXECUTOR_LEASE_S: String(LEASE_S) }),
    startService('job-api', { DATABASE_URL: db.url, CASSANDRA_KEYSPACE: ks.keyspace }),
  ]);
  tenant = await createTenantWithKey(db.pool);
});
afterAll(async () => {
  await Promise.all([executor?.stop('SIGKILL'), jobApi?.stop()]);
  await target?.close();
});

const api = (path: string, body: unknown) =>
  fetch(`${jobApi.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tenant.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/** A job of the same tenant and lane, due now, on `path` of the target. */
const sentinel = (path: string) => ({ tenantId: tenant.id, target: { url: `${target.url}/${path}` } });
const calledWithKey = (id: string) => target.calls.some((c) => c.idempotencyKey === id);

describe('cancel', () => {
  it('aborts a running call within one lease renewal, and the job never fires again', async () => {
    target.setHandler(
      (_call, gone) =>
        new Promise((resolve) => gone.addEventListener('abort', () => resolve({ status: 200 }))),
    );
    const [id] = await insertDueJobs(db.pool, {
      tenantId: tenant.id,
      target: { url: `${target.url}/cancel-me` },
    });
    await target.until(() => target.inFlight('cancel-me') === 1, 30_000, 'the call in flight');

    const res = await api(`/v1/jobs/${id}/cancel`, {});
    expect(res.status).toBe(200);
    // "The job as it now is": marked and still running, or already cancelled when the executor's
    // cancel watch (every second) aborted the call between job-api's mark and its read (seen
    // through vtgate on a loaded machine).
    const view = (await res.json()) as JobView;
    expect(view).toMatchObject(
      view.state === 'cancelled'
        ? { id, state: 'cancelled' }
        : { id, state: 'running', cancelRequested: true },
    );
    await target.until(
      () => target.abandoned.some((c) => c.idempotencyKey === id),
      3 * LEASE_S * 1000,
      'the call aborted',
    );
    await waitForState(db, [id!], 'cancelled');
    expect(await attemptRows(db, id!)).toMatchObject([{ attempt: 1, error_class: 'cancelled' }]);
    // A job due after the cancel is called: the claim passes since would have taken it again.
    target.setHandler(() => ({ status: 200 }));
    await awaitSentinelJob(db.pool, sentinel('cancel-sentinel'), calledWithKey);
    expect(target.calls.filter((c) => c.idempotencyKey === id)).toHaveLength(1);
  });

  it('cancels a pending job, which then never fires', async () => {
    target.setHandler(() => ({ status: 200 }));
    const [id] = await insertDueJobs(db.pool, {
      tenantId: tenant.id,
      target: { url: `${target.url}/later` },
      runInS: 3,
    });
    const res = await api(`/v1/jobs/${id}/cancel`, {});
    expect(await res.json()).toMatchObject({ state: 'cancelled', attempt: 0 });
    // Its time comes at once (the row's run_at moved back, rather than waiting 3 s for it), and a
    // job due after it is called: the claim passes reached it and left it.
    await db.pool.query('UPDATE jobs SET run_at = NOW(6) - INTERVAL 1 SECOND WHERE id = ?', [idToBin(id!)]);
    await awaitSentinelJob(db.pool, sentinel('later-sentinel'), calledWithKey);
    expect(target.calls.filter((c) => c.idempotencyKey === id)).toHaveLength(0);
    expect(await jobRow(db, id!)).toMatchObject({ state: 'cancelled', attempt: 0 });
  });
});

describe('asynchronous completion', () => {
  it('parks a 202, takes heartbeats and the completion with the attempt token, and answers 409 to a stale one', async () => {
    const heartbeats: number[] = [];
    target.setHandler((call) => {
      // Answer 202 now; do the work "later" and report through job-api with the attempt token.
      setTimeout(async () => {
        const path = `/v1/jobs/${call.idempotencyKey}`;
        heartbeats.push(
          (await api(`${path}/heartbeat`, { attempt: call.attempt, progress: { step: 1 } })).status,
        );
        heartbeats.push((await api(`${path}/heartbeat`, { attempt: call.attempt + 1 })).status);
        await api(`${path}/complete`, { attempt: call.attempt, outcome: 'succeeded', output: { rows: 3 } });
      }, 300);
      return { status: 202 };
    });
    const [id] = await insertDueJobs(db.pool, {
      tenantId: tenant.id,
      target: { url: `${target.url}/async` },
    });
    await waitForState(db, [id!], 'succeeded');
    expect(heartbeats).toEqual([200, 409]);
    const view = (await (
      await fetch(`${jobApi.url}/v1/jobs/${id}`, { headers: { authorization: `Bearer ${tenant.apiKey}` } })
    ).json()) as JobView;
    expect(view).toMatchObject({ state: 'succeeded', attempt: 1, lastStatus: 202, output: { rows: 3 } });
    expect(view.attempts).toMatchObject([{ attempt: 1, status: 202 }]);
    expect(view.attempts[0]?.finishedAt).toBeDefined();
    const late = await api(`/v1/jobs/${id}/complete`, { attempt: 1, outcome: 'failed' });
    expect(late.status).toBe(409);
  });
});
