import { createTenantWithKey, cronTask } from '@dsched/testkit/fixtures';
import { TEST_GROUPS } from '@dsched/testkit/mysql';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import { submitWorkflow } from '@dsched/testkit/workflows';
import type { RowDataPacket } from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { idToBin } from '../src/ids.ts';
import { insertTaskWithinQuota, recountAllTaskCounts, recountTaskCounts } from '../src/tasks/index.ts';
import { reserveTaskQuota, withTaskQuota } from '../src/tasks/task-quota.ts';
import { insertTask } from '../src/tasks/task-store.ts';
import { withTransaction } from '../src/transaction.ts';
import { stopRuns } from '../src/workflows/workflow-runs.ts';

// The reconciler's recount of the task quota (task-count-recount.ts, D63): a count a crash left
// high (a reservation whose task never committed, a delete or a run's end whose place was never
// given back) is lowered to what the tenant holds, counted shard by shard; a create in flight
// during the pass keeps its place. On MariaDB, MySQL 9.7 and through vtgate (the Vitess leg: the
// tasks and runs on both shards, each count keyed by one shard's partitions).

const db = useTestDatabase(import.meta.url);

async function taskCount(tenantId: string): Promise<number> {
  const [rows] = await db.pool.query<RowDataPacket[]>('SELECT task_count FROM tenants WHERE id = ?', [
    idToBin(tenantId),
  ]);
  return Number(rows[0]!.task_count);
}

/** Every tenant recounted, two to a page (so the pages turn), `settle` between each page's counts. */
const recount = (settle: () => Promise<unknown> = async () => undefined) =>
  recountAllTaskCounts(db.pool, { groups: () => TEST_GROUPS, limit: 2, settle });

/** A tenant with two tasks and a running run, on partitions of both shards (even and odd). */
async function tenantHolding3() {
  const tenant = await createTenantWithKey(db.pool);
  expect(await insertTaskWithinQuota(db.pool, cronTask(tenant.id), 2)).toBe(true);
  expect(await insertTaskWithinQuota(db.pool, cronTask(tenant.id), 3)).toBe(true);
  await submitWorkflow(db.pool, tenant.id, [{ id: 'a', kind: 'sleep', sleep: { for: '1h' } }], {
    partition: 5,
  });
  expect(await taskCount(tenant.id)).toBe(3);
  return tenant;
}

/** The tenant's page alone (it starts just before its id), `settle` between its two counts. */
async function recountOne(tenantId: string, settle: () => Promise<unknown>) {
  const id = BigInt(`0x${idToBin(tenantId).toString('hex')}`);
  const before = Buffer.from((id - 1n).toString(16).padStart(32, '0'), 'hex');
  const pass = await recountTaskCounts(db.pool, { groups: TEST_GROUPS, after: before, limit: 1, settle });
  return pass.corrected;
}

describe("the reconciler's recount of the task quota", () => {
  it('lowers a count a crash left high to the tasks and runs the tenant holds, once; never raises one', async () => {
    const tenant = await tenantHolding3();
    // A run ended with its place still owed (the ender died after its commit): still held.
    const owed = await submitWorkflow(
      db.pool,
      tenant.id,
      [{ id: 'b', kind: 'sleep', sleep: { for: '1h' } }],
      {
        partition: 6,
      },
    );
    await withTransaction(db.pool, (conn) =>
      stopRuns(conn, [{ id: idToBin(owed.id), partition: owed.partition }], 'cancelled'),
    );
    // Two reservations whose process died before the tasks' commits, and a delete that committed
    // (on the other shard) with the process dead before giving the place back.
    expect(await reserveTaskQuota(db.pool, tenant.id, 2)).toBe(true);
    const gone = cronTask(tenant.id);
    expect(await insertTaskWithinQuota(db.pool, gone, 7)).toBe(true);
    await db.pool.query("UPDATE tasks SET state = 'deleted' WHERE `partition` = ? AND id = ?", [
      7,
      idToBin(gone.id),
    ]);
    expect(await taskCount(tenant.id)).toBe(7);
    expect(await recount()).toBeGreaterThanOrEqual(1);
    expect(await taskCount(tenant.id)).toBe(4);
    expect(await recount()).toBe(0);
    expect(await taskCount(tenant.id)).toBe(4);
    // Below what it holds (not what a crash leaves): left alone.
    await db.pool.query('UPDATE tenants SET task_count = 1 WHERE id = ?', [idToBin(tenant.id)]);
    await recount();
    expect(await taskCount(tenant.id)).toBe(1);
  });

  it('does not undo a create in flight: reserved before the pass read the count, committed between its two counts', async () => {
    const tenant = await tenantHolding3();
    expect(await reserveTaskQuota(db.pool, tenant.id, 1)).toBe(true); // a crash's: one high
    // The create's reservation is in the count the pass reads first; its task commits while the
    // pass waits between its counts (the first does not see it, the second does).
    let commit!: () => void;
    const committed = new Promise<void>((resolve) => {
      commit = resolve;
    });
    const create = withTaskQuota(db.pool, tenant.id, 1, async () => {
      await committed;
      await insertTask(db.pool, cronTask(tenant.id), 8);
    });
    await expect.poll(() => taskCount(tenant.id)).toBe(5);
    expect(
      await recountOne(tenant.id, async () => {
        commit();
        await create;
      }),
    ).toBe(0);
    // The two counts differed: the tenant left to the next pass, the create's place kept.
    expect(await taskCount(tenant.id)).toBe(5);
    expect(await recountOne(tenant.id, async () => undefined)).toBe(1);
    expect(await taskCount(tenant.id)).toBe(4);
  });

  it('does not undo a create in flight: reserved while the pass counts, committed after it', async () => {
    const tenant = await tenantHolding3();
    expect(await reserveTaskQuota(db.pool, tenant.id, 1)).toBe(true); // a crash's: one high
    // The create reserves after the pass read the count; its task commits after the pass wrote.
    expect(
      await recountOne(tenant.id, async () =>
        expect(await reserveTaskQuota(db.pool, tenant.id, 1)).toBe(true),
      ),
    ).toBe(0);
    await insertTask(db.pool, cronTask(tenant.id), 9);
    // The count had changed since the pass read it: not written, the create's place kept.
    expect(await taskCount(tenant.id)).toBe(5);
    expect(await recountOne(tenant.id, async () => undefined)).toBe(1);
    expect(await taskCount(tenant.id)).toBe(4);
  });
});
