import type { ClaimedJob } from '@dsched/domain';
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

// Flow control in the claim on real MariaDB: a key's parallelism and rate hold across claimers,
// over-limit jobs are deferred (not failed, no attempt spent), keys are per tenant.

const db = useTestDatabase(import.meta.url);
const target = { url: 'http://127.0.0.1:9/' };

beforeEach(async () => {
  await clearJobs(db.fixtures);
  await db.fixtures.query('DELETE FROM flow_keys');
  await db.fixtures.query('DELETE FROM flow_holds');
});

async function rows(sql: string, params: unknown[] = []): Promise<RowDataPacket[]> {
  const [r] = await db.pool.query<RowDataPacket[]>(sql, params);
  return r;
}

async function keyed(
  tenantId: string,
  n: number,
  key: string,
  parallelism: number | null,
  rate: number | null,
) {
  const ids = await insertDueJobs(db.pool, { tenantId, target }, n);
  await db.fixtures.query(
    'UPDATE jobs SET flow_key = ?, flow_parallelism = ?, flow_rate = ? WHERE id IN (?)',
    [key, parallelism, rate, ids.map(idToBin)],
  );
  return ids;
}

const claim = (owner: string, limit = 20) => claimDue(db.pool, { limit, owner, flowDeferMs: 30_000 });
const dueAgain = () =>
  db.fixtures.query("UPDATE jobs SET run_at = NOW(3) - INTERVAL 1 SECOND WHERE state = 'pending'");

describe('flow control in the claim', () => {
  it('holds a key to its parallelism across concurrent claimers; the rest wait, their attempts unspent', async () => {
    const t = await createTenantWithKey(db.pool);
    await keyed(t.id, 40, 'endpoint', 3, null);
    // The first claim sees a new key: it creates the key's row and defers.
    const first = await claim('a');
    expect(first.jobs).toHaveLength(0);
    expect(first.flowDeferred).toBe(20);
    await dueAgain();
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => claim(`e${i}`, 8)));
    expect(results.flatMap((r) => r.jobs)).toHaveLength(3);
    const pending = await rows("SELECT COUNT(*) AS n, MAX(attempt) AS a FROM jobs WHERE state = 'pending'");
    expect(Number(pending[0]!.n)).toBe(37);
    expect(Number(pending[0]!.a)).toBe(0);
    // One call ends: one more may start.
    const [done] = results.flatMap((r) => r.jobs);
    await recordOutcomes(db.pool, [
      {
        job: done!,
        transition: { to: 'succeeded', lastStatus: 200, lastError: null },
        attempt: { status: 200, errorClass: null, error: null, durationMs: 1 },
      },
    ]);
    await dueAgain();
    expect((await claim('b')).jobs).toHaveLength(1);
  });

  it('spaces a rate-limited key’s claims and defers the others to the key’s next start', async () => {
    const t = await createTenantWithKey(db.pool);
    await keyed(t.id, 10, 'slow', null, 2);
    await claim('a');
    await dueAgain();
    const r = await claim('b');
    expect(r.jobs).toHaveLength(1);
    expect(r.flowDeferred).toBe(9);
    const [next] = await rows(
      "SELECT MIN(run_at) AS at, (SELECT tat FROM flow_keys) AS tat FROM jobs WHERE state = 'pending'",
    );
    expect(String(next!.at)).toBe(String(next!.tat));
    expect((await claim('c')).jobs).toHaveLength(0);
  });

  it('keeps keys per tenant: the same key name of another tenant has its own limit', async () => {
    const a = await createTenantWithKey(db.pool);
    const b = await createTenantWithKey(db.pool);
    await keyed(a.id, 5, 'shared-name', 1, null);
    await keyed(b.id, 5, 'shared-name', 1, null);
    await claim('x');
    await dueAgain();
    const r = await claim('y');
    expect(r.jobs.map((j) => j.tenantId).sort()).toEqual([a.id, b.id].sort());
  });

  it('leaves jobs without a key alone', async () => {
    const t = await createTenantWithKey(db.pool);
    await keyed(t.id, 5, 'k', 1, null);
    await insertDueJobs(db.pool, { tenantId: t.id, target }, 5);
    const r = await claim('a');
    expect(r.jobs).toHaveLength(5);
    expect(r.flowDeferred).toBe(5);
  });
});

describe('flow holds (a key’s calls in flight, counted from its holds on the global keyspace)', () => {
  it('a hold lives with its claim’s lease: renewed, it keeps counting; a lost claim’s late outcome leaves its job’s new hold alone', async () => {
    const t = await createTenantWithKey(db.pool);
    const [job, other] = await keyed(t.id, 2, 'endpoint', 1, null);
    await db.pool.query('INSERT INTO flow_keys (tenant_id, flow_key) VALUES (?, ?)', [
      idToBin(t.id),
      'endpoint',
    ]);
    const t0 = (await rows('SELECT NOW(3) AS db_now'))[0]!.db_now as Date;
    const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);
    const claimAt = (seconds: number, owner: string) =>
      claimDue(db.pool, { limit: 5, owner, leaseSeconds: 30, flowDeferMs: 0, at: at(seconds) });
    const holds = async () =>
      (await rows('SELECT job_id, attempt, expires_at FROM flow_holds')).map((h) => [
        (h.job_id as Buffer).equals(idToBin(job!)) ? 'job' : 'other',
        Number(h.attempt),
        (h.expires_at as Date).getTime() - t0.getTime(),
      ]);

    const succeed = (claimed: ClaimedJob, seconds: number) =>
      recordOutcomes(
        db.pool,
        [
          {
            job: claimed,
            transition: { to: 'succeeded', lastStatus: 200, lastError: null },
            attempt: { status: 200, errorClass: null, error: null, durationMs: 1 },
          },
        ],
        undefined,
        at(seconds),
      );

    const [lost] = (await claimAt(0, 'a')).jobs;
    expect(lost).toMatchObject({ id: job, attempt: 1, flowHold: true });
    expect(await holds()).toEqual([['job', 1, 30_000]]);
    // Renewed with its claim's lease at 20 s: at 40 s, past its first lease, it still counts.
    await renewClaimLeases(db.pool, {
      groups: TEST_GROUPS,
      owner: 'a',
      leaseSeconds: 30,
      held: [lost!],
      at: at(20),
    });
    expect(await holds()).toEqual([['job', 1, 50_000]]);
    expect((await claimAt(40, 'b')).jobs).toHaveLength(0);
    await db.fixtures.query("UPDATE jobs SET state = 'succeeded' WHERE id = ?", [idToBin(other!)]);

    // a dies: past its lease the reconciler gives the job back, and c claims it again.
    await inEachGroup((p) => releaseExpiredClaims(db.pool, 10, undefined, at(51), p));
    const [current] = (await claimAt(52, 'c')).jobs;
    expect(current).toMatchObject({ id: job, attempt: 2, flowHold: true });
    expect(await holds()).toEqual([['job', 2, 82_000]]);
    // a's late outcome: its hold is gone already, and c's is left alone.
    const stale = await succeed(lost!, 53);
    expect(stale).toHaveLength(1);
    expect(await holds()).toEqual([['job', 2, 82_000]]);
    await keyed(t.id, 1, 'endpoint', 1, null);
    expect((await claimAt(54, 'd')).jobs).toHaveLength(0);
    // c's outcome frees its hold once committed: the key has room again.
    await succeed(current!, 55);
    expect(await holds()).toEqual([]);
    expect((await claimAt(56, 'e')).jobs).toHaveLength(1);
  });
});
