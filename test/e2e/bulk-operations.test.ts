import { idToBin } from '@dsched/mysql/ids';
import type { RowDataPacket } from '@dsched/mysql/pool';
import { createTenantWithKey, insertJobs } from '@dsched/testkit/fixtures';
import { eventually, type RunningService, startService } from '@dsched/testkit/services';
import { useTestStores } from '@dsched/testkit/test-stores';
import { afterAll, expect, it } from 'vitest';

// A bulk cancel by tag (docs/bulk-operations.md) through task-api and the reconciler as processes,
// with the reconciler killed (SIGKILL, as kill -9) mid-way and a new one started: every matching
// job is cancelled once, nothing else is touched, and the operation's counts and batches show no
// batch was applied twice. Sized for CI (2,000 jobs, 100 a batch); `pnpm loadtest bulk-cancel`
// runs the same through the load harness at 50,000.

const { db, ks } = useTestStores(import.meta.url);
const started: RunningService[] = [];
afterAll(async () => {
  await Promise.all(started.map((s) => s.stop('SIGKILL')));
});

const MATCHING = 2000;
const BATCH = 100;

it('cancels 2,000 jobs by tag once each through a kill -9 of the reconciler, and nothing else', async () => {
  const tenant = await createTenantWithKey(db.pool);
  const other = await createTenantWithKey(db.pool, 'other');
  const later = (i: number) => new Date(Date.now() + 3600_000 + i * 1000);
  const jobs = (tenantId: string, n: number, tags: Record<string, string>) =>
    Array.from({ length: n }, (_, i) => ({
      tenantId,
      taskId: null,
      scheduledFor: later(i),
      state: 'pending' as const,
      tags,
    }));
  const matching = await insertJobs(db.pool, jobs(tenant.id, MATCHING, { bulk: 'yes' }));
  const decoys = await insertJobs(db.pool, [
    ...jobs(tenant.id, 300, { bulk: 'no' }),
    ...jobs(other.id, 200, { bulk: 'yes' }),
  ]);
  const snapshot = async (ids: string[]) => {
    const [rows] = await db.pool.query<RowDataPacket[]>(
      'SELECT id, state, cancel_requested, updated_at FROM jobs WHERE id IN (?) ORDER BY id',
      [ids.map(idToBin)],
    );
    return rows.map((r) => `${r.state}/${r.cancel_requested}/${r.updated_at.getTime()}`);
  };
  const decoysBefore = await snapshot(decoys);
  const matchingBefore = await snapshot(matching);

  const env = {
    DATABASE_URL: db.url,
    CASSANDRA_KEYSPACE: ks.keyspace,
    DSCHED_ADMIN_TOKEN: 'e2e-admin-0123456789abcdef',
  };
  const reconcilerEnv = {
    ...env,
    RECONCILER_OPERATION_BATCH_SIZE: String(BATCH),
    RECONCILER_OPERATION_PAUSE_MS: '100',
    RECONCILER_OPERATION_INTERVAL_MS: '200',
    RECONCILER_OPERATION_LEASE_MS: '2000',
  };
  const taskApi = await startService('task-api', env);
  started.push(taskApi);
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${taskApi.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${tenant.apiKey}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return {
      status: res.status,
      body: (await res.json()) as Record<string, unknown> & { error?: { details: { field: string }[] } },
    };
  };

  // A 5xx's body says only `internal`: its cause is in task-api's log, printed with the failure.
  // The log line is written a moment after the answer (seen through vtgate: printed without it),
  // so it is waited for, up to 5 s.
  const why = async (res: { status: number; body: unknown }) => {
    if (res.status < 500) return JSON.stringify(res.body);
    await eventually(
      async () => (taskApi.output().includes('"level":"error"') ? true : undefined),
      5_000,
      "task-api's error logged",
    ).catch(() => undefined);
    return `${JSON.stringify(res.body)}; task-api:\n${taskApi.output()}`;
  };

  // Never everything: an empty filter is a 400 naming it. A dry run only counts.
  const empty = await call('POST', '/v1/operations', { action: 'cancel', filter: {} });
  expect([empty.status, empty.body.error?.details[0]?.field]).toEqual([400, 'filter']);
  const dry = await call('POST', '/v1/operations', {
    action: 'cancel',
    filter: { tag: 'bulk:yes' },
    dryRun: true,
  });
  expect(dry, await why(dry)).toEqual({ status: 200, body: { dryRun: true, matched: MATCHING } });
  expect(await snapshot(matching)).toEqual(matchingBefore);

  const start = await call('POST', '/v1/operations', { action: 'cancel', filter: { tag: 'bulk:yes' } });
  expect(start.status, await why(start)).toBe(202);
  expect(start.body.matched).toBe(MATCHING);
  const id = start.body.id as string;
  const progress = async () =>
    (await call('GET', `/v1/operations/${id}`)).body as { state: string; done: number; failed: number };

  const doomed = await startService('reconciler', reconcilerEnv);
  started.push(doomed);
  const atKill = await eventually(
    async () => {
      const p = await progress();
      return p.done >= 500 ? p : undefined;
    },
    60_000,
    'a quarter done',
  );
  await doomed.stop('SIGKILL');
  expect(atKill.state).toBe('running');
  expect(atKill.done).toBeLessThan(MATCHING);

  const reconciler = await startService('reconciler', reconcilerEnv);
  started.push(reconciler);
  const end = await eventually(
    async () => {
      const p = await progress();
      return p.state === 'running' ? undefined : p;
    },
    60_000,
    'the operation ended',
  );
  expect(end).toMatchObject({ state: 'succeeded', done: MATCHING, failed: 0 });
  // 20 full batches and the empty one that found nothing more: none was applied twice.
  const [[row]] = await db.pool.query<RowDataPacket[]>('SELECT batches FROM operations WHERE id = ?', [
    idToBin(id),
  ]);
  expect(Number(row!.batches)).toBe(MATCHING / BATCH + 1);
  const [cancelled] = await db.pool.query<RowDataPacket[]>(
    "SELECT COUNT(*) AS n FROM jobs WHERE id IN (?) AND state = 'cancelled'",
    [matching.map(idToBin)],
  );
  expect(Number(cancelled[0]!.n)).toBe(MATCHING);
  expect(await snapshot(decoys)).toEqual(decoysBefore);

  // A cancel of a running operation stops it between batches: what its finished batches changed
  // stays, the rest is untouched.
  const second = await call('POST', '/v1/operations', { action: 'cancel', filter: { tag: 'bulk:no' } });
  expect(second.status).toBe(202);
  const asked = await call('POST', `/v1/operations/${second.body.id}/cancel`);
  expect([asked.status, asked.body.cancelRequested]).toEqual([200, true]);
  const stopped = await eventually(
    async () => {
      const p = (await call('GET', `/v1/operations/${second.body.id}`)).body as {
        state: string;
        done: number;
      };
      return p.state === 'running' ? undefined : p;
    },
    30_000,
    'the second operation ended',
  );
  expect(stopped.state).toBe('cancelled');
  expect(stopped.done).toBeLessThan(300);
  const [left] = await db.pool.query<RowDataPacket[]>(
    'SELECT COUNT(*) AS n FROM jobs WHERE tenant_id = ? AND JSON_CONTAINS(tags, \'{"bulk": "no"}\') AND state = \'pending\'',
    [idToBin(tenant.id)],
  );
  expect(Number(left[0]!.n)).toBe(300 - stopped.done);
});
