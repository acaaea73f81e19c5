import { cassandraSettings, connectCassandra } from '@dsched/cassandra/client';
import { connectMysql, pingMysql } from '@dsched/mysql/pool';
import { createShardMap, shardMapOptions } from '@dsched/mysql/shards';
import { exitOnStartupError, instanceId, runApi } from '@dsched/runtime';
import { buildApp } from './app.ts';
import { type JobApiConfig, loadJobApiConfig } from './config.ts';
import { jobApiDeps } from './deps.ts';

async function main(config: JobApiConfig): Promise<void> {
  const pool = await connectMysql(config.DATABASE_URL, config.DATABASE_POOL_SIZE);
  const cassandra = await connectCassandra(cassandraSettings(config));
  // The partition groups a redrive works by, one per shard on Vitess (docs/sharding.md).
  const shards = await createShardMap(pool, shardMapOptions(config));
  await runApi({
    service: 'job-api',
    logLevel: config.LOG_LEVEL,
    port: config.JOB_API_PORT,
    host: config.JOB_API_HOST,
    graceMs: config.SHUTDOWN_GRACE_MS,
    otel: config,
    instanceId: instanceId('job-api', config.INSTANCE_ID),
    build: async ({ logger, registry, isShuttingDown, traces }) => ({
      app: buildApp({
        ...jobApiDeps({
          pool,
          cassandra,
          logger,
          registry,
          heartbeatExtendSeconds: config.JOB_API_HEARTBEAT_EXTEND_S,
          traces,
          shards,
        }),
        console: { taskApiUrl: config.CONSOLE_TASK_API_URL, traceUrl: config.CONSOLE_TRACE_URL },
        authThrottle: { maxFailures: config.AUTH_FAILURE_LIMIT, windowS: config.AUTH_FAILURE_WINDOW_S },
        trustProxy: config.TRUST_PROXY,
        // MySQL only: with Cassandra down, job-api still serves live jobs, heartbeats and
        // completions, and answers history with 503 (storeUnavailable). Unready on Cassandra, an
        // orchestrator would take every replica out of service and lose all of that.
        ready: () => pingMysql(pool),
        isShuttingDown,
      }),
      stopSteps: [
        { name: 'shard map', run: async () => shards.close() },
        { name: 'mysql', run: () => pool.end() },
        { name: 'cassandra', run: () => cassandra.shutdown() },
      ],
    }),
  });
}

try {
  await main(loadJobApiConfig(process.env));
} catch (err) {
  exitOnStartupError('job-api', err);
}
