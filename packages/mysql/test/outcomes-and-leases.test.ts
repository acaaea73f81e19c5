import { type ClaimedJob, decideOutcome, type OutcomeWrite } from '@dsched/domain';
import { createTenantWithKey } from '@dsched/testkit/fixtures';
import { inEachGroup, TEST_GROUPS } from '@dsched/testkit/mysql';
import { claimDue, clearJobs, insertDueJobs } from '@dsched/testkit/queue';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import type { RowDataPacket } from 'mysql2/promise';
import { beforeEach, describe, expect, it } from 'vitest';
import { idToBin } from '../src/ids.ts';
import { renewClaimLeases } from '../src/jobs/claim/claim-leases.ts';
import { recordOutcomes } from '../src/jobs/outcome/outcomes.ts';
import { releaseExpiredClaims } from '../src/jobs/reconcile/reconcile.ts';

// Outcome batches, lease renewal and give-backs on real MariaDB: every write fenced by attempt.

const db = useTestDatabase(import.meta.url);
const target = { url: 'http://127.0.0.1:9/' };

beforeEach(() => clearJobs(db.fixtures));

async function job(id: string): Promise<RowDataPacket> {
  const [r] = await db.pool.query<RowDataPacket[]>(
    `SELECT state, attempt, max_attempts, last_status, last_error, claimed_by, lease_expires_at,
            deadline_at, finished_at, run_at > NOW(3) + INTERVAL 30 SECOND AS later
       FROM jobs WHERE id = ?`,
    [idToBin(id)],
  );
  return r[0]!;
}

async function attemptRow(id: string, attempt: number): Promise<RowDataPacket> {
  const [r] = await db.pool.query<RowDataPacket[]>(
    'SELECT status, error_class, finished_at, duration_ms FROM job_attempts WHERE job_id = ? AND attempt = ?',
    [idToBin(id), attempt],
  );
  return r[0]!;
}

const claim = async (owner: string, limit = 10): Promise<ClaimedJob[]> =>
  (await claimDue(db.pool, { limit, owner })).jobs;

const attempt = (status: number | null, errorClass: string | null = null) => ({
  status,
  errorClass,
  error: errorClass,
  durationMs: 7,
});

describe('a batch of outcomes', () => {
  it('applies every kind of transition in one batch, fenced per row, and reports the stale one', async () => {
    const tenant = await createTenantWithKey(db.pool, 'limited', { maxConcurrency: 10 });
    await insertDueJobs(db.pool, { tenantId: tenant.id, target }, 6);
    const jobs = await claim('exec-a');
    expect(jobs).toHaveLength(6);
    const [ok, retry, dead, parked, givenBack, stale] = jobs as [ClaimedJob, ...ClaimedJob[]];
    // The sixth claim was lost meanwhile (its lease expired and it was claimed again).
    await db.fixtures.query('UPDATE jobs SET attempt = attempt + 1 WHERE id = ?', [idToBin(stale!.id)]);

    const writes: OutcomeWrite[] = [
      { job: ok, transition: { to: 'succeeded', lastStatus: 200, lastError: null }, attempt: attempt(200) },
      {
        job: retry!,
        transition: { to: 'retry', lastStatus: 503, lastError: 'HTTP 503', delayMs: 60_000 },
        attempt: attempt(503, 'http_status'),
      },
      {
        job: dead!,
        transition: { to: 'dead', lastStatus: 404, lastError: 'HTTP 404' },
        attempt: attempt(404, 'http_status'),
      },
      {
        job: parked!,
        transition: { to: 'parked', lastStatus: 202, heartbeatSeconds: 300, deadlineSeconds: 3600 },
        attempt: attempt(202),
      },
      {
        job: givenBack!,
        transition: { to: 'give_back', lastError: 'given back' },
        attempt: attempt(null, 'given_back'),
      },
      {
        job: stale!,
        transition: { to: 'succeeded', lastStatus: 200, lastError: null },
        attempt: attempt(200),
      },
    ];
    const lost = await recordOutcomes(db.pool, writes);
    expect(lost).toEqual([writes[5]]);

    expect(await job(ok.id)).toMatchObject({ state: 'succeeded', last_status: 200, claimed_by: null });
    expect(await job(retry!.id)).toMatchObject({ state: 'pending', later: 1, finished_at: null });
    expect(await job(dead!.id)).toMatchObject({ state: 'dead', last_error: 'HTTP 404' });
    const p = await job(parked!.id);
    // Parked: no executor; its lease is now the heartbeat timeout, and it must complete by deadline_at.
    expect(p).toMatchObject({ state: 'running', claimed_by: null, last_status: 202 });
    expect((p.deadline_at as Date).getTime()).toBeGreaterThan((p.lease_expires_at as Date).getTime());
    expect(await job(givenBack!.id)).toMatchObject({
      state: 'pending',
      max_attempts: 4,
      attempt: 1,
      later: 0,
    });
    expect(await job(stale!.id)).toMatchObject({ state: 'running', attempt: 2 });

    // Attempt rows: closed, except the parked one, which waits for its completion.
    expect((await attemptRow(ok.id, 1)).finished_at).not.toBeNull();
    expect(await attemptRow(parked!.id, 1)).toMatchObject({ status: 202, finished_at: null });
    expect(await attemptRow(givenBack!.id, 1)).toMatchObject({ error_class: 'given_back' });
    // Every slot was freed: each holder's call has ended, whatever became of its job row.
    const [held] = await db.pool.query<RowDataPacket[]>(
      'SELECT COUNT(*) AS n FROM tenant_slots WHERE job_id IS NOT NULL',
    );
    expect(Number(held[0]!.n)).toBe(0);
  });

  it('drops a late retry, park or give-back of a lost claim and leaves the new claim running', async () => {
    // The fast path: every stale job is running again under a new claim, so the row count of the
    // fenced update matches the batch and only the attempt in its join tells the claims apart.
    const tenant = await createTenantWithKey(db.pool, 'limited', { maxConcurrency: 10 });
    await insertDueJobs(db.pool, { tenantId: tenant.id, target }, 3);
    const lostClaims = await claim('exec-a');
    expect(lostClaims).toHaveLength(3);
    await db.fixtures.query('UPDATE jobs SET lease_expires_at = NOW(3) - INTERVAL 1 SECOND');
    expect(await inEachGroup((p) => releaseExpiredClaims(db.pool, 10, undefined, null, p))).toEqual({
      released: 3,
      dead: 0,
    });
    const current = await claim('exec-b');
    expect(current.map((j) => j.attempt)).toEqual([2, 2, 2]);
    const before = await Promise.all(current.map((j) => job(j.id)));

    const [retry, parked, givenBack] = lostClaims as [ClaimedJob, ClaimedJob, ClaimedJob];
    const writes: OutcomeWrite[] = [
      {
        job: retry,
        transition: { to: 'retry', lastStatus: 503, lastError: 'late retry', delayMs: 60_000 },
        attempt: attempt(503, 'http_status'),
      },
      {
        job: parked,
        transition: { to: 'parked', lastStatus: 202, heartbeatSeconds: 300, deadlineSeconds: 3600 },
        attempt: attempt(202),
      },
      {
        job: givenBack,
        transition: { to: 'give_back', lastError: 'late give-back' },
        attempt: attempt(null),
      },
    ];
    expect(await recordOutcomes(db.pool, writes)).toEqual(writes);
    for (const [i, j] of current.entries()) {
      expect(await job(j.id)).toEqual(before[i]);
      expect(before[i]).toMatchObject({
        state: 'running',
        attempt: 2,
        claimed_by: 'exec-b',
        max_attempts: 3,
      });
    }
    // The current claims' own outcomes still apply, and their slots are theirs to free.
    expect(
      await recordOutcomes(
        db.pool,
        current.map((j) => ({
          job: j,
          transition: { to: 'retry', lastStatus: 500, lastError: 'HTTP 500', delayMs: 10 },
          attempt: attempt(500),
        })),
      ),
    ).toEqual([]);
    for (const j of current) expect(await job(j.id)).toMatchObject({ state: 'pending', attempt: 2 });
    const [held] = await db.pool.query<RowDataPacket[]>(
      'SELECT COUNT(*) AS n FROM tenant_slots WHERE job_id IS NOT NULL',
    );
    expect(Number(held[0]!.n)).toBe(0);
  });

  it('turns a retry or a park into cancelled when a cancel was requested during the call', async () => {
    const tenant = await createTenantWithKey(db.pool);
    await insertDueJobs(db.pool, { tenantId: tenant.id, target }, 2);
    const [a, b] = (await claim('exec-a')) as [ClaimedJob, ClaimedJob];
    await db.fixtures.query('UPDATE jobs SET cancel_requested = 1');
    await recordOutcomes(db.pool, [
      {
        job: a,
        transition: { to: 'retry', lastStatus: 500, lastError: 'HTTP 500', delayMs: 10 },
        attempt: attempt(500),
      },
      {
        job: b,
        transition: { to: 'parked', lastStatus: 202, heartbeatSeconds: 60, deadlineSeconds: 600 },
        attempt: attempt(202),
      },
    ]);
    expect(await job(a.id)).toMatchObject({ state: 'cancelled' });
    expect(await job(b.id)).toMatchObject({ state: 'cancelled', deadline_at: null, lease_expires_at: null });
    expect((await attemptRow(b.id, 1)).finished_at).not.toBeNull();
  });
});

describe('outcomes of a claim given back by the reconciler', () => {
  it('are dropped: the job, pending again at the same attempt, keeps its state', async () => {
    // Only the state tells these apart: the reconciler moved the job back to pending without a
    // new claim, so the attempt in the fence still matches.
    const tenant = await createTenantWithKey(db.pool);
    await insertDueJobs(db.pool, { tenantId: tenant.id, target }, 2);
    const [done, retried] = (await claim('exec-a')) as [ClaimedJob, ClaimedJob];
    await db.fixtures.query('UPDATE jobs SET lease_expires_at = NOW(3) - INTERVAL 1 SECOND');
    expect(await inEachGroup((p) => releaseExpiredClaims(db.pool, 10, undefined, null, p))).toEqual({
      released: 2,
      dead: 0,
    });
    const writes: OutcomeWrite[] = [
      { job: done, transition: { to: 'succeeded', lastStatus: 200, lastError: null }, attempt: attempt(200) },
      {
        job: retried,
        transition: { to: 'retry', lastStatus: 503, lastError: 'late', delayMs: 60_000 },
        attempt: attempt(503),
      },
    ];
    // one batch each: a batch whose fast path matches every row it names is applied as it is
    for (const w of writes) expect(await recordOutcomes(db.pool, [w])).toEqual([w]);
    for (const j of [done, retried]) {
      expect(await job(j.id)).toMatchObject({ state: 'pending', attempt: 1, later: 0, last_status: null });
    }
  });
});

describe('a parked attempt', () => {
  it('of a lost claim is closed even when the job is parked again by the new claim', async () => {
    const tenant = await createTenantWithKey(db.pool);
    await insertDueJobs(db.pool, { tenantId: tenant.id, target });
    const [lost] = await claim('exec-a');
    await db.fixtures.query('UPDATE jobs SET lease_expires_at = NOW(3) - INTERVAL 1 SECOND');
    await inEachGroup((p) => releaseExpiredClaims(db.pool, 10, undefined, null, p));
    const [current] = await claim('exec-b');
    const park = (j: ClaimedJob): OutcomeWrite => ({
      job: j,
      transition: { to: 'parked', lastStatus: 202, heartbeatSeconds: 60, deadlineSeconds: 600 },
      attempt: attempt(202),
    });
    expect(await recordOutcomes(db.pool, [park(current!)])).toEqual([]);
    expect(await recordOutcomes(db.pool, [park(lost!)])).toHaveLength(1);
    // the new claim's attempt waits for its completion; the lost one's never will
    expect((await attemptRow(current!.id, 2)).finished_at).toBeNull();
    expect((await attemptRow(lost!.id, 1)).finished_at).not.toBeNull();
  });
});

describe('lease renewal', () => {
  it('reports lost a claim its own executor took again (a new attempt) and one parked since', async () => {
    // One fence each: the re-claim changes only the attempt, the park only claimed_by.
    const tenant = await createTenantWithKey(db.pool);
    await insertDueJobs(db.pool, { tenantId: tenant.id, target }, 2);
    const [reclaimed, parked] = (await claim('exec-a')) as [ClaimedJob, ClaimedJob];
    await db.fixtures.query('UPDATE jobs SET lease_expires_at = NOW(3) - INTERVAL 1 SECOND WHERE id = ?', [
      idToBin(reclaimed.id),
    ]);
    await inEachGroup((p) => releaseExpiredClaims(db.pool, 10, undefined, null, p));
    const [again] = await claim('exec-a');
    expect(again).toMatchObject({ id: reclaimed.id, attempt: 2 });
    await recordOutcomes(db.pool, [
      {
        job: parked,
        transition: { to: 'parked', lastStatus: 202, heartbeatSeconds: 60, deadlineSeconds: 600 },
        attempt: attempt(202),
      },
    ]);
    const before = await Promise.all([job(reclaimed.id), job(parked.id)]);
    const report = await renewClaimLeases(db.pool, {
      groups: TEST_GROUPS,
      owner: 'exec-a',
      leaseSeconds: 3600,
      held: [reclaimed, parked],
    });
    expect(report.lost.map((c) => c.id).sort()).toEqual([reclaimed.id, parked.id].sort());
    expect(await Promise.all([job(reclaimed.id), job(parked.id)])).toEqual(before);
  });

  it('renews every held claim in one statement and reports the lost and the cancelled', async () => {
    const tenant = await createTenantWithKey(db.pool, 'limited', { maxConcurrency: 5 });
    await insertDueJobs(db.pool, { tenantId: tenant.id, target }, 3);
    const [kept, lost, cancelled] = (await claim('exec-a')) as [ClaimedJob, ClaimedJob, ClaimedJob];
    await db.fixtures.query('UPDATE jobs SET lease_expires_at = NOW(3) + INTERVAL 1 SECOND');
    await db.pool.query('UPDATE tenant_slots SET expires_at = NOW(3) + INTERVAL 1 SECOND');
    await db.fixtures.query("UPDATE jobs SET claimed_by = 'exec-b', attempt = attempt + 1 WHERE id = ?", [
      idToBin(lost.id),
    ]);
    await db.fixtures.query('UPDATE jobs SET cancel_requested = 1 WHERE id = ?', [idToBin(cancelled.id)]);

    const report = await renewClaimLeases(db.pool, {
      groups: TEST_GROUPS,
      owner: 'exec-a',
      leaseSeconds: 120,
      held: [kept, lost, cancelled],
    });
    expect(report.lost.map((c) => c.id)).toEqual([lost.id]);
    expect(report.cancelRequested.map((c) => c.id)).toEqual([cancelled.id]);
    const [r] = await db.pool.query<RowDataPacket[]>(
      'SELECT lease_expires_at > NOW(3) + INTERVAL 100 SECOND AS renewed FROM jobs WHERE id = ?',
      [idToBin(kept.id)],
    );
    expect(Number(r[0]!.renewed)).toBe(1);
    const [s] = await db.pool.query<RowDataPacket[]>(
      'SELECT expires_at > NOW(3) + INTERVAL 100 SECOND AS renewed FROM tenant_slots WHERE job_id = ?',
      [idToBin(kept.id)],
    );
    expect(Number(s[0]!.renewed)).toBe(1);
  });

  it('leaves a claim whose cancel was requested unrenewed, and reports it when nothing else was lost', async () => {
    // The renewal itself must miss it: with every other claim renewed, a renewed cancelled one
    // would make the counts agree and no one would read which claim is being cancelled.
    const tenant = await createTenantWithKey(db.pool);
    await insertDueJobs(db.pool, { tenantId: tenant.id, target }, 2);
    const [kept, cancelled] = (await claim('exec-a')) as [ClaimedJob, ClaimedJob];
    await db.fixtures.query('UPDATE jobs SET lease_expires_at = NOW(3) + INTERVAL 1 SECOND');
    await db.fixtures.query('UPDATE jobs SET cancel_requested = 1 WHERE id = ?', [idToBin(cancelled.id)]);
    const report = await renewClaimLeases(db.pool, {
      groups: TEST_GROUPS,
      owner: 'exec-a',
      leaseSeconds: 120,
      held: [kept, cancelled],
    });
    expect(report).toEqual({ lost: [], cancelRequested: [cancelled] });
    const [r] = await db.pool.query<RowDataPacket[]>(
      'SELECT lease_expires_at > NOW(3) + INTERVAL 100 SECOND AS renewed FROM jobs WHERE id = ?',
      [idToBin(cancelled.id)],
    );
    expect(Number(r[0]!.renewed)).toBe(0);
  });
});

describe('give-backs', () => {
  it('do not count against max attempts: the cap moves up by one, for the executor and the reconciler', async () => {
    const tenant = await createTenantWithKey(db.pool);
    const [id] = await insertDueJobs(db.pool, { tenantId: tenant.id, target, retry: { maxAttempts: 1 } });
    const [first] = await claim('exec-a');
    await recordOutcomes(db.pool, [
      {
        job: first!,
        transition: { to: 'give_back', lastError: 'shutdown' },
        attempt: attempt(null, 'given_back'),
      },
    ]);
    const [second] = await claim('exec-b');
    expect(second).toMatchObject({ attempt: 2, maxAttempts: 2 });
    // The one attempt that counts still gets its decision: a 503 on it is dead, not retried.
    expect(decideOutcome({ kind: 'response', status: 503 }, second!, 0.5).type).toBe('dead');

    // Its executor dies: the expired claim was the one counted attempt, so it goes to the DLQ.
    await db.fixtures.query('UPDATE jobs SET lease_expires_at = NOW(3) - INTERVAL 1 SECOND');
    expect((await inEachGroup((p) => releaseExpiredClaims(db.pool, 10, undefined, null, p))).dead).toBe(1);
    expect(await job(id!)).toMatchObject({ state: 'dead', attempt: 2, max_attempts: 2 });
  });

  it('a job whose cancel was requested and whose claim expired is cancelled at the next claim, not run', async () => {
    const tenant = await createTenantWithKey(db.pool);
    const [id] = await insertDueJobs(db.pool, { tenantId: tenant.id, target });
    await claim('exec-a');
    await db.fixtures.query(
      'UPDATE jobs SET cancel_requested = 1, lease_expires_at = NOW(3) - INTERVAL 1 SECOND',
    );
    await inEachGroup((p) => releaseExpiredClaims(db.pool, 10, undefined, null, p));
    expect(await claim('exec-b')).toEqual([]);
    expect(await job(id!)).toMatchObject({ state: 'cancelled', attempt: 1 });
  });
});
