import { newId, type OperationFilter } from '@dsched/domain';
import { createTenantWithKey, insertJobs } from '@dsched/testkit/fixtures';
import { eventually } from '@dsched/testkit/services';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import type { RowDataPacket } from 'mysql2/promise';
import { expect, it } from 'vitest';
import { startOperation } from '../src/operations/index.ts';

// A bulk operation's count runs before and outside the transaction that stores the operation
// (operation-store.ts): through vtgate a tag walk's count is thousands of shard queries, and in the
// transaction vttablet's killer ended it at 30 s (docs/vitess.md; `bulk-operations`' dry run
// answered 500). Seen here on one server: while the operation's insert waits on a lock, its
// transaction holds nothing of the tables the count read, so a change of job_tags' definition
// (which waits for every transaction that read the table) goes through at once.
const db = useTestDatabase(import.meta.url);

const FILTER: OperationFilter = {
  taskId: null,
  tags: { bulk: 'yes' },
  state: null,
  from: null,
  to: null,
  errorContains: null,
};

it('counts outside the transaction that stores the operation', async () => {
  const tenant = await createTenantWithKey(db.pool);
  await insertJobs(
    db.pool,
    Array.from({ length: 3 }, (_, i) => ({
      tenantId: tenant.id,
      taskId: null,
      scheduledFor: new Date(Date.now() + 3600_000 + i * 1000),
      state: 'pending' as const,
      tags: { bulk: 'yes' },
    })),
  );
  // Another session holds the operations table: the operation's insert waits for it.
  const holder = await db.pool.getConnection();
  const other = await db.pool.getConnection();
  try {
    await holder.query('LOCK TABLES operations WRITE');
    const started = startOperation(db.pool, {
      id: newId(),
      tenantId: tenant.id,
      action: 'cancel',
      filter: FILTER,
      dryRun: false,
    });
    await eventually(async () => {
      const [rows] = await other.query<RowDataPacket[]>(
        `SELECT 1 FROM information_schema.processlist
          WHERE state LIKE 'Waiting for table metadata lock%' AND info LIKE '%INSERT INTO operations%'`,
      );
      return rows.length > 0 ? true : undefined;
    }, 10_000);
    await other.query('SET SESSION lock_wait_timeout = 2');
    const altered = await other
      .query("ALTER TABLE job_tags COMMENT = 'operation-count-outside'")
      .then(() => 'altered')
      .catch((err: Error) => err.message);
    await holder.query('UNLOCK TABLES');
    expect(await started).toMatchObject({ matched: 3, operation: { state: 'running', matched: 3 } });
    expect(altered).toBe('altered');
  } finally {
    holder.release();
    other.release();
  }
});
