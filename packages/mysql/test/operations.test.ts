import { newId, type OperationAction, operationFilter } from '@dsched/domain';
import { createTask, createTenantWithKey, cronTask, insertJobs } from '@dsched/testkit/fixtures';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import { nodeStates, runState, submitWorkflow } from '@dsched/testkit/workflows';
import type { RowDataPacket } from 'mysql2/promise';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { binToId, idToBin } from '../src/ids.ts';
import {
  cancelOperation,
  getOperation,
  listOperations,
  releaseOperation,
  runOperationBatch,
  startOperation,
  takeOperation,
} from '../src/operations/index.ts';

// Bulk operations (docs/bulk-operations.md) on the real store: what each action touches and what it
// leaves, a worker that dies mid-way and the next that goes on from its cursor, a cancel honoured
// between batches, a dry run that changes nothing.

const db = useTestDatabase(import.meta.url);
let tenantId: string;
let otherTenant: string;

beforeAll(async () => {
  tenantId = (await createTenantWithKey(db.pool)).id;
  otherTenant = (await createTenantWithKey(db.pool, 'other')).id;
});
beforeEach(async () => {
  for (const table of ['operations', 'job_attempts', 'job_tags', 'jobs', 'task_tags', 'tasks']) {
    await db.pool.query(`DELETE FROM ${table}`);
  }
});

const ago = (s: number) => new Date(Date.now() - s * 1000);
const OPTIONS = { batchSize: 10, ttlMs: 30_000 };

async function start(action: OperationAction, filter: Parameters<typeof operationFilter>[1], dryRun = false) {
  return startOperation(db.pool, {
    id: newId(),
    tenantId,
    action,
    filter: operationFilter(action, filter),
    dryRun,
  });
}

/** Every job's state, cancel mark and update time, by id. */
async function jobStates(): Promise<
  Map<string, { state: string; cancel: number; updated: number; runAt: number; group: number }>
> {
  const [rows] = await db.pool.query<RowDataPacket[]>(
    'SELECT id, state, cancel_requested, updated_at, run_at, attempt_group FROM jobs',
  );
  return new Map(
    rows.map((r) => [
      binToId(r.id),
      {
        state: r.state,
        cancel: Number(r.cancel_requested),
        updated: r.updated_at.getTime(),
        runAt: r.run_at.getTime(),
        group: Number(r.attempt_group),
      },
    ]),
  );
}

/** Runs batches as `owner` until the operation ends or `max` batches ran. */
async function runBatches(id: string, owner: string, max = 1000) {
  for (let i = 0; i < max; i++) {
    const r = await runOperationBatch(db.pool, id, owner, OPTIONS);
    if (r.kind === 'lost' || r.operation.state !== 'running') return r;
  }
  return null;
}

/** A tag mix: the matching jobs of team:a and what must stay as it was around them. */
async function seedCancelMix() {
  const spec = (
    state: 'pending' | 'running' | 'dead' | 'succeeded',
    i: number,
    tags: Record<string, string>,
  ) => ({
    tenantId,
    taskId: null,
    scheduledFor: ago(1000 - i),
    state,
    tags,
  });
  const a = { team: 'a' };
  const matching = await insertJobs(db.pool, [
    ...Array.from({ length: 30 }, (_, i) => spec('pending', i, a)),
    ...Array.from({ length: 4 }, (_, i) => spec('running', 40 + i, a)),
    ...Array.from({ length: 2 }, (_, i) => spec('pending', 50 + i, { team: 'a', zone: 'eu' })),
  ]);
  // Two of the running ones are parked (a 202: running, no claim).
  await db.pool.query('UPDATE jobs SET claimed_by = NULL WHERE id IN (?)', [
    matching.slice(30, 32).map(idToBin),
  ]);
  const untouched = await insertJobs(db.pool, [
    ...Array.from({ length: 5 }, (_, i) => spec('dead', 60 + i, a)),
    ...Array.from({ length: 5 }, (_, i) => spec('succeeded', 70 + i, a)),
    ...Array.from({ length: 8 }, (_, i) => spec('pending', 80 + i, { team: 'b' })),
    ...Array.from({ length: 3 }, (_, i) => ({ ...spec('pending', 90 + i, a), tenantId: otherTenant })),
  ]);
  return { matching, untouched, parked: matching.slice(30, 32) };
}

describe('a cancel by tag', () => {
  it('cancels every matching job once, through a worker that dies mid-way, and touches nothing else', async () => {
    const { matching, untouched, parked } = await seedCancelMix();
    const before = await jobStates();
    const { matched, operation } = await start('cancel', { tag: 'team:a' });
    expect(matched).toBe(matching.length);
    const id = operation!.id;

    // The first worker takes the lease, runs two batches and dies (its lease is never renewed).
    const first = await takeOperation(db.pool, 'worker-1:a', 30_000);
    expect(first?.id).toBe(id);
    await runBatches(id, 'worker-1:a', 2);
    const midway = await getOperation(db.pool, tenantId, id);
    expect(midway).toMatchObject({ state: 'running', done: 20 });
    // Nobody else may take it while the lease runs.
    expect(await takeOperation(db.pool, 'worker-2:a', 30_000)).toBeNull();
    await db.pool.query('UPDATE operations SET lease_expires_at = NOW(3) - INTERVAL 1 SECOND');

    const second = await takeOperation(db.pool, 'worker-2:a', 30_000);
    expect(second?.id).toBe(id);
    // The dead worker's lease is gone: a late batch of it changes nothing.
    expect(await runOperationBatch(db.pool, id, 'worker-1:a', OPTIONS)).toEqual({ kind: 'lost' });
    const end = await runBatches(id, 'worker-2:a');
    expect(end).toMatchObject({ kind: 'ran', operation: { state: 'succeeded', done: matched, failed: 0 } });
    // Each batch started after the last: 36 jobs in batches of 10 are 4 batches (and nothing after).
    const [[ops]] = await db.pool.query<RowDataPacket[]>('SELECT batches FROM operations');
    expect(Number(ops!.batches)).toBe(4);

    const after = await jobStates();
    for (const job of matching) {
      const j = after.get(job)!;
      expect(j.cancel).toBe(1);
      // The claimed running ones are marked for their executor to abort; the rest are cancelled.
      const claimed = before.get(job)!.state === 'running' && !parked.includes(job);
      expect(j.state).toBe(claimed ? 'running' : 'cancelled');
    }
    for (const job of untouched) expect(after.get(job)).toEqual(before.get(job));
    // The parked ones' open attempts are closed as cancelled.
    const [attempts] = await db.pool.query<RowDataPacket[]>(
      'SELECT error_class FROM job_attempts WHERE job_id IN (?) AND finished_at IS NOT NULL',
      [parked.map(idToBin)],
    );
    expect(attempts.map((r) => r.error_class)).toEqual(['cancelled', 'cancelled']);
  });

  it('stops between batches when the operation is cancelled', async () => {
    const { matching } = await seedCancelMix();
    const { operation } = await start('cancel', { tag: 'team:a', state: 'pending' });
    const id = operation!.id;
    await takeOperation(db.pool, 'w:1', 30_000);
    await runOperationBatch(db.pool, id, 'w:1', OPTIONS);
    const asked = await cancelOperation(db.pool, tenantId, id);
    expect(asked).toMatchObject({ state: 'running', cancelRequested: true, done: 10 });
    const r = await runOperationBatch(db.pool, id, 'w:1', OPTIONS);
    expect(r).toMatchObject({ kind: 'ran', operation: { state: 'cancelled', done: 10 } });
    const after = await jobStates();
    const cancelled = matching.filter((j) => after.get(j)!.state === 'cancelled');
    expect(cancelled).toHaveLength(10);
    // A finished operation is not taken again, and a cancel of it changes nothing.
    expect(await takeOperation(db.pool, 'w:2', 30_000)).toBeNull();
    expect(await cancelOperation(db.pool, tenantId, id)).toMatchObject({ state: 'cancelled', done: 10 });
  });

  it('ends a workflow node’s job through the finish path: its children and its run follow at once', async () => {
    const wf = await submitWorkflow(db.pool, tenantId, [{ id: 'a' }, { id: 'b', dependsOn: ['a'] }], {
      extra: { tags: { team: 'wf' } },
    });
    const { matched, operation } = await start('cancel', { tag: 'team:wf' });
    expect(matched).toBe(1);
    await takeOperation(db.pool, 'w:1', 30_000);
    expect(await runBatches(operation!.id, 'w:1')).toMatchObject({
      operation: { state: 'succeeded', done: 1 },
    });
    expect(await nodeStates(db.pool, wf)).toEqual({ a: 'cancelled', b: 'upstream_failed' });
    expect(await runState(db.pool, wf)).toBe('failed');
  });

  it('as a dry run counts what it would touch and changes nothing', async () => {
    await seedCancelMix();
    const before = await jobStates();
    const { matched, operation } = await start('cancel', { tag: ['team:a', 'zone:eu'] }, true);
    expect(matched).toBe(2);
    expect(operation).toBeNull();
    expect(await jobStates()).toEqual(before);
    const [rows] = await db.pool.query<RowDataPacket[]>('SELECT COUNT(*) AS n FROM operations');
    expect(Number(rows[0]!.n)).toBe(0);
  });
});

describe('the other actions', () => {
  it('redrive by task makes its dead jobs pending as a new attempt group; its other jobs stay', async () => {
    const task = await createTask(db.pool, cronTask(tenantId));
    const other = await createTask(db.pool, cronTask(tenantId));
    const dead = await insertJobs(
      db.pool,
      Array.from({ length: 12 }, (_, i) => ({
        tenantId,
        taskId: task.id,
        scheduledFor: ago(500 - i),
        state: 'dead' as const,
      })),
    );
    const rest = await insertJobs(db.pool, [
      { tenantId, taskId: task.id, scheduledFor: ago(100), state: 'succeeded' },
      { tenantId, taskId: other.id, scheduledFor: ago(100), state: 'dead' },
    ]);
    const before = await jobStates();
    const { matched, operation } = await start('redrive', { taskId: task.id });
    expect(matched).toBe(12);
    await takeOperation(db.pool, 'w:1', 30_000);
    await runOperationBatch(db.pool, operation!.id, 'w:1', OPTIONS);
    // The first batch's jobs fail again before the operation ends: it goes on after its cursor and
    // never redrives a job twice.
    const firstBatch = dead.slice(0, 10).map(idToBin);
    await db.pool.query("UPDATE jobs SET state = 'dead' WHERE id IN (?)", [firstBatch]);
    expect(await runBatches(operation!.id, 'w:1')).toMatchObject({
      operation: { state: 'succeeded', done: 12 },
    });
    const after = await jobStates();
    for (const j of dead.slice(0, 10)) expect(after.get(j)).toMatchObject({ state: 'dead', group: 2 });
    for (const j of dead.slice(10)) expect(after.get(j)).toMatchObject({ state: 'pending', group: 2 });
    for (const j of rest) expect(after.get(j)).toEqual(before.get(j));
  });

  it('redrive by the text of a last error (ignoring case) within a time range, or a task: only the jobs whose error holds it', async () => {
    const task = await createTask(db.pool, cronTask(tenantId));
    const dead = (n: number, from: number, taskId: string | null = null) =>
      Array.from({ length: n }, (_, i) => ({
        tenantId,
        taskId,
        scheduledFor: ago(from - i),
        state: 'dead' as const,
      }));
    const [unavailable, refused, ofTask] = await Promise.all([
      insertJobs(db.pool, dead(3, 900)),
      insertJobs(db.pool, dead(2, 800)),
      insertJobs(db.pool, dead(2, 700, task.id)),
    ]);
    const setError = (ids: string[], error: string) =>
      db.pool.query('UPDATE jobs SET last_error = ? WHERE id IN (?)', [error, ids.map(idToBin)]);
    await setError(unavailable, 'HTTP 503: Service Unavailable');
    await setError(refused, 'connect ECONNREFUSED 127.0.0.1:9');
    await setError(ofTask, 'HTTP 503: Service Unavailable');
    const before = await jobStates();
    const range = { from: ago(1000).toISOString(), to: ago(750).toISOString() };
    const { matched, operation } = await start('redrive', { ...range, errorContains: 'SERVICE unavail' });
    expect(matched).toBe(3);
    await takeOperation(db.pool, 'w:1', 30_000);
    expect(await runBatches(operation!.id, 'w:1')).toMatchObject({
      operation: { state: 'succeeded', done: 3 },
    });
    const after = await jobStates();
    for (const j of unavailable) expect(after.get(j)).toMatchObject({ state: 'pending', group: 2 });
    for (const j of [...refused, ...ofTask]) expect(after.get(j)).toEqual(before.get(j));
    // By task: the same text, the task's two.
    const byTask = await start('redrive', { taskId: task.id, errorContains: 'service unavailable' }, true);
    expect(byTask.matched).toBe(2);
    expect((await start('redrive', { taskId: task.id, errorContains: 'ECONNREFUSED' }, true)).matched).toBe(
      0,
    );
  });

  it('retry by time range makes jobs waiting out a backoff due now, and only those', async () => {
    const jobs = await insertJobs(db.pool, [
      { tenantId, taskId: null, scheduledFor: ago(300), state: 'pending', attempt: 1 },
      { tenantId, taskId: null, scheduledFor: ago(290), state: 'pending', attempt: 2 },
      { tenantId, taskId: null, scheduledFor: ago(280), state: 'pending', attempt: 0 },
      { tenantId, taskId: null, scheduledFor: ago(50), state: 'pending', attempt: 1 },
      { tenantId, taskId: null, scheduledFor: ago(270), state: 'pending', attempt: 1 },
    ]);
    await db.pool.query('UPDATE jobs SET run_at = NOW(3) + INTERVAL 1 HOUR');
    // The last is held (its paused run's resume makes it due): not a retry's to hurry.
    await db.pool.query('UPDATE jobs SET held = 1 WHERE id = ?', [idToBin(jobs[4]!)]);
    const before = await jobStates();
    const { matched, operation } = await start('retry', {
      from: ago(400).toISOString(),
      to: ago(200).toISOString(),
    });
    expect(matched).toBe(2);
    await takeOperation(db.pool, 'w:1', 30_000);
    expect(await runBatches(operation!.id, 'w:1')).toMatchObject({
      operation: { state: 'succeeded', done: 2 },
    });
    const after = await jobStates();
    for (const j of jobs.slice(0, 2)) expect(after.get(j)!.runAt).toBeLessThan(Date.now() + 60_000);
    for (const j of jobs.slice(2)) expect(after.get(j)).toEqual(before.get(j));
  });

  it('pause and resume by tag change the tagged tasks, and resume only paused ones', async () => {
    const tagged = await Promise.all(
      Array.from({ length: 13 }, () => createTask(db.pool, cronTask(tenantId, { tags: { team: 'a' } }))),
    );
    const others = [
      await createTask(db.pool, cronTask(tenantId, { tags: { team: 'b' } })),
      await createTask(db.pool, cronTask(otherTenant, { tags: { team: 'a' } })),
    ];
    const states = async () => {
      const [rows] = await db.pool.query<RowDataPacket[]>('SELECT id, state FROM tasks');
      return new Map(rows.map((r) => [binToId(r.id), r.state as string]));
    };
    const pause = await start('pause', { tag: 'team:a' });
    expect(pause.matched).toBe(13);
    await takeOperation(db.pool, 'w:1', 30_000);
    expect(await runBatches(pause.operation!.id, 'w:1')).toMatchObject({
      operation: { state: 'succeeded', done: 13 },
    });
    let now = await states();
    for (const t of tagged) expect(now.get(t.id)).toBe('paused');
    for (const t of others) expect(now.get(t.id)).toBe('active');

    const resume = await start('resume', { taskId: tagged[0]!.id });
    expect(resume.matched).toBe(1);
    await takeOperation(db.pool, 'w:1', 30_000);
    expect(await runBatches(resume.operation!.id, 'w:1')).toMatchObject({
      operation: { state: 'succeeded', done: 1 },
    });
    now = await states();
    expect(tagged.map((t) => now.get(t.id)).filter((s) => s === 'active')).toHaveLength(1);
  });
});

it('lists the tenant’s operations newest first, and another tenant sees none of them', async () => {
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) ids.push((await start('cancel', { tag: `n:${i}` })).operation!.id);
  const first = await listOperations(db.pool, tenantId, null, 2);
  expect(first.map((o) => o.id)).toEqual([ids[2], ids[1]]);
  const next = await listOperations(db.pool, tenantId, ids[1]!, 2);
  expect(next.map((o) => o.id)).toEqual([ids[0]]);
  expect(await listOperations(db.pool, otherTenant, null, 10)).toEqual([]);
  expect(await getOperation(db.pool, otherTenant, ids[0]!)).toBeNull();
  await releaseOperation(db.pool, ids[0]!, 'nobody');
});
