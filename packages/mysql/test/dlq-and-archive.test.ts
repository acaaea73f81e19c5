import { allPartitions, DEFAULT_PARTITIONS, firstCursor, newId } from '@dsched/domain';
import { createTenantWithKey, insertJobs } from '@dsched/testkit/fixtures';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import type { Pool, RowDataPacket } from 'mysql2/promise';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { idToBin } from '../src/ids.ts';
import {
  archiverLagSeconds,
  deleteArchivedJobs,
  readyBacklogUpTo,
  selectArchivableJobs,
} from '../src/jobs/archive/archive.ts';
import { redriveJobs, redriveTask } from '../src/jobs/control/redrive.ts';
import { getLiveJob } from '../src/jobs/job-records.ts';
import { liveJobIds, liveTaskRuns, liveTenantJobs } from '../src/jobs/lists/job-lists.ts';
import { jobsSql } from './plans.ts';

const EVERY = allPartitions(DEFAULT_PARTITIONS);

const db = useTestDatabase(import.meta.url);
let tenantId: string;

beforeAll(async () => {
  tenantId = (await createTenantWithKey(db.pool)).id;
});
beforeEach(async () => {
  await db.pool.query('DELETE FROM job_attempts');
  await db.pool.query('DELETE FROM jobs');
});

const ago = (s: number) => new Date(Date.now() - s * 1000);

describe('archivable jobs', () => {
  it('are the oldest finished first; dead ones only after the DLQ retention', async () => {
    const [old, recent, deadOld, deadNew, running] = await insertJobs(db.pool, [
      { tenantId, taskId: null, scheduledFor: ago(500), state: 'succeeded', finishedAt: ago(400) },
      { tenantId, taskId: null, scheduledFor: ago(500), state: 'cancelled', finishedAt: ago(10) },
      { tenantId, taskId: null, scheduledFor: ago(500), state: 'dead', finishedAt: ago(300) },
      { tenantId, taskId: null, scheduledFor: ago(500), state: 'dead', finishedAt: ago(5) },
      { tenantId, taskId: null, scheduledFor: ago(500), state: 'running', leaseExpiresAt: ago(-60) },
    ]);
    const picked = await selectArchivableJobs(db.pool, {
      limit: 10,
      deadRetentionSeconds: 60,
      partitions: EVERY,
    });
    expect(picked.map((r) => r.view.id)).toEqual([old, deadOld, recent]);
    expect(picked.map((r) => r.view.id)).not.toContain(deadNew);
    expect(picked.map((r) => r.view.id)).not.toContain(running);
    expect(
      await selectArchivableJobs(db.pool, { limit: 1, deadRetentionSeconds: 60, partitions: EVERY }),
    ).toHaveLength(1);
    // The dead job waiting since its retention ran out (300 - 60 s ago) is not the oldest: the
    // succeeded one finished 400 s ago.
    const lag = await archiverLagSeconds(db.pool, 60);
    expect(lag).toBeGreaterThan(390);
    expect(lag).toBeLessThan(460);
  });

  it('yield to a ready backlog counted up to a cap: due pending jobs only, not future or running ones', async () => {
    await insertJobs(db.pool, [
      ...Array.from({ length: 5 }, () => ({
        tenantId,
        taskId: null,
        scheduledFor: ago(2),
        state: 'pending' as const,
      })),
      ...Array.from({ length: 4 }, () => ({
        tenantId,
        taskId: null,
        scheduledFor: ago(-60),
        state: 'pending' as const,
      })),
      { tenantId, taskId: null, scheduledFor: ago(2), state: 'running' as const, leaseExpiresAt: ago(-60) },
    ]);
    expect(await readyBacklogUpTo(db.pool, 100)).toBe(5);
    expect(await readyBacklogUpTo(db.pool, 3)).toBe(3);
    // The statement readyBacklogUpTo runs: its read of jobs is a covering scan of jobs_claim.
    const capped = jobsSql('./ready-backlog-capped.sql');
    const [plan] = await db.pool.query<RowDataPacket[]>(`EXPLAIN ${capped}`, [3]);
    const jobsRead = plan.find((r) => r.table === 'jobs');
    expect(jobsRead).toMatchObject({ key: 'jobs_claim' });
    expect(String(jobsRead!.Extra)).toContain('Using index');
  });

  it('report no lag when nothing waits', async () => {
    expect(await archiverLagSeconds(db.pool, 60)).toBe(0);
  });

  it('are deleted only at the attempt that was archived, with their attempt rows', async () => {
    const [id] = await insertJobs(db.pool, [
      { tenantId, taskId: null, scheduledFor: ago(50), state: 'dead', attempt: 3 },
    ]);
    expect(await deleteArchivedJobs(db.pool, [{ id: id!, attempt: 2 }], EVERY)).toBe(0);
    expect(await deleteArchivedJobs(db.pool, [{ id: id!, attempt: 3 }], EVERY)).toBe(4); // job + 3 attempts
  });

  it('are not deleted when redriven after they were archived: the attempt is the same, the state is not', async () => {
    const [id] = await insertJobs(db.pool, [
      { tenantId, taskId: null, scheduledFor: ago(50), state: 'dead', attempt: 3 },
    ]);
    // archived (written to history) at attempt 3, then redriven before the delete
    expect(await redriveJobs(db.pool, tenantId, [id!])).toEqual([id]);
    expect(await deleteArchivedJobs(db.pool, [{ id: id!, attempt: 3 }], EVERY)).toBe(0);
    expect(await getLiveJob(db.pool, tenantId, id!)).toMatchObject({ state: 'pending', attempt: 3 });
  });
});

/**
 * The pool, except that the archiver's delete of `id` commits (on another connection) just before
 * the first statement that reads job_attempts: the moment a lookup's two reads are apart.
 */
function archivedBetweenReads(pool: Pool, id: string, attempt: number): Pool {
  let done = false;
  const wrap = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(t, p) {
        const value: unknown = Reflect.get(t, p, t);
        if (p !== 'query') return typeof value === 'function' ? value.bind(t) : value;
        return async (sql: unknown, ...rest: unknown[]) => {
          if (!done && typeof sql === 'string' && sql.includes('FROM job_attempts')) {
            done = true;
            expect(await deleteArchivedJobs(pool, [{ id, attempt }], EVERY)).toBe(attempt + 1);
          }
          return (value as (...args: unknown[]) => unknown).call(t, sql, ...rest);
        };
      },
    });
  return new Proxy(pool, {
    get(t, p) {
      if (p === 'getConnection') return async () => wrap(await t.getConnection());
      if (p === 'query') return wrap(t).query;
      const value = Reflect.get(t, p, t);
      return typeof value === 'function' ? value.bind(t) : value;
    },
  });
}

describe('a live job read', () => {
  it('sees the job and its attempts from one snapshot, even when the archiver deletes them between the two reads', async () => {
    const [id] = await insertJobs(db.pool, [
      { tenantId, taskId: null, scheduledFor: ago(50), state: 'succeeded', attempt: 3, finishedAt: ago(10) },
    ]);
    const view = await getLiveJob(archivedBetweenReads(db.pool, id!, 3), tenantId, id!);
    // Two reads at READ COMMITTED answered the job with no attempts (its history has all three).
    expect(view?.attempts.map((a) => a.attempt)).toEqual([1, 2, 3]);
    expect(await getLiveJob(db.pool, tenantId, id!)).toBeNull();
  });
});

describe('redrive', () => {
  it('makes a dead job pending again as a new attempt group with the same id and a fresh budget', async () => {
    const [dead, done] = await insertJobs(db.pool, [
      { tenantId, taskId: null, scheduledFor: ago(50), state: 'dead', attempt: 3, maxAttempts: 3 },
      { tenantId, taskId: null, scheduledFor: ago(50), state: 'succeeded' },
    ]);
    expect(await redriveJobs(db.pool, tenantId, [dead!, done!])).toEqual([dead]);
    const view = await getLiveJob(db.pool, tenantId, dead!);
    expect(view).toMatchObject({ id: dead, state: 'pending', attempt: 3, maxAttempts: 6, attemptGroup: 2 });
    expect(view!.finishedAt).toBeUndefined();
    expect(view!.attempts).toHaveLength(3); // the first group's attempts stay in the document
    // A redriven job is no longer dead: a second redrive changes nothing.
    expect(await redriveJobs(db.pool, tenantId, [dead!])).toEqual([]);
  });

  it('never touches another tenant’s jobs', async () => {
    const [dead] = await insertJobs(db.pool, [
      { tenantId, taskId: null, scheduledFor: ago(50), state: 'dead' },
    ]);
    expect(await redriveJobs(db.pool, newId(), [dead!])).toEqual([]);
    expect(await redriveTask(db.pool, newId(), newId(), 100)).toEqual([]);
  });

  it('redrives a task’s dead jobs in batches up to the cap, or only the given ids of that task', async () => {
    const taskId = newId();
    const ids = await insertJobs(
      db.pool,
      Array.from({ length: 12 }, (_, i) => ({
        tenantId,
        taskId,
        scheduledFor: ago(100 - i),
        state: 'dead' as const,
      })),
    );
    const [otherTask] = await insertJobs(db.pool, [
      { tenantId, taskId: newId(), scheduledFor: ago(5), state: 'dead' },
    ]);
    expect(await redriveJobs(db.pool, tenantId, [ids[0]!, otherTask!], { taskId })).toEqual([ids[0]]);
    expect(await redriveTask(db.pool, tenantId, taskId, 7)).toHaveLength(7);
    expect(await redriveTask(db.pool, tenantId, taskId, 100)).toHaveLength(4);
  });
});

describe('live lists', () => {
  it('page a task’s runs and a tenant’s jobs newest first from a cursor', async () => {
    const taskId = newId();
    const ids = await insertJobs(
      db.pool,
      Array.from({ length: 5 }, (_, i) => ({
        tenantId,
        taskId,
        scheduledFor: new Date(Date.UTC(2026, 0, 1, i)),
        state: 'succeeded' as const,
      })),
    );
    const cursor = firstCursor(new Date(Date.UTC(2026, 0, 1, 4)));
    const runs = await liveTaskRuns(db.pool, {
      tenantId,
      taskId,
      from: new Date(Date.UTC(2026, 0, 1, 1)),
      cursor,
      limit: 2,
    });
    expect(runs.items.map((j) => j.id)).toEqual([ids[3], ids[2]]);
    expect(runs.more).toBe(true);
    const jobs = await liveTenantJobs(db.pool, {
      tenantId,
      state: 'succeeded',
      from: new Date(0),
      cursor,
      limit: 10,
    });
    expect(jobs.items.map((j) => j.id)).toEqual([ids[3], ids[2], ids[1], ids[0]]);
    expect(jobs.more).toBe(false);
    expect(
      await liveTaskRuns(db.pool, { tenantId: newId(), taskId, from: new Date(0), cursor, limit: 10 }),
    ).toEqual({
      items: [],
      more: false,
    });
    expect(await liveJobIds(db.pool, [ids[0]!, newId()])).toEqual(new Set([ids[0]]));
  });

  it('use their indexes in order, without a filesort', async () => {
    const plan = async (sql: string, params: unknown[]) => {
      const [rows] = await db.pool.query<RowDataPacket[]>(`EXPLAIN ${sql}`, params);
      return rows[0]!;
    };
    const c = [new Date(), new Date(), new Date(), idToBin(newId())];
    const runs = await plan(
      `SELECT id FROM jobs WHERE task_id = ? AND tenant_id = ? AND scheduled_for >= ? AND scheduled_for <= ?
         AND (scheduled_for < ? OR (scheduled_for = ? AND id < ?)) ORDER BY scheduled_for DESC, id DESC LIMIT 10`,
      [idToBin(newId()), idToBin(tenantId), new Date(0), ...c],
    );
    expect(runs.key).toBe('jobs_by_task');
    expect(String(runs.Extra)).not.toMatch(/filesort/);
  });
});
