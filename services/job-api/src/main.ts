import { cassandraSettings, connectCassandra, pingCassandra } from '@dsched/cassandra/client';
import { cancelJob, completeJob, heartbeatJob } from '@dsched/mysql/jobs/job-control';
import { connectMysql, pingMysql } from '@dsched/mysql/pool';
import { findTenantByKeyHash } from '@dsched/mysql/tenants/tenant-store';
import { createLogger, createRegistry, exitOnStartupError, handleShutdown } from '@dsched/runtime';
import {
  cassandraHistory,
  jobLookup,
  mysqlClock,
  mysqlDeadLetterQueue,
  mysqlLiveJobs,
} from './adapters/stores.ts';
import { buildApp } from './app.ts';
import { type JobApiConfig, loadJobApiConfig } from './config.ts';
import { JobApiMetrics } from './metrics.ts';

async function main(config: JobApiConfig): Promise<void> {
  const logger = createLogger('job-api', config.LOG_LEVEL);
  const registry = createRegistry('job-api');
  const pool = await connectMysql(config.DATABASE_URL, config.DATABASE_POOL_SIZE);
  const cassandra = await connectCassandra(cassandraSettings(config));
  let shuttingDown = () => false;
  const app = buildApp({
    logger,
    registry,
    ready: async () => {
      await pingMysql(pool);
      await pingCassandra(cassandra);
    },
    isShuttingDown: () => shuttingDown(),
    jobs: jobLookup(pool, cassandra),
    tenantByKey: (hash) => findTenantByKeyHash(pool, hash),
    live: mysqlLiveJobs(pool),
    history: cassandraHistory(cassandra),
    dlq: mysqlDeadLetterQueue(pool),
    now: mysqlClock(pool),
    control: {
      cancel: (tenantId, id) => cancelJob(pool, tenantId, id),
      heartbeat: (args) => heartbeatJob(pool, args),
      complete: (args, decide) => completeJob(pool, args, decide),
    },
    metrics: new JobApiMetrics(registry),
    random: Math.random,
    heartbeatExtendSeconds: config.JOB_API_HEARTBEAT_EXTEND_S,
  });
  shuttingDown = handleShutdown(
    logger,
    [
      { name: 'http', run: () => app.close() },
      { name: 'mysql', run: () => pool.end() },
      { name: 'cassandra', run: () => cassandra.shutdown() },
    ],
    { graceMs: config.SHUTDOWN_GRACE_MS },
  ).shuttingDown;
  await app.listen({ port: config.JOB_API_PORT, host: config.JOB_API_HOST });
}

try {
  await main(loadJobApiConfig(process.env));
} catch (err) {
  exitOnStartupError('job-api', err);
}
