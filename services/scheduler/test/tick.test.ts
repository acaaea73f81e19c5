import { newId, shardOfPartition } from '@dsched/domain';
import { idToBin } from '@dsched/mysql/ids';
import type { RowDataPacket } from '@dsched/mysql/pool';
import { createRegistry } from '@dsched/runtime';
import { useTestDatabase } from '@dsched/testkit/test-stores';
import { describe, expect, it } from 'vitest';
import { mysqlDueMaterialiser, mysqlPartitionLeases } from '../src/adapters/mysql.ts';
import { PartitionLeaseKeeper } from '../src/core/partition-leases.ts';
import { SchedulerTick } from '../src/core/tick.ts';
import { SchedulerMetrics } from '../src/metrics.ts';
import type { DueMaterialiser } from '../src/ports.ts';

// The tick through the real adapter: a due set larger than a batch drains within one tick, and
// a lease lost mid-tick stops that partition at once.

const db = useTestDatabase(import.meta.url);
const TENANT = newId();

async function count(sql: string): Promise<number> {
  const [[row]] = await db.pool.query<RowDataPacket[]>(sql);
  return Number(row!.n);
}

/** n active tasks due a second ago, spread over `partitions` partitions, one job each. */
async function dueTasks(n: number, partitions: number): Promise<void> {
  const schedule =
    '{"type":"cron","expression":"0 0 1 1 *","timezone":"UTC","dst":{"repeated":"first","skipped":"shift"}}';
  const target = '{"url":"http://127.0.0.1:9/","method":"POST","headers":{},"timeoutMs":1000}';
  const retry = '{"maxAttempts":3,"initialBackoffMs":100,"maxBackoffMs":1000,"rules":[]}';
  const due = new Date(Date.now() - 1000);
  const rows = Array.from({ length: n }, (_, i) => [
    idToBin(newId()),
    idToBin(TENANT),
    `t${i}`,
    schedule,
    target,
    2,
    'default',
    retry,
    'fire_once',
    'allow',
    'active',
    due,
    i % partitions,
    due,
    due,
  ]);
  await db.pool.query(
    `INSERT INTO tasks (id, tenant_id, name, schedule, target, priority, lane, retry, misfire_policy,
       overlap_policy, state, next_fire_at, \`partition\`, created_at, updated_at) VALUES ?`,
    [rows],
  );
}

/** A lease keeper holding every one of `partitions` partitions. */
async function startKeeper(metrics: SchedulerMetrics, holder: string, partitions: number) {
  const keeper = new PartitionLeaseKeeper({
    store: mysqlPartitionLeases(db.pool),
    metrics,
    holder,
    partitions,
    ttlMs: 60_000,
  });
  await keeper.start();
  return keeper;
}

/** Empty tables, `n` due tasks over `partitions` partitions, and a keeper holding them all. */
async function fresh(n: number, holder: string, partitions: number) {
  for (const table of ['jobs', 'tasks', 'leases']) await db.pool.query(`DELETE FROM ${table}`);
  await dueTasks(n, partitions);
  const metrics = new SchedulerMetrics(createRegistry('scheduler'));
  return { metrics, keeper: await startKeeper(metrics, holder, partitions) };
}

function tick(
  keeper: PartitionLeaseKeeper,
  metrics: SchedulerMetrics,
  batchSize: number,
  onLost = keeper.lost.bind(keeper),
  options: { shardOf?: (p: number) => string; materialise?: DueMaterialiser; maxBatches?: number } = {},
) {
  return new SchedulerTick({
    materialise:
      options.materialise ??
      mysqlDueMaterialiser(db.pool, {
        lookaheadMs: 0,
        batchSize,
      }),
    limits: { maxJobs: 5000, plan: { misfireThresholdMs: 60_000, maxCatchUp: 10, maxPerPass: 10 } },
    scope: () => ({ holder: keeper.holder, held: keeper.held() }),
    shardOf: options.shardOf ?? (() => '-'),
    onLost,
    metrics,
    maxBatchesPerTick: options.maxBatches ?? 100,
  });
}

describe('scheduler tick', () => {
  it('drains a due set of several batches within one tick and counts what it did', async () => {
    await dueTasks(2_500, 64);
    const metrics = new SchedulerMetrics(createRegistry('scheduler'));
    const keeper = await startKeeper(metrics, 'solo', 64);
    await tick(keeper, metrics, 1_000).runOnce();
    expect(await count('SELECT COUNT(*) AS n FROM jobs')).toBe(2_500);
    expect((await metrics.dueTasks.get()).values[0]!.value).toBe(2_500);
    expect((await metrics.jobsMaterialised.get()).values[0]!.value).toBe(2_500);
    expect(
      (await metrics.tickDuration.get()).values.find((v) => v.metricName?.endsWith('_count'))!.value,
    ).toBe(1);
    await keeper.stop();
  });

  it('stops materialising a partition the moment its lease is found taken', async () => {
    const { metrics, keeper } = await fresh(200, 'victim', 2);
    await db.pool.query(
      "UPDATE leases SET holder = 'thief', token = token + 1 WHERE name = 'scheduler.partition.0001'",
    );
    const lost: number[] = [];
    await tick(keeper, metrics, 50, (p) => {
      lost.push(...p);
      keeper.lost(p);
    }).runOnce();
    expect(lost).toEqual([1]);
    expect(keeper.held().map((h) => h.partition)).toEqual([0]);
    expect(
      await count(
        'SELECT COUNT(*) AS n FROM jobs j JOIN tasks t ON t.id = j.task_id WHERE t.`partition` = 1',
      ),
    ).toBe(0);
    expect(
      await count(
        'SELECT COUNT(*) AS n FROM jobs j JOIN tasks t ON t.id = j.task_id WHERE t.`partition` = 0',
      ),
    ).toBe(100);
    expect((await metrics.partitionsHeld.get()).values[0]!.value).toBe(1);
  });

  it('draws every batch from one shard’s partitions, the shards taking turns, and drains them all', async () => {
    const { metrics, keeper } = await fresh(600, 'grouped', 8);
    // Two shards, as reverse_bits places 8 partitions on them (even ones on -80, odd ones on 80-).
    const shardOf = (p: number) => shardOfPartition(p, ['-80', '80-']);
    const real = mysqlDueMaterialiser(db.pool, { lookaheadMs: 0, batchSize: 100 });
    const batches: string[][] = [];
    const recording: DueMaterialiser = (scope, decide) => {
      const partitions = 'held' in scope ? scope.held.map((h) => h.partition) : scope.unleased;
      batches.push([...new Set(partitions.map(shardOf))]);
      return real(scope, decide);
    };
    const more = await tick(keeper, metrics, 100, keeper.lost.bind(keeper), {
      shardOf,
      materialise: recording,
    }).runOnce();
    expect(more).toBe(false);
    expect(await count('SELECT COUNT(*) AS n FROM jobs')).toBe(600);
    // 300 due per shard, 100 a batch: two full batches each and a last one that comes back short.
    expect(batches).toEqual([['-80'], ['80-'], ['-80'], ['80-'], ['-80'], ['80-']]);
    // A cap that stops the tick with work left says so, and the next tick goes on with it.
    await db.pool.query('DELETE FROM jobs');
    await db.pool.query('UPDATE tasks SET next_fire_at = NOW(3) - INTERVAL 1 SECOND');
    batches.length = 0;
    const capped = tick(keeper, metrics, 100, keeper.lost.bind(keeper), {
      shardOf,
      materialise: recording,
      maxBatches: 3,
    });
    expect(await capped.runOnce()).toBe(true);
    expect(batches).toEqual([['-80'], ['80-'], ['-80']]);
    await keeper.stop();
  });
});
