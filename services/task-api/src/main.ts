import { cassandraSettings, connectCassandra, pingCassandra } from '@dsched/cassandra/client';
import { connectMysql, pingMysql } from '@dsched/mysql/pool';
import { resealSigningSecrets } from '@dsched/mysql/tenants';
import { exitOnStartupError, instanceId, runApi } from '@dsched/runtime';
import { buildApp } from './app.ts';
import { loadTaskApiConfig, type TaskApiConfig } from './config.ts';
import { taskApiDeps } from './deps.ts';

async function main(config: TaskApiConfig): Promise<void> {
  const pool = await connectMysql(config.DATABASE_URL, config.DATABASE_POOL_SIZE);
  const cassandra = await connectCassandra(cassandraSettings(config));
  const { logger } = await runApi({
    service: 'task-api',
    logLevel: config.LOG_LEVEL,
    port: config.TASK_API_PORT,
    host: config.TASK_API_HOST,
    graceMs: config.SHUTDOWN_GRACE_MS,
    otel: config,
    instanceId: instanceId('task-api', config.INSTANCE_ID),
    build: async ({ logger, registry, isShuttingDown, traces }) => ({
      app: buildApp({
        ...taskApiDeps({
          pool,
          cassandra,
          logger,
          registry,
          adminToken: config.DSCHED_ADMIN_TOKEN,
          partitions: config.SCHEDULER_PARTITIONS,
          rotationGraceS: config.KEY_ROTATION_GRACE_S,
          historyRetentionDays: config.HISTORY_TTL_DAYS,
          workflowMaxBodyBytes: config.WORKFLOW_MAX_BODY_BYTES,
          keyring: config.DSCHED_SECRETS_KEY,
          publicUrl: config.TASK_API_PUBLIC_URL,
          born: traces.born,
        }),
        corsOrigins: config.TASK_API_CORS_ORIGINS,
        authThrottle: { maxFailures: config.AUTH_FAILURE_LIMIT, windowS: config.AUTH_FAILURE_WINDOW_S },
        trustProxy: config.TRUST_PROXY,
        ready: async () => {
          await pingMysql(pool);
          await pingCassandra(cassandra);
        },
        isShuttingDown,
      }),
      stopSteps: [
        { name: 'mysql', run: () => pool.end() },
        { name: 'cassandra', run: () => cassandra.shutdown() },
      ],
    }),
  });
  // Seals what is not sealed with the current key yet (plaintext rows from before migration 0046,
  // rows under a retired key), while serving: every reader opens both (docs/operations.md).
  resealSigningSecrets(pool, config.DSCHED_SECRETS_KEY).then(
    (resealed) =>
      logger.info({ resealed, key: config.DSCHED_SECRETS_KEY.current.id }, 'signing secrets sealed'),
    (err: unknown) => logger.error({ err }, 'resealing signing secrets failed; they stay readable'),
  );
}

try {
  await main(loadTaskApiConfig(process.env));
} catch (err) {
  exitOnStartupError('task-api', err);
}
