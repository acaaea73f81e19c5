import { ClaimLostError, dueBatchDecision } from '@dsched/domain';
import { createTask, createTenantWithKey, onceTask } from '@dsched/testkit/fixtures';
import { insertDueJobs } from '@dsched/testkit/queue';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import type { RowDataPacket } from 'mysql2/promise';
import { beforeEach, describe, expect, it } from 'vitest';
import { idToBin } from '../src/ids.ts';
import { claimDueJobs } from '../src/jobs/claim/claims.ts';
import { loadJobRecords } from '../src/jobs/job-records.ts';
import { recordOutcome } from '../src/jobs/outcome/outcomes.ts';
import { releaseExpiredClaims } from '../src/jobs/reconcile/reconcile.ts';
import { materialiseDueBatch } from '../src/scheduler/materialise.ts';
import { archiveRowsFor } from './archive-helpers.ts';

const db = useTestDatabase(import.meta.url);
const target = { url: 'http://127.0.0.1:9/' };
const UNLEASED_PARTITION_0 = {
  scope: { unleased: [0] },
  lookaheadMs: 0,
  limit: 100,
  decide: dueBatchDecision({
    maxJobs: 1000,
    plan: { misfireThresholdMs: 60_000, maxCatchUp: 100, maxPerPass: 100 },
  }),
};

beforeEach(async () => {
  await db.pool.query('DELETE FROM job_attempts');
  await db.pool.query('DELETE FROM jobs');
  await db.pool.query('DELETE FROM tasks');
});

describe('claims', () => {
  it('gives two concurrent claimers disjoint jobs (SKIP LOCKED)', async () => {
    const tenant = await createTenantWithKey(db.pool);
    const ids = await insertDueJobs(db.pool, { tenantId: tenant.id, target }, 200);
    const claimers = Array.from({ length: 8 }, (_, i) =>
      (async () => {
        const mine: string[] = [];
        for (;;) {
          const batch = await claimDueJobs(db.pool, {
            lane: 'default',
            limit: 7,
            owner: `exec-${i}`,
            leaseSeconds: 60,
          });
          if (batch.length === 0) return mine;
          mine.push(...batch.map((j) => j.id));
        }
      })(),
    );
    const results = await Promise.all(claimers);
    const all = results.flat();
    expect(new Set(all).size).toBe(all.length);
    expect(all.sort()).toEqual([...ids].sort());
    const [rows] = await db.pool.query<RowDataPacket[]>(
      "SELECT COUNT(*) AS n FROM jobs WHERE state = 'running' AND attempt = 1",
    );
    expect(Number(rows[0]!.n)).toBe(200);
    // Each claim opened exactly one attempt, held by its claimer (the attempt row is written when
    // it ends; until then the job row is the open attempt).
    const owners = new Map(results.flatMap((mine, i) => mine.map((id) => [id, `exec-${i}`] as const)));
    const records = await loadJobRecords(db.pool, ids);
    expect(records).toHaveLength(200);
    for (const { view } of records) {
      expect(view.attempts).toEqual([
        { attempt: 1, startedAt: expect.any(String), executor: owners.get(view.id) },
      ]);
    }
  });

  it('claims critical before normal and never a job that is not yet due', async () => {
    const tenant = await createTenantWithKey(db.pool);
    const normal = await insertDueJobs(db.pool, { tenantId: tenant.id, target, priority: 2 }, 3);
    const critical = await insertDueJobs(db.pool, { tenantId: tenant.id, target, priority: 0 }, 2);
    await insertDueJobs(db.pool, { tenantId: tenant.id, target, priority: 0, runInS: 60 }, 2);
    const batch = await claimDueJobs(db.pool, { lane: 'default', limit: 10, owner: 'e', leaseSeconds: 60 });
    expect(batch.map((j) => j.id)).toEqual([...critical, ...normal]);
  });
});

describe('fencing', () => {
  it('drops a stale claimant’s outcome and keeps the current one', async () => {
    const tenant = await createTenantWithKey(db.pool);
    const [id] = await insertDueJobs(db.pool, { tenantId: tenant.id, target }, 1);
    const [first] = await claimDueJobs(db.pool, { lane: 'default', limit: 1, owner: 'a', leaseSeconds: 60 });
    // The first claim's lease runs out; the reconciler gives the job back; a second claimant takes it.
    await db.pool.query('UPDATE jobs SET lease_expires_at = NOW(3) - INTERVAL 1 SECOND WHERE id = ?', [
      idToBin(id!),
    ]);
    expect(await releaseExpiredClaims(db.pool, 10)).toEqual({ released: 1, dead: 0 });
    const [second] = await claimDueJobs(db.pool, { lane: 'default', limit: 1, owner: 'b', leaseSeconds: 60 });
    expect(second!.attempt).toBe(2);
    await recordOutcome(
      db.pool,
      second!,
      { to: 'succeeded', lastStatus: 200, lastError: null },
      {
        status: 200,
        errorClass: null,
        error: null,
        durationMs: 5,
      },
    );
    await expect(
      recordOutcome(
        db.pool,
        first!,
        { to: 'dead', lastStatus: 500, lastError: 'late' },
        {
          status: 500,
          errorClass: 'http_status',
          error: 'late',
          durationMs: 5,
        },
      ),
    ).rejects.toBeInstanceOf(ClaimLostError);
    const [rows] = await db.pool.query<RowDataPacket[]>(
      'SELECT state, last_status, attempt FROM jobs WHERE id = ?',
      [idToBin(id!)],
    );
    expect(rows[0]).toMatchObject({ state: 'succeeded', last_status: 200, attempt: 2 });
  });
});

describe('materialisation', () => {
  it('makes one job per occurrence and rejects a second insert of the same key', async () => {
    const tenant = await createTenantWithKey(db.pool);
    const at = new Date(Date.now() - 5_000);
    const task = await createTask(db.pool, onceTask(tenant.id, at));
    const first = await materialiseDueBatch(db.pool, UNLEASED_PARTITION_0);
    expect(first).toMatchObject({ dueTasks: 1, jobsInserted: 1, lostPartitions: [] });
    // Put the task back as if a second scheduler had read it before the first committed.
    await db.pool.query('UPDATE tasks SET next_fire_at = ? WHERE id = ?', [at, idToBin(task.id)]);
    const second = await materialiseDueBatch(db.pool, UNLEASED_PARTITION_0);
    expect(second.dueTasks).toBe(1);
    expect(second.jobsInserted).toBe(0);
    const [rows] = await db.pool.query<RowDataPacket[]>('SELECT occurrence FROM jobs WHERE task_id = ?', [
      idToBin(task.id),
    ]);
    expect(rows.map((r) => r.occurrence)).toEqual([at.toISOString()]);
    await expect(
      db.pool.query(
        `INSERT INTO jobs (id, tenant_id, task_id, occurrence, kind, scheduled_for, priority, lane, state, max_attempts, run_at, target, retry, created_at, updated_at, \`partition\`)
         SELECT UNHEX(REPLACE(UUID(), '-', '')), tenant_id, task_id, occurrence, kind, scheduled_for, priority, lane, state, max_attempts, run_at, target, retry, created_at, updated_at, \`partition\` FROM jobs WHERE task_id = ?`,
        [idToBin(task.id)],
      ),
    ).rejects.toMatchObject({ code: 'ER_DUP_ENTRY' });
    const [task2] = await db.pool.query<RowDataPacket[]>('SELECT next_fire_at FROM tasks WHERE id = ?', [
      idToBin(task.id),
    ]);
    expect(task2[0]!.next_fire_at).toBeNull();
  });
});

describe('archive delete', () => {
  it('deletes a terminal job and its attempts only at the attempt that was archived', async () => {
    const tenant = await createTenantWithKey(db.pool);
    const [id] = await insertDueJobs(db.pool, { tenantId: tenant.id, target }, 1);
    const [claimed] = await claimDueJobs(db.pool, {
      lane: 'default',
      limit: 1,
      owner: 'a',
      leaseSeconds: 60,
    });
    await recordOutcome(
      db.pool,
      claimed!,
      { to: 'succeeded', lastStatus: 200, lastError: null },
      {
        status: 200,
        errorClass: null,
        error: null,
        durationMs: 1,
      },
    );
    const { stale, current } = await archiveRowsFor(db.pool, id!);
    expect(stale).toBe(0);
    expect(current).toBe(2);
  });
});
