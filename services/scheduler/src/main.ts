import { randomBytes } from 'node:crypto';
import { connectMysql, pingMysql } from '@dsched/mysql/pool';
import { createShardMap, shardMapOptions } from '@dsched/mysql/shards';
import { exitOnStartupError, instanceId, Loop, runWorker } from '@dsched/runtime';
import { mysqlDueMaterialiser, mysqlPartitionLeases } from './adapters/mysql.ts';
import { loadSchedulerConfig, type SchedulerConfig } from './config.ts';
import { PartitionLeaseKeeper } from './core/partition-leases.ts';
import { SchedulerTick } from './core/tick.ts';
import { SchedulerMetrics } from './metrics.ts';
import type { PartitionScope } from './ports.ts';

async function main(config: SchedulerConfig): Promise<void> {
  const pool = await connectMysql(config.DATABASE_URL, config.DATABASE_POOL_SIZE);
  await runWorker({
    service: 'scheduler',
    logLevel: config.LOG_LEVEL,
    metricsPort: config.METRICS_PORT,
    graceMs: config.SHUTDOWN_GRACE_MS,
    otel: config,
    instanceId: instanceId('scheduler', config.INSTANCE_ID),
    build: async ({ logger, registry, traces }) => {
      const metrics = new SchedulerMetrics(registry);
      // Each batch is drawn from the partitions of one shard (docs/sharding.md); a keyspace vtgate
      // does not serve stops the service here.
      const shards = await createShardMap(
        pool,
        shardMapOptions(config, (err) =>
          logger.warn({ err }, 'shard map refresh failed; keeping the last one'),
        ),
      );
      // One holder id per process start, so a restarted replica never mistakes old leases for its own.
      const holder = `${instanceId('scheduler', config.INSTANCE_ID)}#${randomBytes(4).toString('hex')}`;
      const keeper = new PartitionLeaseKeeper({
        store: mysqlPartitionLeases(pool),
        metrics,
        holder,
        partitions: config.SCHEDULER_PARTITIONS,
        ttlMs: config.SCHEDULER_LEASE_TTL_MS,
      });
      const leased = config.SCHEDULER_LEASES === 'on';
      const all = Array.from({ length: config.SCHEDULER_PARTITIONS }, (_, i) => i);
      const scope = (): PartitionScope => (leased ? { holder, held: keeper.held() } : { unleased: all });
      if (leased) await keeper.start();
      else
        logger.warn('SCHEDULER_LEASES=off: test-only mode, every partition is materialised without a lease');
      const tick = new SchedulerTick({
        materialise: mysqlDueMaterialiser(pool, {
          lookaheadMs: config.SCHEDULER_LOOKAHEAD_S * 1000,
          batchSize: config.SCHEDULER_BATCH_SIZE,
          births: traces.bornBatch,
        }),
        limits: {
          maxJobs: config.SCHEDULER_MAX_JOBS_PER_BATCH,
          plan: {
            misfireThresholdMs: config.SCHEDULER_MISFIRE_THRESHOLD_S * 1000,
            maxCatchUp: config.SCHEDULER_MISFIRE_MAX_CATCHUP,
            maxPerPass: config.SCHEDULER_MAX_OCCURRENCES_PER_TASK,
          },
        },
        scope,
        shardOf: (partition) => shards.groupOf(partition).shard,
        onLost: (partitions) => {
          logger.warn({ partitions }, 'partition leases lost: no longer materialising them');
          keeper.lost(partitions);
        },
        metrics,
        maxBatchesPerTick: config.SCHEDULER_MAX_BATCHES_PER_TICK,
      });
      const loops = [
        new Loop({
          name: 'tick',
          // A failed batch may have met a shard map a moment old (a resharding's cut-over): read it again.
          runOnce: () =>
            tick.runOnce().catch(async (err: unknown) => {
              await shards.refresh().catch(() => undefined);
              throw err;
            }),
          intervalMs: config.SCHEDULER_TICK_MS,
          logger,
        }),
      ];
      let unwatch: () => void = () => undefined;
      if (leased) {
        loops.push(
          new Loop({
            name: 'leases',
            runOnce: () => keeper.runOnce(),
            intervalMs: config.SCHEDULER_LEASE_CHECK_MS,
            logger,
          }),
        );
        unwatch = keeper.watch(() => {
          logger.fatal({ ttlMs: config.SCHEDULER_LEASE_TTL_MS }, 'no lease renewal for a whole TTL: exiting');
          process.exit(70);
        });
      }
      logger.info(
        { holder, partitions: config.SCHEDULER_PARTITIONS, leases: config.SCHEDULER_LEASES },
        'scheduler',
      );
      return {
        loops,
        ready: () => pingMysql(pool),
        stopSteps: [
          {
            name: 'leases',
            run: async () => {
              unwatch();
              if (leased) await keeper.stop();
            },
          },
          {
            name: 'mysql',
            run: () => {
              shards.close();
              return pool.end();
            },
          },
        ],
      };
    },
  });
}

try {
  await main(loadSchedulerConfig(process.env));
} catch (err) {
  exitOnStartupError('scheduler', err);
}
