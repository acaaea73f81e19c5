import { cassandraSettings, connectCassandra, pingCassandra } from '@dsched/cassandra/client';
import { connectMysql, pingMysql } from '@dsched/mysql/pool';
import { createShardMap, refreshOnFailure, shardMapOptions } from '@dsched/mysql/shards';
import { exitOnStartupError, instanceId, Loop, runWorker } from '@dsched/runtime';
import { traceHistoryWrites } from './adapters/archive-tracing.ts';
import { failpoint } from './adapters/failpoint.ts';
import {
  cassandraHistoryWriter,
  cassandraWorkflowHistoryWriter,
  mysqlDeliveryBacklog,
  mysqlFinishedJobSource,
  mysqlFinishedWorkflowSource,
} from './adapters/stores.ts';
import { type ArchiverConfig, loadArchiverConfig } from './config.ts';
import { Archiver } from './core/archive.ts';
import { WorkflowArchiver } from './core/archive-workflows.ts';
import { ArchiverMetrics } from './metrics.ts';

async function main(config: ArchiverConfig): Promise<void> {
  const pool = await connectMysql(config.DATABASE_URL, config.DATABASE_POOL_SIZE);
  const cassandra = await connectCassandra(cassandraSettings(config));
  // The partition groups the archiver works by, one per shard on Vitess (docs/sharding.md).
  const shards = await createShardMap(pool, shardMapOptions(config));
  await runWorker({
    service: 'archiver',
    logLevel: config.LOG_LEVEL,
    metricsPort: config.METRICS_PORT,
    graceMs: config.SHUTDOWN_GRACE_MS,
    otel: config,
    instanceId: instanceId('archiver', config.INSTANCE_ID),
    build: async ({ logger, registry, traces }) => {
      const metrics = new ArchiverMetrics(registry);
      const historyWrites = {
        ttlSeconds: config.HISTORY_TTL_DAYS * 86_400,
        concurrency: config.ARCHIVER_CONCURRENCY,
      };
      const workflows = new WorkflowArchiver({
        source: mysqlFinishedWorkflowSource(pool, { deadRetentionSeconds: config.DLQ_RETENTION_S }),
        write: cassandraWorkflowHistoryWriter(cassandra, historyWrites),
        metrics,
        batchSize: config.ARCHIVER_WORKFLOW_BATCH_SIZE,
        deleteBatchSize: config.ARCHIVER_WORKFLOW_DELETE_BATCH,
        afterWrite: failpoint(config.ARCHIVER_FAILPOINT, 'after-workflow-history-write'),
        groups: () => shards.groups(),
      });
      const archiver = new Archiver({
        source: mysqlFinishedJobSource(pool, { deadRetentionSeconds: config.DLQ_RETENTION_S }),
        write: traceHistoryWrites(cassandraHistoryWriter(cassandra, historyWrites), traces),
        metrics,
        batchSize: config.ARCHIVER_BATCH_SIZE,
        afterWrite: failpoint(config.ARCHIVER_FAILPOINT, 'after-history-write'),
        workflows,
        groups: () => shards.groups(),
        yieldTo: {
          backlog: mysqlDeliveryBacklog(pool),
          threshold: config.ARCHIVER_YIELD_BACKLOG,
          maxYieldMs: config.ARCHIVER_MAX_YIELD_MS,
          now: () => performance.now(),
        },
      });
      return {
        loops: [
          new Loop({
            name: 'archive',
            // A pass that fails may have met a shard map a moment old (a resharding's cut-over).
            runOnce: refreshOnFailure(shards, () => archiver.runOnce()),
            intervalMs: config.ARCHIVER_INTERVAL_MS,
            logger,
          }),
        ],
        ready: async () => {
          await pingMysql(pool);
          await pingCassandra(cassandra);
        },
        stopSteps: [
          { name: 'shard map', run: async () => shards.close() },
          { name: 'mysql', run: () => pool.end() },
          { name: 'cassandra', run: () => cassandra.shutdown() },
        ],
      };
    },
  });
}

try {
  await main(loadArchiverConfig(process.env));
} catch (err) {
  exitOnStartupError('archiver', err);
}
