import { deleteTask, newId } from '@dsched/domain';
import { idToBin } from '@dsched/mysql/ids';
import { withRows } from '@dsched/mysql/sql';
import { createTenantWithKey, cronTask } from '@dsched/testkit/fixtures';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import {
  itRoutesToOneShard,
  productSql,
  routeOf,
  shardsIn,
  singleModePool,
} from '@dsched/testkit/vitess-routes';
import { submitWorkflow } from '@dsched/testkit/workflows';
import type { RowDataPacket } from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { changeTask, insertTaskWithinQuota } from '../src/tasks/index.ts';
import { cancelWorkflow } from '../src/workflows/index.ts';

// A tenant's task quota (`tenants.task_count`, in dsched_global) beside its tasks and runs (in a
// shard of dsched), never in one transaction with them (docs/sharding.md, "Non-hot paths"): each
// quota statement reaches dsched_global alone, and the product's creates and deletes run through
// sessions in vtgate's single transaction mode, where a transaction that reached both keyspaces
// would fail ("multi-db transaction attempted"). Runs on the Vitess leg only (vitess-*.test.ts).
// Watched failing with the reservation back inside the task's transaction (task-changes.ts before
// task-quota.ts): the create failed with "multi-db transaction attempted"; and with the run's end
// writing tenants in its transaction again (before D61): the cancel failed the same way.
const db = useTestDatabase(import.meta.url);

/** Sessions in single transaction mode, whatever vtgate's default. */
const single = singleModePool(db);

const TENANT = idToBin(newId());

const QUOTA: Record<string, { sql: string; params: unknown[] }> = {
  "a create's reservation (reserve-task-quotas)": {
    sql: productSql('tasks/reserve-task-quotas.sql'),
    params: [1, TENANT, 1],
  },
  "a delete's or a failed create's give-back (release-task-quota)": {
    sql: productSql('tasks/release-task-quota.sql'),
    params: [1, 1, TENANT],
  },
};

const quotaRelease = withRows(
  productSql('workflows/workflow-quota-release.sql'),
  ['tenant_id', 'n'],
  [[TENANT, 2]],
);
QUOTA["a run's end, after its commit: the places given back (workflow-quota-release)"] = {
  sql: quotaRelease.sql,
  params: quotaRelease.params,
};

/** Runs of the group's partitions (ids carry their partition). */
const runs = (partitions: number[]) => partitions.map((p) => idToBin(newId(Date.now(), p)));

/** A run's end marks its row, and its place is given back after the commit (D61): the run's shard alone. */
const RUN_QUOTA = {
  "a run's end marks it owing its place (run-quota-mark)": {
    file: 'workflows/run-quota-mark.sql',
    params: (p: number[]) => [p, runs(p)],
  },
  'after the commit: the marked runs of a batch (run-quota-peek)': {
    file: 'workflows/run-quota-peek.sql',
    params: (p: number[]) => [p, runs(p)],
  },
  "the reconciler's pass: the marked runs of a group (run-quota-marked)": {
    file: 'workflows/run-quota-marked.sql',
    params: (p: number[]) => [p, 100],
  },
  'the marks locked (run-quota-lock)': {
    file: 'workflows/run-quota-lock.sql',
    params: (p: number[]) => [p, runs(p)],
  },
  'the marks cleared (run-quota-clear)': {
    file: 'workflows/run-quota-clear.sql',
    params: (p: number[]) => [p, runs(p)],
  },
};

async function taskCount(tenantId: string): Promise<number> {
  const [rows] = await db.pool.query<RowDataPacket[]>('SELECT task_count FROM tenants WHERE id = ?', [
    idToBin(tenantId),
  ]);
  return Number(rows[0]!.task_count);
}

describe("a run's place in the quota through vtgate (D61)", () => {
  itRoutesToOneShard(db, RUN_QUOTA);
});

describe("a tenant's task quota through vtgate", () => {
  for (const [name, s] of Object.entries(QUOTA)) {
    it(`${name} goes to dsched_global alone, never to a shard of dsched`, async () => {
      const route = await routeOf(db.pool, s.sql, s.params);
      expect(shardsIn(route)).toEqual([]);
      expect(shardsIn(route, 'dsched_global')).toHaveLength(1);
    });
  }

  it('creates of tasks on both shards and a run cancelled in single transaction mode; the quota beside a run submitted and a task deleted', async () => {
    const tenant = await createTenantWithKey(single.pool);
    await single.pool.query('UPDATE tenants SET max_tasks = 3 WHERE id = ?', [idToBin(tenant.id)]);
    const even = cronTask(tenant.id, { key: 'even' });
    expect(await insertTaskWithinQuota(single.pool, even, 2)).toBe(true);
    expect(await insertTaskWithinQuota(single.pool, cronTask(tenant.id, { key: 'odd' }), 3)).toBe(true);
    // A key taken: the insert fails on its shard, the place comes back from dsched_global.
    await expect(
      insertTaskWithinQuota(single.pool, cronTask(tenant.id, { key: 'odd' }), 5),
    ).rejects.toMatchObject({
      code: 'conflict',
    });
    expect(await taskCount(tenant.id)).toBe(2);
    // A run's submission and a task's delete in single mode (vitess-routes-submit.test.ts,
    // vitess-routes-task.test.ts): the quota is outside their transactions.
    const wf = await submitWorkflow(single.pool, tenant.id, [{ id: 'a' }], { partition: 7 });
    expect(await taskCount(tenant.id)).toBe(3);
    // A run's end in single mode: marked in the run's transaction, given back after it (D61).
    expect(await cancelWorkflow(single.pool, tenant.id, wf.id)).toBe('done');
    expect(await taskCount(tenant.id)).toBe(2);
    await submitWorkflow(single.pool, tenant.id, [{ id: 'a' }], { partition: 7 });
    expect(await taskCount(tenant.id)).toBe(3);
    expect((await changeTask(single.pool, tenant.id, even.id, deleteTask))?.changed).toBe(true);
    expect(await taskCount(tenant.id)).toBe(2);
  });
});
