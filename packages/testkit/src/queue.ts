import { type Lane, newId, type RetryPolicy, type Target } from '@dsched/domain';
import { idToBin } from '@dsched/mysql/ids';
import { databaseNow, type Pool } from '@dsched/mysql/pool';

// Pending jobs straight into the queue, due on the database clock, for tests and benchmarks that
// exercise the executor without the scheduler.

export interface DueJobSeed {
  tenantId: string;
  target: Partial<Target> & { url: string };
  lane?: Lane;
  /** 0 critical … 3 low. */
  priority?: number;
  retry?: Partial<RetryPolicy>;
  /** Seconds from the database's now; due one second ago by default. */
  runInS?: number;
}

/** Inserts `n` pending jobs in one statement; returns their ids in insertion order. */
export async function insertDueJobs(pool: Pool, seed: DueJobSeed, n = 1): Promise<string[]> {
  const now = await databaseNow(pool);
  const runAt = new Date(now.getTime() + (seed.runInS ?? -1) * 1000);
  const retry: RetryPolicy = {
    maxAttempts: 3,
    initialBackoffMs: 100,
    maxBackoffMs: 1000,
    rules: [],
    ...seed.retry,
  };
  const target: Target = { method: 'POST', headers: {}, timeoutMs: 5000, ...seed.target };
  const ids = Array.from({ length: n }, () => newId());
  const rows = ids.map((id) => [
    idToBin(id),
    idToBin(seed.tenantId),
    null,
    `test:${id}`,
    'trigger',
    runAt,
    seed.priority ?? 2,
    seed.lane ?? 'default',
    'pending',
    0,
    retry.maxAttempts,
    runAt,
    JSON.stringify(target),
    JSON.stringify(retry),
    now,
    now,
  ]);
  await pool.query(
    `INSERT INTO jobs (id, tenant_id, task_id, occurrence, kind, scheduled_for, priority, lane, state,
       attempt, max_attempts, run_at, target, retry, created_at, updated_at) VALUES ?`,
    [rows],
  );
  return ids;
}

/**
 * Empties the queue between tests of one file: attempts, jobs, the tenants' slot holders and the
 * fair-share clocks (docs/fair-share.md).
 */
export async function clearJobs(pool: Pool): Promise<void> {
  await pool.query('DELETE FROM job_attempts');
  await pool.query('DELETE FROM jobs');
  await pool.query('UPDATE tenant_slots SET job_id = NULL, attempt = NULL, expires_at = NULL');
  await pool.query('DELETE FROM tenant_fair_clocks');
  await pool.query('UPDATE fair_clocks SET vt = 0, max_tag = 0');
}
