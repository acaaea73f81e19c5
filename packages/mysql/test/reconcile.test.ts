import { allPartitions, DEFAULT_PARTITIONS, newId } from '@dsched/domain';
import { createTenantWithKey, insertJobs } from '@dsched/testkit/fixtures';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import type { RowDataPacket } from 'mysql2/promise';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { idToBin } from '../src/ids.ts';
import {
  failPastDeadline,
  readMaintenanceGauges,
  releaseClaimsOf,
  releaseExpiredClaims,
  runningClaimOwners,
} from '../src/jobs/reconcile/reconcile.ts';
import { databaseNow } from '../src/pool.ts';
import { jobsSql } from './plans.ts';

const db = useTestDatabase(import.meta.url);
const EVERY = allPartitions(DEFAULT_PARTITIONS);
const EVEN = EVERY.filter((p) => p % 2 === 0);
let tenantId: string;

beforeAll(async () => {
  tenantId = (await createTenantWithKey(db.pool)).id;
});
beforeEach(async () => {
  await db.pool.query('DELETE FROM job_attempts');
  await db.pool.query('DELETE FROM jobs');
});

const ago = (s: number) => new Date(Date.now() - s * 1000);
const ahead = (s: number) => new Date(Date.now() + s * 1000);

async function row(id: string) {
  const [rows] = await db.pool.query<RowDataPacket[]>(
    `SELECT state, attempt, claimed_by, lease_expires_at, deadline_at, last_error, finished_at, run_at, updated_at,
            TIMESTAMPDIFF(MICROSECOND, NOW(3), run_at) DIV 1000 AS run_in_ms
       FROM jobs WHERE id = ?`,
    [idToBin(id)],
  );
  const [attempts] = await db.pool.query<RowDataPacket[]>(
    'SELECT attempt, finished_at, error_class FROM job_attempts WHERE job_id = ? ORDER BY attempt',
    [idToBin(id)],
  );
  return Object.assign(rows[0]!, { attempts });
}

describe('expired claims', () => {
  it('go back to pending, or to the DLQ on the last attempt, and their attempt rows are closed', async () => {
    const [again, spent, alive] = await insertJobs(db.pool, [
      { tenantId, taskId: null, scheduledFor: ago(60), state: 'running', attempt: 1, leaseExpiresAt: ago(1) },
      { tenantId, taskId: null, scheduledFor: ago(60), state: 'running', attempt: 3, leaseExpiresAt: ago(1) },
      {
        tenantId,
        taskId: null,
        scheduledFor: ago(60),
        state: 'running',
        attempt: 1,
        leaseExpiresAt: ahead(60),
      },
    ]);
    expect(await releaseExpiredClaims(db.pool, 100)).toEqual({ released: 1, dead: 1 });
    const a = await row(again!);
    expect(a).toMatchObject({
      state: 'pending',
      attempt: 1,
      claimed_by: null,
      last_error: 'claim lease expired',
    });
    expect(a.attempts).toMatchObject([{ attempt: 1, error_class: 'lease_expired' }]);
    expect(a.attempts[0]!.finished_at).not.toBeNull();
    expect(await row(spent!)).toMatchObject({ state: 'dead', attempt: 3 });
    expect((await row(spent!)).finished_at).not.toBeNull();
    expect(await row(alive!)).toMatchObject({ state: 'running', claimed_by: 'executor-test' });
    expect(await releaseExpiredClaims(db.pool, 100)).toEqual({ released: 0, dead: 0 });
  });

  it('at a pass’s instant: a lease that ends before it is expired, one that ends after is not', async () => {
    const [soon, later] = await insertJobs(db.pool, [
      {
        tenantId,
        taskId: null,
        scheduledFor: ago(60),
        state: 'running',
        attempt: 1,
        leaseExpiresAt: ahead(30),
      },
      {
        tenantId,
        taskId: null,
        scheduledFor: ago(60),
        state: 'running',
        attempt: 1,
        leaseExpiresAt: ahead(90),
      },
    ]);
    // Time as a parameter: the pass runs a minute from now, without waiting for it or moving leases.
    const at = new Date((await databaseNow(db.pool)).getTime() + 60_000);
    expect(await releaseExpiredClaims(db.pool, 100, undefined, at)).toEqual({ released: 1, dead: 0 });
    const s = await row(soon!);
    expect(s).toMatchObject({ state: 'pending', claimed_by: null });
    // The pass's instant is the one its writes carry: the job is due then, its attempt ended then.
    expect((s.run_at as Date).getTime()).toBe(at.getTime());
    expect((s.attempts[0]!.finished_at as Date).getTime()).toBe(at.getTime());
    expect(await row(later!)).toMatchObject({ state: 'running', claimed_by: 'executor-test' });
    // At the database's own now, neither lease has ended.
    await releaseExpiredClaims(db.pool, 100);
    expect(await row(later!)).toMatchObject({ state: 'running' });
  });

  it('are shared by concurrent reconcilers: each job is given back exactly once', async () => {
    const ids = await insertJobs(
      db.pool,
      Array.from({ length: 600 }, () => ({
        tenantId,
        taskId: null,
        scheduledFor: ago(60),
        state: 'running' as const,
        attempt: 1,
        leaseExpiresAt: ago(5),
      })),
    );
    const replica = async () => {
      let total = 0;
      for (;;) {
        const r = await releaseExpiredClaims(db.pool, 25);
        total += r.released + r.dead;
        if (r.released + r.dead < 25) return total;
      }
    };
    const totals = await Promise.all([replica(), replica(), replica(), replica()]);
    expect(totals.reduce((a, b) => a + b, 0)).toBe(ids.length);
    const [rows] = await db.pool.query<RowDataPacket[]>(
      "SELECT COUNT(*) AS n FROM jobs WHERE state = 'pending' AND attempt = 1",
    );
    expect(Number(rows[0]!.n)).toBe(ids.length);
  });
});

describe('asynchronous jobs past their deadline', () => {
  it('fail at a pass’s instant past their deadline, not before it', async () => {
    const [parked] = await insertJobs(db.pool, [
      { tenantId, taskId: null, scheduledFor: ago(60), state: 'running', attempt: 1, deadlineAt: ahead(30) },
    ]);
    expect(await failPastDeadline(db.pool, 100)).toEqual({ released: 0, dead: 0 });
    const at = new Date((await databaseNow(db.pool)).getTime() + 60_000);
    expect(await failPastDeadline(db.pool, 100, undefined, at)).toEqual({ released: 1, dead: 0 });
    expect(((await row(parked!)).updated_at as Date).getTime()).toBe(at.getTime());
  });

  it('fail and retry after a backoff within the policy, or go to the DLQ when attempts are spent', async () => {
    const [late, lastTry, onTime] = await insertJobs(db.pool, [
      { tenantId, taskId: null, scheduledFor: ago(60), state: 'running', attempt: 2, deadlineAt: ago(1) },
      { tenantId, taskId: null, scheduledFor: ago(60), state: 'running', attempt: 3, deadlineAt: ago(1) },
      { tenantId, taskId: null, scheduledFor: ago(60), state: 'running', attempt: 1, deadlineAt: ahead(600) },
    ]);
    expect(await failPastDeadline(db.pool, 100)).toEqual({ released: 1, dead: 1 });
    const l = await row(late!);
    expect(l).toMatchObject({ state: 'pending', deadline_at: null, last_error: 'deadline exceeded' });
    // Policy: initial 100 ms, cap 1000 ms; attempt 2 backs off by at most 200 ms (full jitter).
    expect(Number(l.run_in_ms)).toBeGreaterThanOrEqual(-2000); // read a moment after the update
    expect(Number(l.run_in_ms)).toBeLessThanOrEqual(200);
    expect(l.attempts.at(-1)).toMatchObject({ attempt: 2, error_class: 'deadline' });
    expect(await row(lastTry!)).toMatchObject({
      state: 'dead',
      last_error: 'deadline exceeded on the last attempt',
    });
    expect(await row(onTime!)).toMatchObject({ state: 'running' });
  });
});

describe('overlap-forbidden tasks', () => {
  // A task that forbids overlap waits while its previous job runs; a job stuck in running (its
  // executor died, or its async deadline passed) is taken back by the same statements, so the
  // task is blocked no longer than a lease or a deadline.
  it('are unblocked when their stuck running job is taken back', async () => {
    const taskId = newId();
    await insertJobs(db.pool, [
      { tenantId, taskId, scheduledFor: ago(120), state: 'running', attempt: 1, leaseExpiresAt: ago(1) },
      {
        tenantId,
        taskId,
        scheduledFor: ago(60),
        state: 'running',
        attempt: 1,
        leaseExpiresAt: ahead(3600),
        deadlineAt: ago(1),
      },
    ]);
    const running = async () => {
      const [rows] = await db.pool.query<RowDataPacket[]>(
        "SELECT COUNT(*) AS n FROM jobs WHERE task_id = ? AND state = 'running'",
        [idToBin(taskId)],
      );
      return Number(rows[0]!.n);
    };
    expect(await running()).toBe(2);
    await releaseExpiredClaims(db.pool, 100);
    await failPastDeadline(db.pool, 100);
    expect(await running()).toBe(0);
  });
});

describe('executors that are gone', () => {
  it('lose their synchronous claims at once; parked async jobs and other owners stay', async () => {
    const [mine, parked, other] = await insertJobs(db.pool, [
      {
        tenantId,
        taskId: null,
        scheduledFor: ago(5),
        state: 'running',
        claimedBy: 'executor-0',
        leaseExpiresAt: ahead(120),
      },
      {
        tenantId,
        taskId: null,
        scheduledFor: ago(5),
        state: 'running',
        claimedBy: 'executor-0',
        leaseExpiresAt: ahead(120),
        deadlineAt: ahead(3600),
      },
      {
        tenantId,
        taskId: null,
        scheduledFor: ago(5),
        state: 'running',
        claimedBy: 'executor-1',
        leaseExpiresAt: ahead(120),
      },
    ]);
    expect((await runningClaimOwners(db.pool)).sort()).toEqual(['executor-0', 'executor-1']);
    expect(await releaseClaimsOf(db.pool, ['executor-0'], 100)).toEqual({ released: 1, dead: 0 });
    expect(await row(mine!)).toMatchObject({ state: 'pending', last_error: 'executor gone' });
    expect(await row(parked!)).toMatchObject({ state: 'running' });
    expect(await row(other!)).toMatchObject({ state: 'running' });
  });
});

describe('maintenance gauges', () => {
  it('count due pending jobs per lane and the DLQ', async () => {
    await insertJobs(db.pool, [
      { tenantId, taskId: null, scheduledFor: ago(5), state: 'pending' },
      { tenantId, taskId: null, scheduledFor: ago(5), state: 'pending' },
      { tenantId, taskId: null, scheduledFor: ahead(500), state: 'pending' },
      { tenantId, taskId: null, scheduledFor: ago(5), state: 'dead' },
    ]);
    expect(await readMaintenanceGauges(db.pool)).toEqual({
      readyBacklog: { critical: 0, default: 2, long: 0 },
      dlqSize: 1,
    });
  });
});

describe('query plans', () => {
  const explain = async (file: string, params: unknown[]) => {
    const sql = jobsSql(file).replace(/FOR UPDATE SKIP LOCKED/, '');
    const [rows] = await db.pool.query<RowDataPacket[]>(`EXPLAIN ${sql}`, params);
    return rows;
  };

  it.each([
    ['release-expired-select.sql', [new Date(), EVERY, 10], 'jobs_by_state_lease'],
    ['deadline-select.sql', [new Date(), EVERY, 10], 'jobs_deadline'],
    // One shard's group of two (even partitions): the range still walks the index in order.
    ['release-expired-select.sql', [new Date(), EVEN, 10], 'jobs_by_state_lease'],
    ['deadline-select.sql', [new Date(), EVEN, 10], 'jobs_deadline'],
  ])('%s walks %s without a filesort', async (file, params, index) => {
    const [plan] = await explain(file as string, params as unknown[]);
    expect(plan!.key).toBe(index);
    expect(String(plan!.Extra)).not.toMatch(/filesort/);
  });

  it('the fenced release update finds its rows by primary key', async () => {
    // Many expired claims, so a walk of the state index would be the costly plan.
    await insertJobs(
      db.pool,
      Array.from({ length: 3000 }, () => ({
        tenantId,
        taskId: null,
        scheduledFor: ago(60),
        state: 'running' as const,
        leaseExpiresAt: ago(5),
      })),
    );
    await db.pool.query('ANALYZE TABLE jobs');
    const id = idToBin(newId());
    const now = new Date();
    const [rows] = await db.pool.query<RowDataPacket[]>(`EXPLAIN ${jobsSql('release-expired-update.sql')}`, [
      now,
      now,
      now,
      EVERY,
      [id],
      [[id, 1]],
      now,
    ]);
    expect(rows[0]!.key).toBe('PRIMARY');
  });
});
