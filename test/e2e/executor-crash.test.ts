import { idToBin } from '@dsched/mysql/ids';
import type { RowDataPacket } from '@dsched/mysql/pool';
import { createTenantWithKey, insertJobs } from '@dsched/testkit/fixtures';
import { eventually, type RunningService, startService } from '@dsched/testkit/services';
import { type RecordingTarget, startRecordingTarget } from '@dsched/testkit/target';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import { afterAll, beforeAll, expect, it } from 'vitest';

// An executor killed with SIGKILL while it holds 50 claimed jobs: the reconciler gives all 50
// back once their leases expire, another executor completes them, none is lost.

const LEASE_S = 8;
const RECONCILER_INTERVAL_MS = 500;
const db = useTestDatabase(import.meta.url);
let target: RecordingTarget;
const started: RunningService[] = [];

beforeAll(async () => {
  target = await startRecordingTarget();
});
afterAll(async () => {
  await Promise.all(started.map((s) => s.stop('SIGKILL')));
  await target?.close();
});

const count = async (sql: string, params: unknown[]) => {
  const [rows] = await db.pool.query<RowDataPacket[]>(sql, params);
  return Number(rows[0]!.n);
};

it('returns all 50 claims of a killed executor within lease + interval, and all 50 complete', async () => {
  const env = {
    DATABASE_URL: db.url,
    EXECUTOR_LEASE_S: String(LEASE_S),
    EXECUTOR_POLL_MS: '100',
    EXECUTOR_ALLOWED_TARGETS: '127.0.0.0/8',
    RECONCILER_INTERVAL_MS: String(RECONCILER_INTERVAL_MS),
  };
  started.push(await startService('reconciler', env));
  // The target holds every call, so the executor is mid-call on all 50 when it dies.
  target.setResponder(() => ({ status: 200, delayMs: 60_000 }));
  const tenant = await createTenantWithKey(db.pool);
  const ids = await insertJobs(
    db.pool,
    Array.from({ length: 50 }, () => ({
      tenantId: tenant.id,
      taskId: null,
      scheduledFor: new Date(Date.now() - 1000),
      state: 'pending' as const,
      targetUrl: `${target.url}/hold`,
    })),
  );
  const first = await startService('executor', { ...env, INSTANCE_ID: 'executor-first' });
  started.push(first);
  await target.waitForCalls(50, 30_000);
  expect(
    await count(
      "SELECT COUNT(*) AS n FROM jobs WHERE claimed_by = 'executor-first' AND state = 'running'",
      [],
    ),
  ).toBe(50);
  first.process.kill('SIGKILL');
  expect(await first.exited).toBe('SIGKILL');

  target.setResponder(() => ({ status: 200 }));
  await eventually(
    async () =>
      (await count("SELECT COUNT(*) AS n FROM jobs WHERE claimed_by = 'executor-first'", [])) === 0
        ? true
        : undefined,
    60_000,
    'claims of the killed executor given back',
  );
  // Measured on the database clock: each release came at most one reconciler interval (plus a
  // margin for a loaded machine) after the lease it ended.
  const [late] = await db.pool.query<RowDataPacket[]>(
    `SELECT MAX(TIMESTAMPDIFF(MICROSECOND, started_at + INTERVAL ? SECOND, finished_at)) DIV 1000 AS ms
       FROM job_attempts WHERE job_id IN (?) AND attempt = 1`,
    [LEASE_S, ids.map(idToBin)],
  );
  expect(Number(late[0]!.ms)).toBeLessThan(RECONCILER_INTERVAL_MS + 5_000);

  started.push(await startService('executor', { ...env, INSTANCE_ID: 'executor-second' }));
  await eventually(
    async () =>
      (await count("SELECT COUNT(*) AS n FROM jobs WHERE id IN (?) AND state = 'succeeded'", [
        ids.map(idToBin),
      ])) === 50
        ? true
        : undefined,
    60_000,
    'all 50 succeeded',
  );
  const attempts = await db.pool.query<RowDataPacket[]>(
    'SELECT attempt, error_class, status FROM job_attempts WHERE job_id IN (?) ORDER BY attempt',
    [ids.map(idToBin)],
  );
  const rows = attempts[0];
  expect(rows.filter((r) => r.attempt === 1 && r.error_class === 'lease_expired')).toHaveLength(50);
  expect(rows.filter((r) => r.attempt === 2 && r.status === 200)).toHaveLength(50);
  // None lost: every job was called again, with the same Idempotency-Key.
  const retried = new Set(
    target.calls
      .filter((c) => c.headers['dsched-attempt'] === '2')
      .map((c) => String(c.headers['idempotency-key'])),
  );
  expect([...retried].sort()).toEqual([...ids].sort());
});
