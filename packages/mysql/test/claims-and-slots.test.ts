import { createTenantWithKey } from '@dsched/testkit/fixtures';
import { claimDue, clearJobs, insertDueJobs } from '@dsched/testkit/queue';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import type { RowDataPacket } from 'mysql2/promise';
import { beforeEach, describe, expect, it } from 'vitest';
import { idToBin } from '../src/ids.ts';
import { ALL_PARTITIONS } from '../src/jobs/claim/claims.ts';
import { recordOutcomes } from '../src/jobs/outcome/outcomes.ts';
import { releaseExpiredClaims } from '../src/jobs/reconcile/reconcile.ts';
import { updateTenant } from '../src/tenants/tenant-store.ts';
import { explainJobsStatement, jobsSql, planSorts, planTableNodes } from './plans.ts';

// Claims on real MariaDB: the plan of the claim query, tenant concurrency slots taken inside the
// claim, deferral of a saturated tenant's jobs, and cancels that never fire.

const db = useTestDatabase(import.meta.url);
const target = { url: 'http://127.0.0.1:9/' };

beforeEach(() => clearJobs(db.pool));

async function rows(sql: string, params: unknown[] = []): Promise<RowDataPacket[]> {
  const [r] = await db.pool.query<RowDataPacket[]>(sql, params);
  return r;
}

const claim = (owner: string, limit: number) => claimDue(db.pool, { limit, owner, deferMs: 30_000 });

/** One shard's group of partitions when there are two (docs/sharding.md: the even ones on `-80`). */
const SHARD_OF_TWO = ALL_PARTITIONS.filter((p) => p % 2 === 0);

describe('the claim query', () => {
  it('is a range scan of jobs_claim in ORDER BY order: no filesort, nothing not yet due walked', async () => {
    const tenant = await createTenantWithKey(db.pool);
    await insertDueJobs(db.pool, { tenantId: tenant.id, target }, 50);
    // Not yet due, at a higher priority: a ref scan on the lane would walk all of these.
    await insertDueJobs(db.pool, { tenantId: tenant.id, target, priority: 0, runInS: 3600 }, 200);
    await db.pool.query('ANALYZE TABLE jobs');
    // Keyed by a group of partitions (one primary's: all; one shard's of two: the even ones): the
    // key is the index's last column, a filter on its entries, so the ranges and order are the same.
    for (const group of [ALL_PARTITIONS, SHARD_OF_TWO]) {
      const { table, json, filesort } = await explainJobsStatement(db.pool, 'claim-select.sql', [
        'default',
        0,
        group,
        10,
      ]);
      expect(table).toMatchObject({
        key: 'jobs_claim',
        access_type: 'range',
        used_key_parts: ['claim_lane', 'priority', 'run_at'],
        using_index: true,
      });
      expect(filesort, json).toBe(false);
    }
  });

  it("keyed by a group, the claim's other statements keep the plan they had unkeyed: the same index, access and key parts, no filesort", async () => {
    const tenant = await createTenantWithKey(db.pool);
    const due = await insertDueJobs(db.pool, { tenantId: tenant.id, target }, 50);
    await insertDueJobs(db.pool, { tenantId: tenant.id, target, priority: 0, runInS: 3600 }, 200);
    // Some running, as the lease renewal, its check and the cancel watch find them.
    await claim('e', 20);
    await db.pool.query('ANALYZE TABLE jobs');
    const ids = due.slice(0, 10).map(idToBin);
    const now = new Date();
    const planOf = async (sql: string, params: unknown[]) => {
      const [p] = await db.pool.query<RowDataPacket[]>(`EXPLAIN FORMAT=JSON ${sql}`, params);
      const json = String(p[0]!.EXPLAIN);
      const table = planTableNodes(JSON.parse(json)).get('jobs')!;
      return {
        json,
        filesort: planSorts(JSON.parse(json)),
        key: table.key,
        access: table.access_type,
        parts: table.used_key_parts,
      };
    };
    for (const group of [ALL_PARTITIONS, SHARD_OF_TWO]) {
      const cases: [string, unknown[]][] = [
        ['claim-probe.sql', ['default', 0, group]],
        ['claim-select-after.sql', ['default', 0, group, 2, now, 2, now, ids[0], [3], 10]],
        ['claim-read.sql', [ids, group]],
        ['claim-update.sql', ['e', now, 60, ids, group]],
        ['claim-defer.sql', [1000, ids, group]],
        ['claim-cancel.sql', [ids, group]],
        ['claim-cancel-requested.sql', [ids, 'e', group]],
        ['claim-lease-renew.sql', [60, ids.map((id) => [id, 1]), 'e', group]],
        ['claim-lease-check.sql', [ids.map((id) => [id, 1]), 'e', group]],
      ];
      for (const [file, params] of cases) {
        const keyed = jobsSql(file);
        // The same statement with its key a no-op (its placeholder kept): the plan it had unkeyed.
        const unkeyed = keyed.replace('`partition` IN (?)', '(`partition` IN (?) OR 1)');
        expect(unkeyed, file).not.toBe(keyed);
        const [k, u] = [await planOf(keyed, params), await planOf(unkeyed, params)];
        expect({ key: k.key, access: k.access, parts: k.parts }, `${file}: ${k.json}`).toEqual({
          key: u.key,
          access: u.access,
          parts: u.parts,
        });
        expect(k.key, `${file}: ${k.json}`).toBeTruthy();
        expect(k.filesort, `${file}: ${k.json}`).toBe(false);
      }
    }
  });

  it('resumes after its cursor: the rest of that priority, then the lower ones, never what is before it', async () => {
    const tenant = await createTenantWithKey(db.pool);
    const p2: string[] = [];
    for (const runInS of [-6, -5, -4, -3]) {
      p2.push(...(await insertDueJobs(db.pool, { tenantId: tenant.id, target, runInS }, 2)).sort());
    }
    const p3 = await insertDueJobs(db.pool, { tenantId: tenant.id, target, priority: 3, runInS: -10 }, 2);

    const first = await claim('a', 3);
    expect(first.jobs.map((j) => j.id)).toEqual(p2.slice(0, 3));
    expect(first.locked).toBe(3);
    // Between the claims: a job of a higher priority becomes due; a resumed claim does not see it.
    const [urgent] = await insertDueJobs(db.pool, { tenantId: tenant.id, target, priority: 1 }, 1);
    const resumed = await claimDue(db.pool, { limit: 20, owner: 'a', after: first.cursor });
    expect(resumed.jobs.map((j) => j.id)).toEqual([...p2.slice(3), ...p3.sort()]);
    // From the head again, the job that arrived behind the cursor is taken.
    expect((await claim('a', 20)).jobs.map((j) => j.id)).toEqual([urgent]);
  });
});

describe('the claim and the tenants table', () => {
  it('reads the tenant without locking it: a tenant row held elsewhere does not hide its jobs', async () => {
    const tenant = await createTenantWithKey(db.pool, 'limited', { maxConcurrency: 3 });
    await insertDueJobs(db.pool, { tenantId: tenant.id, target }, 2);
    const holder = await db.pool.getConnection();
    try {
      await holder.beginTransaction();
      await holder.query('SELECT id FROM tenants WHERE id = ? FOR UPDATE', [idToBin(tenant.id)]);
      const result = await claim('a', 10);
      expect(result.jobs).toHaveLength(2);
      expect(result.jobs[0]!.signingSecret).toBe(tenant.signingSecret);
    } finally {
      await holder.rollback();
      holder.release();
    }
  });
});

describe('tenant concurrency in the claim', () => {
  it('claims a limited tenant’s jobs only into free slots and defers the rest past other tenants', async () => {
    const limited = await createTenantWithKey(db.pool, 'limited', { maxConcurrency: 2 });
    const open = await createTenantWithKey(db.pool);
    const limitedJobs = await insertDueJobs(db.pool, { tenantId: limited.id, target }, 5);
    const openJobs = await insertDueJobs(db.pool, { tenantId: open.id, target }, 3);

    const first = await claim('a', 10);
    const claimedIds = first.jobs.map((j) => j.id);
    expect(claimedIds.filter((id) => limitedJobs.includes(id))).toHaveLength(2);
    expect(claimedIds.filter((id) => openJobs.includes(id)).sort()).toEqual([...openJobs].sort());
    expect(first.deferred).toBe(3);
    expect(first.jobs.filter((j) => j.tenantId === limited.id).map((j) => j.tenantSlot)).toEqual([0, 1]);
    expect(first.jobs.filter((j) => j.tenantId === open.id).every((j) => j.tenantSlot === null)).toBe(true);

    // The deferred jobs moved later, so the next claim does not find them; the slots are held.
    expect((await claim('b', 10)).jobs).toHaveLength(0);
    const held = await rows(
      'SELECT COUNT(*) AS n FROM tenant_slots WHERE tenant_id = ? AND job_id IS NOT NULL',
      [idToBin(limited.id)],
    );
    expect(Number(held[0]!.n)).toBe(2);
  });

  it('never hands out more slots than the limit to many concurrent claimers', async () => {
    const limited = await createTenantWithKey(db.pool, 'limited', { maxConcurrency: 3 });
    await insertDueJobs(db.pool, { tenantId: limited.id, target }, 40);
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => claim(`e${i}`, 5)));
    const claimed = results.flatMap((r) => r.jobs);
    expect(claimed).toHaveLength(3);
    expect(new Set(claimed.map((j) => j.tenantSlot))).toEqual(new Set([0, 1, 2]));
    const running = await rows("SELECT COUNT(*) AS n FROM jobs WHERE state = 'running'");
    expect(Number(running[0]!.n)).toBe(3);
  });

  it('frees a slot when its outcome is written, and when its holder’s lease runs out', async () => {
    const limited = await createTenantWithKey(db.pool, 'limited', { maxConcurrency: 1 });
    await insertDueJobs(db.pool, { tenantId: limited.id, target }, 3);
    const [first] = (await claim('a', 5)).jobs;
    await db.pool.query("UPDATE jobs SET run_at = NOW(3) - INTERVAL 1 SECOND WHERE state = 'pending'");
    expect((await claim('b', 5)).jobs).toHaveLength(0);

    await recordOutcomes(db.pool, [
      {
        job: first!,
        transition: { to: 'succeeded', lastStatus: 200, lastError: null },
        attempt: { status: 200, errorClass: null, error: null, durationMs: 3 },
      },
    ]);
    await db.pool.query("UPDATE jobs SET run_at = NOW(3) - INTERVAL 1 SECOND WHERE state = 'pending'");
    const [second] = (await claim('b', 5)).jobs;
    expect(second?.tenantSlot).toBe(0);

    // Its executor dies: the slot's lease runs out with the claim's, and the slot is free again.
    await db.pool.query('UPDATE tenant_slots SET expires_at = NOW(3) - INTERVAL 1 SECOND');
    await db.pool.query("UPDATE jobs SET run_at = NOW(3) - INTERVAL 1 SECOND WHERE state = 'pending'");
    const [third] = (await claim('c', 5)).jobs;
    expect(third?.tenantSlot).toBe(0);
  });

  it('follows a changed limit: more slots when raised, none past it when lowered', async () => {
    const tenant = await createTenantWithKey(db.pool, 'limited', { maxConcurrency: 1 });
    await insertDueJobs(db.pool, { tenantId: tenant.id, target }, 6);
    await updateTenant(db.pool, tenant.id, { maxConcurrency: 4 });
    expect((await claim('a', 10)).jobs).toHaveLength(4);
    await db.pool.query("UPDATE jobs SET state = 'succeeded' WHERE state = 'running'");
    await db.pool.query('UPDATE tenant_slots SET job_id = NULL, attempt = NULL, expires_at = NULL');
    await updateTenant(db.pool, tenant.id, { maxConcurrency: 1 });
    const slots = await rows('SELECT slot FROM tenant_slots WHERE tenant_id = ?', [idToBin(tenant.id)]);
    expect(slots.map((s) => Number(s.slot))).toEqual([0]);
    await db.pool.query("UPDATE jobs SET run_at = NOW(3) - INTERVAL 1 SECOND WHERE state = 'pending'");
    expect((await claim('b', 10)).jobs).toHaveLength(1);
  });

  it('keeps the slots of running calls through a lowered and raised limit', async () => {
    const tenant = await createTenantWithKey(db.pool, 'limited', { maxConcurrency: 3 });
    await insertDueJobs(db.pool, { tenantId: tenant.id, target }, 6);
    expect((await claim('a', 10)).jobs).toHaveLength(3);
    await updateTenant(db.pool, tenant.id, { maxConcurrency: 1 });
    await updateTenant(db.pool, tenant.id, { maxConcurrency: 3 });
    await db.pool.query("UPDATE jobs SET run_at = NOW(3) - INTERVAL 1 SECOND WHERE state = 'pending'");
    // the three calls still run, so the raised limit of three has no slot free
    expect((await claim('b', 10)).jobs).toHaveLength(0);
  });

  it('never takes a slot past a lowered limit, even once the call that held it ended', async () => {
    const tenant = await createTenantWithKey(db.pool, 'limited', { maxConcurrency: 3 });
    await insertDueJobs(db.pool, { tenantId: tenant.id, target }, 6);
    const running = (await claim('a', 10)).jobs;
    expect(running).toHaveLength(3);
    // lowered while slots 1 and 2 are held: those rows stay until their calls end
    await updateTenant(db.pool, tenant.id, { maxConcurrency: 1 });
    await recordOutcomes(
      db.pool,
      running.map((job) => ({
        job,
        transition: { to: 'succeeded' as const, lastStatus: 200, lastError: null },
        attempt: { status: 200, errorClass: null, error: null, durationMs: 3 },
      })),
    );
    await db.pool.query("UPDATE jobs SET run_at = NOW(3) - INTERVAL 1 SECOND WHERE state = 'pending'");
    expect((await claim('b', 10)).jobs.map((j) => j.tenantSlot)).toEqual([0]);
  });

  it('a lost claim’s late outcome leaves alone the slot its job’s new claim holds', async () => {
    const tenant = await createTenantWithKey(db.pool, 'limited', { maxConcurrency: 1 });
    await insertDueJobs(db.pool, { tenantId: tenant.id, target }, 1);
    const [lost] = (await claim('a', 1)).jobs;
    // a dies: its claim and slot expire, the reconciler gives the job back, b claims it again
    await db.pool.query('UPDATE jobs SET lease_expires_at = NOW(3) - INTERVAL 1 SECOND');
    await db.pool.query('UPDATE tenant_slots SET expires_at = NOW(3) - INTERVAL 1 SECOND');
    await releaseExpiredClaims(db.pool, 10);
    const [current] = (await claim('b', 1)).jobs;
    expect(current).toMatchObject({ id: lost!.id, attempt: 2, tenantSlot: 0 });
    await recordOutcomes(db.pool, [
      {
        job: lost!,
        transition: { to: 'succeeded', lastStatus: 200, lastError: null },
        attempt: { status: 200, errorClass: null, error: null, durationMs: 3 },
      },
    ]);
    const held = await rows(
      'SELECT slot, attempt FROM tenant_slots WHERE tenant_id = ? AND job_id IS NOT NULL',
      [idToBin(tenant.id)],
    );
    expect(held.map((s) => [Number(s.slot), Number(s.attempt)])).toEqual([[0, 2]]);
    await insertDueJobs(db.pool, { tenantId: tenant.id, target }, 1);
    expect((await claim('c', 10)).jobs).toHaveLength(0);
  });
});

describe('cancelled jobs in the claim', () => {
  it('cancels a pending job whose cancel was requested instead of claiming it', async () => {
    const tenant = await createTenantWithKey(db.pool);
    const [cancelled, normal] = await insertDueJobs(db.pool, { tenantId: tenant.id, target }, 2);
    await db.pool.query('UPDATE jobs SET cancel_requested = 1 WHERE id = ?', [idToBin(cancelled!)]);
    const result = await claim('a', 10);
    expect(result.jobs.map((j) => j.id)).toEqual([normal]);
    expect(result.cancelled).toBe(1);
    const [row] = await rows('SELECT state, attempt FROM jobs WHERE id = ?', [idToBin(cancelled!)]);
    expect(row).toMatchObject({ state: 'cancelled', attempt: 0 });
    // Its trace is not sampled (insertJobs' own context): no traced end for a span.
    expect(result.ended).toBeUndefined();
  });

  it('hands the cancels in a sampled trace back for their spans, with the stored context', async () => {
    const tenant = await createTenantWithKey(db.pool);
    const [cancelled] = await insertDueJobs(db.pool, { tenantId: tenant.id, target }, 1);
    const stored = `${'ab'.repeat(16)}${'cd'.repeat(8)}01`;
    await db.pool.query('UPDATE jobs SET cancel_requested = 1, trace_context = UNHEX(?) WHERE id = ?', [
      stored,
      idToBin(cancelled!),
    ]);
    const result = await claim('a', 10);
    expect(result.cancelled).toBe(1);
    expect(result.ended).toEqual([
      {
        id: cancelled,
        attempt: 0,
        state: 'cancelled',
        lane: 'default',
        trace: { traceId: 'ab'.repeat(16), spanId: 'cd'.repeat(8), sampled: true },
      },
    ]);
  });
});

describe('a crash between the claim’s steps (docs/sharding.md)', () => {
  it('leaves slots and flow holds that keep a tenant and a key under their limits, never over, until they expire with the lease', async () => {
    const limited = await createTenantWithKey(db.pool, 'limited', { maxConcurrency: 2 });
    const keyed = await createTenantWithKey(db.pool);
    await insertDueJobs(db.pool, { tenantId: limited.id, target }, 4);
    const flowJobs = await insertDueJobs(db.pool, { tenantId: keyed.id, target }, 4);
    await db.pool.query('UPDATE jobs SET flow_key = ?, flow_parallelism = 2 WHERE id IN (?)', [
      'endpoint',
      flowJobs.map(idToBin),
    ]);
    await db.pool.query('INSERT IGNORE INTO flow_keys (tenant_id, flow_key) VALUES (?, ?)', [
      idToBin(keyed.id),
      'endpoint',
    ]);
    const t0 = (await rows('SELECT NOW(3) AS db_now'))[0]!.db_now as Date;
    const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);
    const claimAt = (seconds: number, afterHolds?: () => Promise<void>) =>
      claimDue(db.pool, {
        limit: 10,
        owner: `e${seconds}`,
        leaseSeconds: 30,
        deferMs: 0,
        flowDeferMs: 0,
        at: at(seconds),
        ...(afterHolds ? { afterHolds } : {}),
      });
    const running = async () =>
      (await rows("SELECT tenant_id FROM jobs WHERE state = 'running'")).map((r) =>
        (r.tenant_id as Buffer).equals(idToBin(limited.id)) ? 'limited' : 'keyed',
      );

    // Step 2 commits its slots and holds, then the claimer dies before step 3 commits.
    await expect(claimAt(0, () => Promise.reject(new Error('crash between the steps')))).rejects.toThrow(
      'crash between the steps',
    );
    const slots = await rows(
      'SELECT attempt, expires_at FROM tenant_slots WHERE tenant_id = ? AND job_id IS NOT NULL',
      [idToBin(limited.id)],
    );
    expect(slots.map((s) => [Number(s.attempt), (s.expires_at as Date).getTime()])).toEqual([
      [1, at(30).getTime()],
      [1, at(30).getTime()],
    ]);
    const holds = await rows('SELECT attempt, expires_at FROM flow_holds WHERE tenant_id = ?', [
      idToBin(keyed.id),
    ]);
    expect(holds.map((h) => [Number(h.attempt), (h.expires_at as Date).getTime()])).toEqual([
      [1, at(30).getTime()],
      [1, at(30).getTime()],
    ]);
    // No attempt started: every job is pending at attempt 0, none running.
    const jobs = await rows('SELECT state, attempt FROM jobs');
    expect(jobs.every((j) => j.state === 'pending' && Number(j.attempt) === 0)).toBe(true);

    // Within the lease the orphaned slots and holds count: the tenant and the key run under their
    // limits (here nothing), never over them.
    const during = await claimAt(10);
    expect(during.jobs).toHaveLength(0);
    expect(during.deferred).toBe(4);
    expect(during.flowDeferred).toBe(4);
    expect(await running()).toEqual([]);

    // Past the lease they count no more: each limit is taken again, exactly.
    const after = await claimAt(31);
    expect(after.jobs.filter((j) => j.tenantId === limited.id)).toHaveLength(2);
    expect(after.jobs.filter((j) => j.tenantId === keyed.id)).toHaveLength(2);
    expect((await running()).sort()).toEqual(['keyed', 'keyed', 'limited', 'limited']);
    // The expired holds are gone (replaced or deleted): the key's holds are its two calls.
    const live = await rows('SELECT attempt, expires_at FROM flow_holds WHERE tenant_id = ?', [
      idToBin(keyed.id),
    ]);
    expect(live.map((h) => (h.expires_at as Date).getTime())).toEqual([at(61).getTime(), at(61).getTime()]);
    expect(after.jobs.filter((j) => j.tenantId === keyed.id).every((j) => j.flowHold === true)).toBe(true);
    expect(after.jobs.filter((j) => j.tenantId === limited.id).every((j) => j.flowHold === undefined)).toBe(
      true,
    );
  });
});
