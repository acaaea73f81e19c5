import {
  CALLBACK_RETRY,
  type ClaimedJob,
  type FollowUpReport,
  newId,
  type OutcomeWrite,
} from '@dsched/domain';
import { createTask, createTenantWithKey, cronTask } from '@dsched/testkit/fixtures';
import { inEachGroup } from '@dsched/testkit/mysql';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import type { RowDataPacket } from 'mysql2/promise';
import { beforeEach, describe, expect, it } from 'vitest';
import { binToId, idToBin } from '../src/ids.ts';
import { claimJobs } from '../src/jobs/claim/claims.ts';
import { cancelJob, completeJob } from '../src/jobs/control/job-control.ts';
import { finishJobs } from '../src/jobs/finish/index.ts';
import { insertJobs } from '../src/jobs/insert-jobs.ts';
import { recordOutcomes } from '../src/jobs/outcome/outcomes.ts';
import { releaseExpiredClaims } from '../src/jobs/reconcile/reconcile.ts';
import { readJson } from '../src/json.ts';
import { withTransaction } from '../src/transaction.ts';

// What a final outcome sets off, on real MariaDB: the callback job made with it (once, whatever is
// written again) and the task's failure streak, which pauses the task at its threshold.

const db = useTestDatabase(import.meta.url);

beforeEach(async () => {
  for (const t of ['jobs', 'job_attempts', 'tasks']) await db.fixtures.query(`DELETE FROM ${t}`);
});

const T0 = Date.UTC(2026, 0, 1, 9);

/** A task with these settings, and `n` due scheduled jobs of it made by the scheduler's insert. */
async function taskWithJobs(
  settings: { callbacks?: { onSuccess?: string; onDead?: string }; pauseAfterFailures?: number },
  n: number,
) {
  const tenant = await createTenantWithKey(db.pool);
  const task = await createTask(
    db.pool,
    cronTask(tenant.id, {
      callbacks: settings.callbacks ?? null,
      pauseAfterFailures: settings.pauseAfterFailures ?? null,
    }),
  );
  await withTransaction(db.pool, (conn) =>
    insertJobs(
      conn,
      Array.from({ length: n }, (_, i) => ({
        taskId: idToBin(task.id),
        partition: 0,
        occurrence: new Date(T0 + i * 60_000).toISOString(),
        kind: 'scheduled' as const,
        tagged: false,
        scheduledFor: new Date(T0 + i * 60_000),
        runAt: new Date(T0 + i * 60_000),
      })),
      new Date(),
    ),
  );
  return task;
}

async function claimAll(): Promise<ClaimedJob[]> {
  const { jobs } = await claimJobs(db.pool, {
    lane: 'default',
    limit: 100,
    owner: 'exec-f',
    leaseSeconds: 60,
  });
  return jobs.sort((a, b) => a.scheduledFor.getTime() - b.scheduledFor.getTime());
}

const attempt = (status: number) => ({ status, errorClass: null, error: null, durationMs: 3 });
const ok = (job: ClaimedJob, body = 'ok'): OutcomeWrite => ({
  job,
  transition: { to: 'succeeded', lastStatus: 200, lastError: null },
  attempt: attempt(200),
  responseBody: body,
});
const dead = (job: ClaimedJob): OutcomeWrite => ({
  job,
  transition: { to: 'dead', lastStatus: 404, lastError: 'HTTP 404' },
  attempt: attempt(404),
  responseBody: 'no such thing',
});

async function record(writes: OutcomeWrite[]): Promise<FollowUpReport[]> {
  const reports: FollowUpReport[] = [];
  await recordOutcomes(db.pool, writes, (r) => reports.push(r));
  return reports;
}

// biome-ignore lint/suspicious/noExplicitAny: rows read back for assertions
async function callbackJobs(taskId: string): Promise<any[]> {
  const [rows] = await db.pool.query<RowDataPacket[]>(
    `SELECT id, occurrence, state, max_attempts, lane, target, retry, callbacks, counts_failures
       FROM jobs WHERE task_id = ? AND kind = 'callback' ORDER BY occurrence`,
    [idToBin(taskId)],
  );
  return rows.map((r) => ({ ...r, target: readJson(r.target), retry: readJson(r.retry) }));
}

async function taskRow(taskId: string): Promise<RowDataPacket> {
  const [rows] = await db.pool.query<RowDataPacket[]>(
    'SELECT state, failure_streak, paused_reason, version FROM tasks WHERE id = ?',
    [idToBin(taskId)],
  );
  return rows[0]!;
}

describe('callback jobs', () => {
  it('are made with the final outcome, carrying the event, and never twice', async () => {
    const task = await taskWithJobs(
      { callbacks: { onSuccess: 'http://127.0.0.1:9/ok', onDead: 'http://127.0.0.1:9/dead' } },
      2,
    );
    const [first, second] = (await claimAll()) as [ClaimedJob, ClaimedJob];
    expect(first.followUps).toEqual({ taskId: task.id, callbacks: true, countsFailures: false });
    expect(await record([ok(first, '{"done":true}'), dead(second)])).toEqual([
      { callbackJobs: 2, pausedTasks: 0 },
    ]);
    // The same outcomes written again (a retried batch) are fenced off and make nothing.
    expect(await recordOutcomes(db.pool, [ok(first), dead(second)])).toHaveLength(2);
    // And the follow-up itself run again (a transaction replayed after a lost commit) makes none:
    // the callback job's key is the reported job and its attempt group.
    const again = await withTransaction(db.pool, (conn) =>
      finishJobs(conn, [
        {
          id: first.id,
          attempt: first.attempt,
          partition: first.partition!,
          state: 'succeeded',
          followUps: first.followUps!,
          workflowNode: null,
        },
      ]),
    );
    expect(again.callbackJobs).toBe(0);

    const made = await callbackJobs(task.id);
    expect(made).toHaveLength(2);
    const bySource = new Map(made.map((c) => [c.target.body.jobId as string, c]));
    const success = bySource.get(first.id)!;
    expect(success).toMatchObject({
      occurrence: `callback:${first.id.replaceAll('-', '')}:1`,
      state: 'pending',
      max_attempts: CALLBACK_RETRY.maxAttempts,
      lane: 'default',
      callbacks: null,
      counts_failures: 0,
      retry: CALLBACK_RETRY,
    });
    expect(success.target).toMatchObject({
      url: 'http://127.0.0.1:9/ok',
      method: 'POST',
      headers: { 'dsched-event': 'job.succeeded' },
    });
    expect(success.target.body).toMatchObject({
      type: 'job.succeeded',
      jobId: first.id,
      taskId: task.id,
      occurrence: first.scheduledFor.toISOString(),
      scheduledFor: first.scheduledFor.toISOString(),
      state: 'succeeded',
      attempts: 1,
      attemptGroup: 1,
      lastStatus: 200,
      lastError: null,
      responseBody: '{"done":true}',
    });
    expect(success.target.body.finishedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(bySource.get(second.id)!.target).toMatchObject({
      url: 'http://127.0.0.1:9/dead',
      body: {
        type: 'job.dead',
        state: 'dead',
        lastStatus: 404,
        lastError: 'HTTP 404',
        responseBody: 'no such thing',
      },
    });
  });

  it('are made only for the outcomes the task has a URL for, and not for a retry', async () => {
    const task = await taskWithJobs({ callbacks: { onDead: 'http://127.0.0.1:9/dead' } }, 2);
    const [first, second] = (await claimAll()) as [ClaimedJob, ClaimedJob];
    const retry: OutcomeWrite = {
      job: second,
      transition: { to: 'retry', lastStatus: 503, lastError: 'HTTP 503', delayMs: 60_000 },
      attempt: attempt(503),
    };
    expect(await record([ok(first), retry])).toEqual([{ callbackJobs: 0, pausedTasks: 0 }]);
    expect(await callbackJobs(task.id)).toEqual([]);
  });

  it('are not made for a job that ended cancelled, though its caller said it succeeded', async () => {
    const task = await taskWithJobs(
      { callbacks: { onSuccess: 'http://127.0.0.1:9/ok', onDead: 'http://127.0.0.1:9/dead' } },
      1,
    );
    const [rows] = await db.pool.query<RowDataPacket[]>('SELECT id, `partition` FROM jobs');
    const jobId = binToId(rows[0]!.id);
    expect(await cancelJob(db.pool, task.tenantId, jobId)).toBe('cancelled');
    const report = await withTransaction(db.pool, (conn) =>
      finishJobs(conn, [
        {
          id: jobId,
          attempt: 0,
          partition: Number(rows[0]!.partition),
          state: 'succeeded',
          followUps: { taskId: task.id, callbacks: true, countsFailures: false },
          workflowNode: null,
          responseBody: null,
        },
      ]),
    );
    expect(report.callbackJobs).toBe(0);
    expect(await callbackJobs(task.id)).toEqual([]);
  });
});

describe('jobs dead-lettered by the reconciler', () => {
  it('set off the same follow-ups: the onDead callback job and the failure streak', async () => {
    const task = await taskWithJobs(
      { callbacks: { onDead: 'http://127.0.0.1:9/dead' }, pauseAfterFailures: 1 },
      1,
    );
    const [job] = await claimAll();
    // Its executor died on the last attempt: the lease runs out and the reconciler sends it to the DLQ.
    await db.fixtures.query(
      'UPDATE jobs SET max_attempts = 1, lease_expires_at = NOW(3) - INTERVAL 1 SECOND WHERE id = ?',
      [idToBin(job!.id)],
    );
    expect(await inEachGroup((p) => releaseExpiredClaims(db.pool, 10, undefined, null, p))).toEqual({
      released: 0,
      dead: 1,
      pausedTasks: 1,
    });
    const [made] = await callbackJobs(task.id);
    expect(made.target.body).toMatchObject({
      type: 'job.dead',
      jobId: job!.id,
      lastError: 'claim lease expired on the last attempt',
      responseBody: null,
    });
    expect(await taskRow(task.id)).toMatchObject({ state: 'paused', failure_streak: 1 });
  });
});

describe('jobs completed asynchronously through job-api', () => {
  it('make their callback job with the completion, its report standing in for the response body', async () => {
    const task = await taskWithJobs({ callbacks: { onSuccess: 'http://127.0.0.1:9/ok' } }, 1);
    const [job] = await claimAll();
    const parked: OutcomeWrite = {
      job: job!,
      transition: { to: 'parked', lastStatus: 202, heartbeatSeconds: 300, deadlineSeconds: 3600 },
      attempt: attempt(202),
    };
    expect(await record([parked])).toEqual([]);
    expect(await callbackJobs(task.id)).toEqual([]);
    const done = await completeJob(
      db.pool,
      { tenantId: task.tenantId, id: job!.id, attempt: job!.attempt, errorClass: null },
      () => ({ to: 'succeeded', output: { rows: 3 }, error: null }),
    );
    expect(done.kind).toBe('ok');
    const [made] = await callbackJobs(task.id);
    expect(made.target.body).toMatchObject({
      type: 'job.succeeded',
      jobId: job!.id,
      responseBody: '{"rows":3}',
    });
  });
});

describe('pause after failures', () => {
  it('counts dead occurrences in a row across batches, and pauses at the threshold with its reason', async () => {
    const task = await taskWithJobs({ pauseAfterFailures: 3 }, 6);
    const jobs = await claimAll();
    expect(jobs[0]!.followUps).toEqual({ taskId: task.id, callbacks: false, countsFailures: true });
    await record([dead(jobs[0]!), dead(jobs[1]!)]);
    expect(await taskRow(task.id)).toMatchObject({ state: 'active', failure_streak: 2 });
    // A success resets the streak.
    await record([ok(jobs[2]!)]);
    expect((await taskRow(task.id)).failure_streak).toBe(0);
    await record([dead(jobs[3]!)]);
    // In one batch, the dead occurrences after its latest success count.
    expect(await record([dead(jobs[5]!), ok(jobs[4]!)])).toEqual([{ callbackJobs: 0, pausedTasks: 0 }]);
    expect((await taskRow(task.id)).failure_streak).toBe(1);
  });

  it('pauses once, and cancels the jobs materialised ahead', async () => {
    const task = await taskWithJobs({ pauseAfterFailures: 2 }, 3);
    const jobs = await claimAll();
    // A fourth occurrence materialised ahead, not yet claimed.
    await withTransaction(db.pool, (conn) =>
      insertJobs(
        conn,
        [
          {
            taskId: idToBin(task.id),
            partition: 0,
            occurrence: new Date(T0 + 10 * 60_000).toISOString(),
            kind: 'scheduled',
            tagged: false,
            scheduledFor: new Date(T0 + 10 * 60_000),
            runAt: new Date(Date.now() + 3_600_000),
          },
        ],
        new Date(),
      ),
    );
    expect(await record([dead(jobs[0]!), dead(jobs[1]!)])).toEqual([{ callbackJobs: 0, pausedTasks: 1 }]);
    const paused = await taskRow(task.id);
    expect(paused).toMatchObject({
      state: 'paused',
      failure_streak: 2,
      paused_reason: 'paused after 2 dead occurrences in a row (pauseAfterFailures 2)',
      version: task.version + 1,
    });
    // The third dead occurrence counts on, but the task is paused once.
    expect(await record([dead(jobs[2]!)])).toEqual([{ callbackJobs: 0, pausedTasks: 0 }]);
    expect(await taskRow(task.id)).toMatchObject({ failure_streak: 3, version: task.version + 1 });
    const [ahead] = await db.pool.query<RowDataPacket[]>(
      "SELECT state, occurrence FROM jobs WHERE task_id = ? AND state NOT IN ('dead')",
      [idToBin(task.id)],
    );
    expect(ahead).toHaveLength(1);
    expect(ahead[0]).toMatchObject({ state: 'cancelled' });
    expect(String(ahead[0]!.occurrence)).toMatch(/^superseded:\d+:/);
  });
});

describe('a job stored before the shard key, in another partition than its id names (D54, D60)', () => {
  it('is found by job-api by its row and cancelled, its follow-ups keyed by its row’s partition', async () => {
    const task = await taskWithJobs({ callbacks: { onDead: 'http://127.0.0.1:9/dead' } }, 0);
    // Its row is in its task's partition, its id names the next one (on the other shard through
    // vtgate): as 0061 left a job of a task made before it (D54).
    const [tasks] = await db.pool.query<RowDataPacket[]>('SELECT `partition` FROM tasks WHERE id = ?', [
      idToBin(task.id),
    ]);
    const partition = Number(tasks[0]!.partition);
    const jobId = newId(T0, (partition + 1) % 64);
    await withTransaction(db.pool, (conn) =>
      insertJobs(
        conn,
        [
          {
            id: jobId,
            taskId: idToBin(task.id),
            partition,
            occurrence: new Date(T0).toISOString(),
            kind: 'scheduled' as const,
            tagged: false,
            scheduledFor: new Date(T0),
            runAt: new Date(T0),
          },
        ],
        new Date(),
      ),
    );
    expect(await cancelJob(db.pool, task.tenantId, jobId)).toBe('cancelled');
    const [after] = await db.pool.query<RowDataPacket[]>('SELECT state, `partition` FROM jobs WHERE id = ?', [
      idToBin(jobId),
    ]);
    expect(after[0]).toMatchObject({ state: 'cancelled', partition });
    expect(await cancelJob(db.pool, task.tenantId, jobId)).toBe('already_cancelled');
  });

  it('a job that exists nowhere is not found, after the keyed lock and the unkeyed look', async () => {
    const task = await taskWithJobs({}, 0);
    expect(await cancelJob(db.pool, task.tenantId, '01900000-0000-7000-8000-000000000005')).toBe('not_found');
  });
});
