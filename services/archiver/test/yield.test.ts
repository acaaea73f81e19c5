import { DEFAULT_PARTITIONS, partitionGroups } from '@dsched/domain';
import type { RowDataPacket } from '@dsched/mysql/pool';
import { createTenantWithKey, insertJobs } from '@dsched/testkit/fixtures';
import { useTestStores } from '@dsched/testkit/test-stores';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import {
  cassandraHistoryWriter,
  mysqlDeliveryBacklog,
  mysqlFinishedJobSource,
} from '../src/adapters/stores.ts';
import { Archiver } from '../src/core/archive.ts';
import { ArchiverMetrics } from '../src/metrics.ts';

// The archiver defers to delivery: while due jobs wait it writes nothing, for at most its bound.
const { db, ks } = useTestStores(import.meta.url);

const ago = (s: number) => new Date(Date.now() - s * 1000);

async function count(state: string): Promise<number> {
  const [rows] = await db.pool.query<RowDataPacket[]>('SELECT COUNT(*) AS n FROM jobs WHERE state = ?', [
    state,
  ]);
  return Number(rows[0]!.n);
}

describe('archiver yield', () => {
  it('defers while a ready backlog waits, resumes past its bound, and archives once delivery is idle', async () => {
    const { id: tenantId } = await createTenantWithKey(db.pool);
    await insertJobs(db.pool, [
      ...Array.from({ length: 3 }, () => ({
        tenantId,
        taskId: null,
        scheduledFor: ago(60),
        state: 'succeeded' as const,
      })),
      ...Array.from({ length: 4 }, () => ({
        tenantId,
        taskId: null,
        scheduledFor: ago(1),
        state: 'pending' as const,
      })),
    ]);
    let clock = 0;
    const registry = new Registry();
    const metrics = new ArchiverMetrics(registry);
    const archiver = new Archiver({
      source: mysqlFinishedJobSource(db.pool, { deadRetentionSeconds: 3600 }),
      write: cassandraHistoryWriter(ks.client, { ttlSeconds: 3600, concurrency: 4 }),
      metrics,
      batchSize: 1,
      groups: () => partitionGroups(DEFAULT_PARTITIONS, []),
      yieldTo: { backlog: mysqlDeliveryBacklog(db.pool), threshold: 4, maxYieldMs: 1000, now: () => clock },
    });

    await archiver.runOnce();
    clock += 999;
    await archiver.runOnce();
    expect(await count('succeeded')).toBe(3);
    expect((await registry.getSingleMetric('dsched_archiver_yielding')!.get()).values[0]!.value).toBe(1);

    clock += 1; // the yield has lasted its bound: archiving resumes although the backlog remains
    await archiver.runOnce();
    expect(await count('succeeded')).toBe(2);

    // Below the threshold (3 due of 4) delivery counts as idle: the yield ends.
    await db.pool.query("DELETE FROM jobs WHERE state = 'pending' LIMIT 1");
    clock = 0;
    await archiver.runOnce();
    expect(await count('succeeded')).toBe(1);
    expect((await registry.getSingleMetric('dsched_archiver_yielding')!.get()).values[0]!.value).toBe(0);

    // A new backlog starts a new yield, measured from its own start.
    await insertJobs(db.pool, [{ tenantId, taskId: null, scheduledFor: ago(1), state: 'pending' }]);
    await archiver.runOnce();
    expect(await count('succeeded')).toBe(1);
  });
});
