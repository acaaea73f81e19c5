import { createWorkflowSchema, WORKFLOW_START_LANE, WORKFLOW_TASK_TARGET } from '@dsched/domain';
import { createTask, createTenantWithKey, cronTask } from '@dsched/testkit/fixtures';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import type { RowDataPacket } from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { idToBin } from '../src/ids.ts';
import { claimJobs } from '../src/jobs/claim/claims.ts';
import { insertJobs } from '../src/jobs/insert-jobs.ts';
import { recordOutcomes } from '../src/jobs/outcome/outcomes.ts';
import { databaseNow } from '../src/pool.ts';
import { withTransaction } from '../src/transaction.ts';
import { registerWorkflowFollowUps } from '../src/workflows/finish-follow-ups.ts';
import { cancelJobOrItsRun } from '../src/workflows/occurrence-cancel.ts';
import { startScheduledRuns } from '../src/workflows/workflow-scheduled.ts';

// Scheduled workflows on real MariaDB: an occurrence job of a workflow task starts one run, whose
// id is the job's, however often the start is tried; the job stays running until the run ends and
// then takes its outcome; the run counts as its task, not against maxTasks.

registerWorkflowFollowUps();

const db = useTestDatabase(import.meta.url);

const workflow = createWorkflowSchema.parse({
  name: 'nightly-etl',
  nodes: [
    { id: 'extract', target: { url: 'http://127.0.0.1:9/e' } },
    { id: 'load', target: { url: 'http://127.0.0.1:9/l' }, dependsOn: ['extract'] },
  ],
});

async function occurrence(taskId: string, at: string): Promise<string> {
  const id = await withTransaction(db.pool, async (conn) => {
    const now = await databaseNow(conn);
    const jobId = crypto.randomUUID();
    await insertJobs(
      conn,
      [
        {
          id: jobId,
          taskId: idToBin(taskId),
          partition: 0,
          occurrence: at,
          kind: 'scheduled',
          tagged: false,
          scheduledFor: now,
          runAt: now,
        },
      ],
      now,
    );
    return jobId;
  });
  return id;
}

const row = async (sql: string, params: unknown[]) =>
  (await db.pool.query<RowDataPacket[]>(sql, params))[0][0];

describe('a workflow task’s occurrence', () => {
  it('starts one run keyed by the occurrence job, which ends with the run; the quota is the task’s', async () => {
    const t = await createTenantWithKey(db.pool, 'sched-wf', { maxTasks: 5 });
    const task = await createTask(
      db.pool,
      cronTask(t.id, { workflow, lane: WORKFLOW_START_LANE, target: WORKFLOW_TASK_TARGET }),
    );
    await db.pool.query('UPDATE tenants SET task_count = 1 WHERE id = ?', [idToBin(t.id)]);
    const jobId = await occurrence(task.id, '2026-12-01T02:30:00.000Z');

    // No executor lane takes it.
    for (const lane of ['critical', 'default', 'long'] as const) {
      const claimed = await claimJobs(db.pool, { lane, limit: 100, owner: 'exec-s', leaseSeconds: 60 });
      expect(claimed.jobs.map((j) => j.id)).not.toContain(jobId);
    }
    expect(await startScheduledRuns(db.pool, 10)).toBe(1);
    expect(await startScheduledRuns(db.pool, 10)).toBe(0);
    const job = await row('SELECT state, attempt, claimed_by, lease_expires_at FROM jobs WHERE id = ?', [
      idToBin(jobId),
    ]);
    expect(job).toMatchObject({ state: 'running', attempt: 1, claimed_by: null });
    const run = await row('SELECT name, state, node_count FROM workflows WHERE id = ?', [idToBin(jobId)]);
    expect(run).toMatchObject({ name: 'nightly-etl', state: 'running', node_count: 2 });
    expect(await row('SELECT task_count FROM tenants WHERE id = ?', [idToBin(t.id)])).toMatchObject({
      task_count: 1,
    });

    // The nodes run as ordinary node jobs; the run succeeds and its occurrence job with it.
    for (;;) {
      const { jobs } = await claimJobs(db.pool, {
        lane: 'default',
        limit: 100,
        owner: 'exec-s',
        leaseSeconds: 60,
      });
      const mine = jobs.filter((j) => j.workflowId === jobId);
      if (mine.length === 0) break;
      await recordOutcomes(
        db.pool,
        mine.map((j) => ({
          job: j,
          transition: { to: 'succeeded', lastStatus: 200, lastError: null },
          attempt: { status: 200, errorClass: null, error: null, durationMs: 1 },
        })),
      );
    }
    expect(await row('SELECT state FROM workflows WHERE id = ?', [idToBin(jobId)])).toMatchObject({
      state: 'succeeded',
    });
    expect(await row('SELECT state FROM jobs WHERE id = ?', [idToBin(jobId)])).toMatchObject({
      state: 'succeeded',
    });
    expect(await row('SELECT task_count FROM tenants WHERE id = ?', [idToBin(t.id)])).toMatchObject({
      task_count: 1,
    });
  });

  it('cancelling the occurrence job cancels the run it started, or keeps it from starting', async () => {
    const t = await createTenantWithKey(db.pool, 'sched-wf-cancel');
    const task = await createTask(
      db.pool,
      cronTask(t.id, { workflow, lane: WORKFLOW_START_LANE, target: WORKFLOW_TASK_TARGET }),
    );
    // Started: job-api's cancel of the occurrence ends the run cancelled, and the job with it.
    const started = await occurrence(task.id, '2026-12-02T02:30:00.000Z');
    expect(await startScheduledRuns(db.pool, 10)).toBe(1);
    expect(await cancelJobOrItsRun(db.pool, t.id, started)).toBe('cancelled');
    expect(await row('SELECT state FROM workflows WHERE id = ?', [idToBin(started)])).toMatchObject({
      state: 'cancelled',
    });
    expect(await row('SELECT state FROM jobs WHERE id = ?', [idToBin(started)])).toMatchObject({
      state: 'cancelled',
    });
    const nodes = (
      await db.pool.query<RowDataPacket[]>(
        'SELECT node_id, state FROM workflow_nodes WHERE workflow_id = ?',
        [idToBin(started)],
      )
    )[0];
    expect(Object.fromEntries(nodes.map((n) => [n.node_id, n.state]))).toEqual({
      extract: 'cancelled',
      load: 'cancelled',
    });
    // Its root's job was cancelled too: no executor calls it.
    const { jobs } = await claimJobs(db.pool, {
      lane: 'default',
      limit: 100,
      owner: 'exec-c',
      leaseSeconds: 60,
    });
    expect(jobs.filter((j) => j.workflowId === started)).toEqual([]);

    // Not started yet: cancelled while pending, the run never starts.
    const pending = await occurrence(task.id, '2026-12-03T02:30:00.000Z');
    expect(await cancelJobOrItsRun(db.pool, t.id, pending)).toBe('cancelled');
    expect(await startScheduledRuns(db.pool, 10)).toBe(0);
    expect(await row('SELECT id FROM workflows WHERE id = ?', [idToBin(pending)])).toBeUndefined();
  });

  it('dead-letters an occurrence whose task has no workflow to start', async () => {
    const t = await createTenantWithKey(db.pool, 'sched-none');
    const task = await createTask(db.pool, cronTask(t.id, { lane: WORKFLOW_START_LANE }));
    const jobId = await occurrence(task.id, '2026-12-01T02:30:00.000Z');
    expect(await startScheduledRuns(db.pool, 10)).toBe(0);
    expect(await row('SELECT state, last_error FROM jobs WHERE id = ?', [idToBin(jobId)])).toMatchObject({
      state: 'dead',
      last_error: 'the task has no workflow to start',
    });
    expect(await row('SELECT id FROM workflows WHERE id = ?', [idToBin(jobId)])).toBeUndefined();
  });
});
