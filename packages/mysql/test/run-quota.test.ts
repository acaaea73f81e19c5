import { createTenantWithKey } from '@dsched/testkit/fixtures';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import { drainNodeJobs, runState, submitWorkflow } from '@dsched/testkit/workflows';
import type { RowDataPacket } from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { idToBin } from '../src/ids.ts';
import { withTransaction } from '../src/transaction.ts';
import {
  cancelWorkflow,
  releaseMarkedRunQuotas,
  releaseRunQuotas,
  releaseRunQuotasOf,
} from '../src/workflows/index.ts';
import { stopRuns } from '../src/workflows/workflow-runs.ts';

// A run's place in its tenant's quota given back after the run's end committed, never in its
// transaction (decision D61, docs/sharding.md): the end marks the run's row, the outcome (or a
// cancel) gives the place back after its commit, and a mark a crash left behind is the
// reconciler's pass's. Only whoever clears a mark gives its place back: never twice.

const db = useTestDatabase(import.meta.url);

async function taskCount(tenantId: string): Promise<number> {
  const [rows] = await db.pool.query<RowDataPacket[]>('SELECT task_count FROM tenants WHERE id = ?', [
    idToBin(tenantId),
  ]);
  return Number(rows[0]!.task_count);
}

async function mark(id: string): Promise<number> {
  const [rows] = await db.pool.query<RowDataPacket[]>('SELECT quota_release FROM workflows WHERE id = ?', [
    idToBin(id),
  ]);
  return Number(rows[0]!.quota_release);
}

describe("a run's place in the quota", () => {
  it('is given back by the outcome that ended the run, after its commit, and by a cancel', async () => {
    const t = await createTenantWithKey(db.pool);
    const done = await submitWorkflow(db.pool, t.id, [{ id: 'a' }], { partition: 5 });
    const cancelled = await submitWorkflow(
      db.pool,
      t.id,
      [{ id: 'b', kind: 'sleep', sleep: { for: '1h' } }],
      {
        partition: 6,
      },
    );
    expect(await taskCount(t.id)).toBe(2);
    await drainNodeJobs(db.pool, () => 'succeeded');
    expect(await runState(db.pool, done)).toBe('succeeded');
    expect([await mark(done.id), await taskCount(t.id)]).toEqual([0, 1]);
    expect(await cancelWorkflow(db.pool, t.id, cancelled.id)).toBe('done');
    expect([await mark(cancelled.id), await taskCount(t.id)]).toEqual([0, 0]);
  });

  it("left owed by a crash after the run's commit, is given back once by the reconciler's pass", async () => {
    const t = await createTenantWithKey(db.pool);
    const runs = await Promise.all(
      [3, 7].map((partition) =>
        submitWorkflow(db.pool, t.id, [{ id: 'b', kind: 'sleep', sleep: { for: '1h' } }], { partition }),
      ),
    );
    expect(await taskCount(t.id)).toBe(2);
    // The runs' ends committed, and the process died before giving their places back.
    const keys = runs.map((r) => ({ id: idToBin(r.id), partition: r.partition }));
    await withTransaction(db.pool, (conn) => stopRuns(conn, keys, 'cancelled'));
    expect(await Promise.all(runs.map((r) => mark(r.id)))).toEqual([1, 1]);
    expect(await taskCount(t.id)).toBe(2);
    // Two givers at once (the pass and a late ender): each place is given back by one of them.
    const given = await Promise.all([
      releaseMarkedRunQuotas(db.pool, [3, 7], 10),
      releaseRunQuotas(db.pool, keys),
      releaseRunQuotas(db.pool, keys),
    ]);
    expect(given.reduce((a, b) => a + b, 0)).toBe(2);
    expect(await taskCount(t.id)).toBe(0);
    expect(await Promise.all(runs.map((r) => mark(r.id)))).toEqual([0, 0]);
    expect(await releaseMarkedRunQuotas(db.pool, [3, 7], 10)).toBe(0);
    expect(await taskCount(t.id)).toBe(0);
  });

  it('is not given back again by a giver that read the mark before another cleared it', async () => {
    const t = await createTenantWithKey(db.pool);
    const other = await createTenantWithKey(db.pool);
    const run = await submitWorkflow(db.pool, t.id, [{ id: 'b', kind: 'sleep', sleep: { for: '1h' } }], {
      partition: 9,
    });
    // A second task keeps the count above 0, so a place given back twice shows (the count does not
    // go below 0).
    await submitWorkflow(db.pool, t.id, [{ id: 'c', kind: 'sleep', sleep: { for: '1h' } }], { partition: 9 });
    await submitWorkflow(db.pool, other.id, [{ id: 'd' }], { partition: 9 });
    const keys = [{ id: idToBin(run.id), partition: run.partition }];
    await withTransaction(db.pool, (conn) => stopRuns(conn, keys, 'cancelled'));
    // Two givers read the mark; the first clears it and gives the place back.
    expect(await releaseRunQuotasOf(db.pool, keys)).toBe(1);
    expect([await mark(run.id), await taskCount(t.id)]).toEqual([0, 1]);
    // The second, with what it read before: nothing left to give (run-quota-lock's mark condition).
    expect(await releaseRunQuotasOf(db.pool, keys)).toBe(0);
    expect(await taskCount(t.id)).toBe(1);
    expect(await taskCount(other.id)).toBe(1);
  });
});
