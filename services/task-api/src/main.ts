import { cassandraSettings, connectCassandra, pingCassandra } from '@dsched/cassandra/client';
import { connectMysql, pingMysql } from '@dsched/mysql/pool';
import { createLogger, createRegistry, exitOnStartupError, handleShutdown } from '@dsched/runtime';
import { auditSources } from './adapters/audit.ts';
import {
  mysqlClock,
  mysqlRateLimiter,
  mysqlTaskRepository,
  mysqlTaskRuns,
  mysqlTenantDirectory,
} from './adapters/mysql.ts';
import { buildApp } from './app.ts';
import { loadTaskApiConfig, type TaskApiConfig } from './config.ts';
import { TaskApiMetrics } from './metrics.ts';

async function main(config: TaskApiConfig): Promise<void> {
  const logger = createLogger('task-api', config.LOG_LEVEL);
  const registry = createRegistry('task-api');
  const pool = await connectMysql(config.DATABASE_URL, config.DATABASE_POOL_SIZE);
  const cassandra = await connectCassandra(cassandraSettings(config));
  const metrics = new TaskApiMetrics(registry);
  let shuttingDown = () => false;
  const app = buildApp({
    logger,
    registry,
    ready: async () => {
      await pingMysql(pool);
      await pingCassandra(cassandra);
    },
    isShuttingDown: () => shuttingDown(),
    tenants: mysqlTenantDirectory(pool, { rotationGraceS: config.KEY_ROTATION_GRACE_S }),
    tasks: mysqlTaskRepository(pool, { partitions: config.SCHEDULER_PARTITIONS }),
    runs: mysqlTaskRuns(pool),
    rateLimit: mysqlRateLimiter(pool),
    now: mysqlClock(pool),
    adminToken: config.DSCHED_ADMIN_TOKEN,
    audit: auditSources(pool, cassandra, {
      historyRetentionDays: config.HISTORY_TTL_DAYS,
      missing: metrics.auditMissing,
    }),
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
  await app.listen({ port: config.TASK_API_PORT, host: config.TASK_API_HOST });
}

try {
  await main(loadTaskApiConfig(process.env));
} catch (err) {
  exitOnStartupError('task-api', err);
}
