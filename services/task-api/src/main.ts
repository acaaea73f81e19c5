import { connectMysql, pingMysql } from '@dsched/mysql/pool';
import { createLogger, createRegistry, exitOnStartupError, handleShutdown } from '@dsched/runtime';
import {
  mysqlClock,
  mysqlRateLimiter,
  mysqlTaskRepository,
  mysqlTaskRuns,
  mysqlTenantDirectory,
} from './adapters/mysql.ts';
import { buildApp } from './app.ts';
import { loadTaskApiConfig, type TaskApiConfig } from './config.ts';

async function main(config: TaskApiConfig): Promise<void> {
  const logger = createLogger('task-api', config.LOG_LEVEL);
  const registry = createRegistry('task-api');
  const pool = await connectMysql(config.DATABASE_URL, config.DATABASE_POOL_SIZE);
  let shuttingDown = () => false;
  const app = buildApp({
    logger,
    registry,
    ready: () => pingMysql(pool),
    isShuttingDown: () => shuttingDown(),
    tenants: mysqlTenantDirectory(pool, { rotationGraceS: config.KEY_ROTATION_GRACE_S }),
    tasks: mysqlTaskRepository(pool, { partitions: config.SCHEDULER_PARTITIONS }),
    runs: mysqlTaskRuns(pool),
    rateLimit: mysqlRateLimiter(pool),
    now: mysqlClock(pool),
    adminToken: config.DSCHED_ADMIN_TOKEN,
  });
  shuttingDown = handleShutdown(
    logger,
    [
      { name: 'http', run: () => app.close() },
      { name: 'mysql', run: () => pool.end() },
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
