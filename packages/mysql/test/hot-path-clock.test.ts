import type { AttemptRecord, ClaimedJob, OutcomeWrite } from '@dsched/domain';
import { createTenantWithKey } from '@dsched/testkit/fixtures';
import { claimDue, clearJobs, insertDueJobs } from '@dsched/testkit/queue';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import type { RowDataPacket } from 'mysql2/promise';
import { beforeEach, describe, expect, it } from 'vitest';
import { idToBin } from '../src/ids.ts';
import { renewClaimLeases } from '../src/jobs/claim/claim-leases.ts';
import { claimableJobsWaiting } from '../src/jobs/claim/claims.ts';
import { tagDueJobs } from '../src/jobs/fair-share/fair-tags.ts';
import { recordOutcomes } from '../src/jobs/outcome/outcomes.ts';
import { databaseNow } from '../src/pool.ts';
import { clockedSql, instantLiteral } from '../src/sql.ts';

// Time as a parameter on the hot path (D50): the claim (its probe, its fair tagging, its slots and
// deferrals), lease renewal and the outcome batch take `at` for the database clock, so a test
// steps time forward instead of sleeping, and every time they write is that instant.

const db = useTestDatabase(import.meta.url);
const target = { url: 'http://127.0.0.1:9/' };
const later = (at: Date, ms: number) => new Date(at.getTime() + ms);

beforeEach(() => clearJobs(db.pool));

async function jobRow(id: string): Promise<RowDataPacket> {
  const [r] = await db.pool.query<RowDataPacket[]>(
    `SELECT state, run_at, claimed_at, started_at, lease_expires_at, deadline_at, finished_at, updated_at
       FROM jobs WHERE id = ?`,
    [idToBin(id)],
  );
  return r[0]!;
}

async function attemptEnd(id: string, attempt: number): Promise<Date | null> {
  const [r] = await db.pool.query<RowDataPacket[]>(
    'SELECT finished_at FROM job_attempts WHERE job_id = ? AND attempt = ?',
    [idToBin(id), attempt],
  );
  return (r[0]!.finished_at as Date | null) ?? null;
}

async function slotExpiry(jobId: string): Promise<Date> {
  const [r] = await db.pool.query<RowDataPacket[]>('SELECT expires_at FROM tenant_slots WHERE job_id = ?', [
    idToBin(jobId),
  ]);
  return r[0]!.expires_at as Date;
}

/** One due-later job; returns its id and its run_at as stored. */
async function jobDueIn(tenantId: string, seconds: number): Promise<{ id: string; runAt: Date }> {
  const [id] = await insertDueJobs(db.pool, { tenantId, target, runInS: seconds });
  return { id: id!, runAt: (await jobRow(id!)).run_at as Date };
}

const attempt = (status: number | null): AttemptRecord => ({
  status,
  errorClass: status === 200 ? null : 'http_status',
  error: null,
  durationMs: 5,
});

describe('clockedSql', () => {
  it('sends NOW(3) without an instant, and the instant as a DATETIME(3) literal with one', () => {
    const sql = clockedSql('SELECT 1 WHERE run_at <= :now AND lease < :now + INTERVAL ? SECOND');
    expect(sql()).toBe('SELECT 1 WHERE run_at <= NOW(3) AND lease < NOW(3) + INTERVAL ? SECOND');
    expect(sql(null)).toBe(sql());
    const at = new Date('2031-02-03T04:05:06.789Z');
    expect(sql(at)).toBe(
      "SELECT 1 WHERE run_at <= CAST('2031-02-03 04:05:06.789' AS DATETIME(3)) AND lease < " +
        "CAST('2031-02-03 04:05:06.789' AS DATETIME(3)) + INTERVAL ? SECOND",
    );
  });

  it('sends a statement with no clock in it as it is, and refuses an invalid instant', () => {
    expect(clockedSql('SELECT 1')(new Date())).toBe('SELECT 1');
    expect(() => instantLiteral(new Date(Number.NaN))).toThrow(/invalid/);
  });

  it('reads back, on the server, as the very instant', async () => {
    const at = new Date('2031-02-03T04:05:06.789Z');
    const [r] = await db.pool.query<RowDataPacket[]>(`SELECT ${instantLiteral(at)} AS t`);
    expect((r[0]!.t as Date).toISOString()).toBe(at.toISOString());
  });
});

describe('the claim at a stepped instant', () => {
  it('takes a job due later only once the instant reaches its run_at, and leases it from that instant', async () => {
    const tenant = await createTenantWithKey(db.pool);
    const { id, runAt } = await jobDueIn(tenant.id, 60);
    const before = later(runAt, -1);
    expect(await claimableJobsWaiting(db.pool, 'default', 0, before)).toBe(false);
    expect((await claimDue(db.pool, { at: before })).locked).toBe(0);
    // A lead counts from the instant too: 1 ms ahead of run_at with a 1 ms lead is due.
    expect(await claimableJobsWaiting(db.pool, 'default', 1, before)).toBe(true);

    const at = later(runAt, 2_000);
    expect(await claimableJobsWaiting(db.pool, 'default', 0, at)).toBe(true);
    const [job] = (await claimDue(db.pool, { at, leaseSeconds: 30 })).jobs as [ClaimedJob];
    expect(job.id).toBe(id);
    expect(job.claimedAt).toEqual(at);
    const row = await jobRow(id);
    expect(row).toMatchObject({ state: 'running', claimed_at: at, started_at: at, updated_at: at });
    expect(row.lease_expires_at).toEqual(later(at, 30_000));
  });

  it('in a fair lane, tags and claims a job due later only once the instant reaches its run_at', async () => {
    const tenant = await createTenantWithKey(db.pool);
    const { id, runAt } = await jobDueIn(tenant.id, 60);
    const before = later(runAt, -1);
    expect(await tagDueJobs(db.pool, { lane: 'default', limit: 10, at: before })).toEqual({
      tagged: 0,
      busy: false,
    });
    expect((await claimDue(db.pool, { order: 'fair', at: before })).locked).toBe(0);
    expect((await tagDueJobs(db.pool, { lane: 'default', limit: 10, at: runAt })).tagged).toBe(1);
    const { jobs } = await claimDue(db.pool, { order: 'fair', at: runAt });
    expect(jobs.map((j) => j.id)).toEqual([id]);
  });

  it('resumed after its cursor, in either order, takes a job due later only once the instant reaches it', async () => {
    const tenant = await createTenantWithKey(db.pool);
    const now = await databaseNow(db.pool);
    await insertDueJobs(db.pool, { tenantId: tenant.id, target }, 2);
    const { id, runAt } = await jobDueIn(tenant.id, 60);
    for (const order of ['due', 'fair'] as const) {
      if (order === 'fair') {
        await db.pool.query("UPDATE jobs SET state = 'pending', attempt = 0, claimed_by = NULL");
        expect((await tagDueJobs(db.pool, { lane: 'default', limit: 10, at: runAt })).tagged).toBe(3);
      }
      const first = await claimDue(db.pool, { order, limit: 1, at: now });
      expect(first.locked).toBe(1);
      const early = await claimDue(db.pool, { order, after: first.cursor, at: later(runAt, -1) });
      expect(early.jobs.map((j) => j.id)).not.toContain(id);
      const due = await claimDue(db.pool, { order, after: early.cursor ?? first.cursor, at: runAt });
      expect(
        due.jobs.map((j) => j.id),
        order,
      ).toEqual([id]);
    }
  });

  it('tags the head of a tenant whose job the instant made due, ahead of another tenant’s flood', async () => {
    const [flood, quiet] = [await createTenantWithKey(db.pool), await createTenantWithKey(db.pool)];
    await insertDueJobs(db.pool, { tenantId: flood.id, target }, 3);
    const { runAt } = await jobDueIn(quiet.id, 60);
    // A full read (limit 1) sends the tagger to each tenant's oldest untagged job, if it is due.
    const pass = (at: Date) => tagDueJobs(db.pool, { lane: 'default', limit: 1, tenantsPerPass: 1000, at });
    expect((await pass(later(runAt, -1))).tagged).toBe(1);
    expect((await pass(runAt)).tagged).toBe(2);
  });

  it('frees a slot at the instant its lease ends, defers from the instant, and cancels at it', async () => {
    const tenant = await createTenantWithKey(db.pool, 'one-slot', { maxConcurrency: 1 });
    const [first] = await insertDueJobs(db.pool, { tenantId: tenant.id, target });
    const at = later(await databaseNow(db.pool), 5_000);
    const claimed = await claimDue(db.pool, { at, leaseSeconds: 30 });
    expect(claimed.jobs.map((j) => j.id)).toEqual([first]);
    expect(await slotExpiry(first!)).toEqual(later(at, 30_000));

    // The slot is held until at + 30 s: a second job is deferred by 1 s from the instant.
    const [second] = await insertDueJobs(db.pool, { tenantId: tenant.id, target });
    const held = later(at, 29_000);
    expect(await claimDue(db.pool, { at: held, deferMs: 1_000 })).toMatchObject({ locked: 1, deferred: 1 });
    expect(await jobRow(second!)).toMatchObject({ state: 'pending', run_at: later(held, 1_000) });
    // Past the slot's lease (the first call's executor is gone), the slot is free again.
    const free = later(at, 31_000);
    expect((await claimDue(db.pool, { at: free })).jobs.map((j) => j.id)).toEqual([second]);

    // A job whose cancel was requested is cancelled by the claim, at the instant.
    const [cancelled] = await insertDueJobs(db.pool, { tenantId: tenant.id, target });
    await db.pool.query('UPDATE jobs SET cancel_requested = 1 WHERE id = ?', [idToBin(cancelled!)]);
    expect(await claimDue(db.pool, { at: free })).toMatchObject({ cancelled: 1 });
    expect(await jobRow(cancelled!)).toMatchObject({ state: 'cancelled', finished_at: free });
  });

  it('renews leases and their slots from the instant', async () => {
    const tenant = await createTenantWithKey(db.pool, 'limited', { maxConcurrency: 5 });
    await insertDueJobs(db.pool, { tenantId: tenant.id, target });
    const at = await databaseNow(db.pool);
    const [job] = (await claimDue(db.pool, { at, leaseSeconds: 30 })).jobs as [ClaimedJob];
    const renewedAt = later(at, 20_000);
    const report = await renewClaimLeases(db.pool, {
      owner: job.owner,
      leaseSeconds: 45,
      held: [job],
      at: renewedAt,
    });
    expect(report).toEqual({ lost: [], cancelRequested: [] });
    expect((await jobRow(job.id)).lease_expires_at).toEqual(later(renewedAt, 45_000));
    expect(await slotExpiry(job.id)).toEqual(later(renewedAt, 45_000));
  });
});

describe('the outcome batch at a stepped instant', () => {
  it('writes every time of its ends, retries and parks from the instant', async () => {
    const tenant = await createTenantWithKey(db.pool);
    await insertDueJobs(db.pool, { tenantId: tenant.id, target }, 4);
    const claimedAt = await databaseNow(db.pool);
    const [ok, retry, parked, dead] = (await claimDue(db.pool, { at: claimedAt, leaseSeconds: 1 })).jobs as [
      ClaimedJob,
      ClaimedJob,
      ClaimedJob,
      ClaimedJob,
    ];
    const at = later(claimedAt, 7_000);

    // Without a park: the plain attempt rows (outcome-attempts.sql), a finish and an apply.
    const plain: OutcomeWrite[] = [
      { job: ok, transition: { to: 'succeeded', lastStatus: 200, lastError: null }, attempt: attempt(200) },
      {
        job: retry,
        transition: { to: 'retry', lastStatus: 503, lastError: 'HTTP 503', delayMs: 2_000 },
        attempt: attempt(503),
      },
    ];
    expect(await recordOutcomes(db.pool, plain, undefined, at)).toEqual([]);
    expect(await jobRow(ok.id)).toMatchObject({ state: 'succeeded', finished_at: at, updated_at: at });
    expect(await jobRow(retry.id)).toMatchObject({
      state: 'pending',
      run_at: later(at, 2_000),
      updated_at: at,
    });
    expect(await attemptEnd(ok.id, 1)).toEqual(at);
    expect(await attemptEnd(retry.id, 1)).toEqual(at);

    // With a park: outcome-attempts-parked.sql; the park's heartbeat timeout and deadline.
    const withPark: OutcomeWrite[] = [
      {
        job: parked,
        transition: { to: 'parked', lastStatus: 202, heartbeatSeconds: 10, deadlineSeconds: 100 },
        attempt: attempt(202),
      },
      {
        job: dead,
        transition: { to: 'dead', lastStatus: 404, lastError: 'HTTP 404' },
        attempt: attempt(404),
      },
    ];
    expect(await recordOutcomes(db.pool, withPark, undefined, at)).toEqual([]);
    const p = await jobRow(parked.id);
    expect(p).toMatchObject({ state: 'running', deadline_at: later(at, 100_000), finished_at: null });
    // The claim's lease (claimedAt + 1 s) ended before the heartbeat timeout: the timeout stands.
    expect(p.lease_expires_at).toEqual(later(at, 10_000));
    expect(await attemptEnd(parked.id, 1)).toBeNull();
    expect(await jobRow(dead.id)).toMatchObject({ state: 'dead', finished_at: at });
    expect(await attemptEnd(dead.id, 1)).toEqual(at);
  });
});
