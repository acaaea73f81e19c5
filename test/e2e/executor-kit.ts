import { idToBin } from '@dsched/mysql/ids';
import type { RowDataPacket } from '@dsched/mysql/pool';
import type { TestDatabase } from '@dsched/testkit/mysql';
import { eventually, type RunningService, startService } from '@dsched/testkit/services';
import { expect } from 'vitest';

// Shared by the executor's end-to-end tests: executors as real processes against a test database,
// their metrics, and the job rows they leave.

export async function startExecutor(
  db: TestDatabase,
  env: Record<string, string> = {},
  name = 'executor',
): Promise<RunningService> {
  return startService('executor', {
    DATABASE_URL: db.url,
    INSTANCE_ID: name,
    EXECUTOR_ALLOWED_TARGETS: '127.0.0.0/8',
    EXECUTOR_POLL_MS: '50',
    EXECUTOR_CRITICAL_POLL_MS: '20',
    ...env,
  });
}

/** The value of a counter or gauge on a service's /metrics (summed over its label sets). */
export async function metric(service: RunningService, name: string): Promise<number> {
  const text = await (await fetch(`${service.url}/metrics`)).text();
  return text
    .split('\n')
    .filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `))
    .reduce((sum, l) => sum + Number(l.split(' ').pop()), 0);
}

/** Waits until a metric reaches `value` (it is counted just after the outcome it counts commits). */
export async function metricReaches(service: RunningService, name: string, value: number): Promise<void> {
  await eventually(
    async () => ((await metric(service, name)) >= value ? true : undefined),
    10_000,
    `${name} ≥ ${value}`,
  );
  expect(await metric(service, name)).toBe(value);
}

export async function jobRow(db: TestDatabase, id: string): Promise<RowDataPacket> {
  const [rows] = await db.pool.query<RowDataPacket[]>(
    `SELECT state, attempt, max_attempts, last_status, last_error, claimed_by, cancel_requested
       FROM jobs WHERE id = ?`,
    [idToBin(id)],
  );
  return rows[0]!;
}

export async function attemptRows(db: TestDatabase, id: string): Promise<RowDataPacket[]> {
  const [rows] = await db.pool.query<RowDataPacket[]>(
    `SELECT attempt, executor, status, error_class, started_at, finished_at, duration_ms
       FROM job_attempts WHERE job_id = ? ORDER BY attempt`,
    [idToBin(id)],
  );
  return rows;
}

/** Waits until every job is in `state`. */
export async function waitForState(
  db: TestDatabase,
  ids: string[],
  state: string,
  timeoutMs = 30_000,
): Promise<void> {
  await eventually(
    async () => {
      const [rows] = await db.pool.query<RowDataPacket[]>(
        'SELECT COUNT(*) AS n FROM jobs WHERE id IN (?) AND state = ?',
        [ids.map(idToBin), state],
      );
      return Number(rows[0]!.n) === ids.length ? true : undefined;
    },
    timeoutMs,
    `${ids.length} job(s) ${state}`,
  );
}
