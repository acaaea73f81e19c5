import { partitionOfId } from '@dsched/domain';
import { ClaimTenants } from '@dsched/mysql/jobs/claim';
import { connectMysql, pingMysql } from '@dsched/mysql/pool';
import { createShardMap, refreshOnFailure, shardMapOptions } from '@dsched/mysql/shards';
import { exitOnStartupError, instanceId, runWorker } from '@dsched/runtime';
import { traceCalls, traceClaims, traceOutcomes } from './adapters/attempt-tracing.ts';
import { httpTargetCaller } from './adapters/http-caller.ts';
import {
  FAIR_LANES,
  mysqlCancelWatcher,
  mysqlJobClaimer,
  mysqlLeaseRenewer,
  mysqlNodeWaker,
  mysqlOutcomeWriter,
} from './adapters/mysql.ts';
import { type ExecutorConfig, loadExecutorConfig } from './config.ts';
import { buildExecutor } from './core/executor.ts';
import { ExecutorMetrics } from './metrics.ts';

async function main(config: ExecutorConfig): Promise<void> {
  const pool = await connectMysql(config.DATABASE_URL, config.DATABASE_POOL_SIZE);
  const owner = instanceId('executor', config.INSTANCE_ID);
  const leaseSeconds = config.EXECUTOR_LEASE_S;
  await runWorker({
    service: 'executor',
    logLevel: config.LOG_LEVEL,
    metricsPort: config.METRICS_PORT,
    graceMs: config.SHUTDOWN_GRACE_MS,
    otel: config,
    instanceId: instanceId('executor', config.INSTANCE_ID),
    build: async ({ logger, registry, traces }) => {
      // The groups of partitions the claims serve, one per shard (one on one primary); on Vitess a
      // keyspace vtgate does not serve stops the executor here, at its start.
      const shards = await createShardMap(
        pool,
        shardMapOptions(config, (err) => logger.warn({ err }, 'shard map: reading the shards again failed')),
      );
      const call = httpTargetCaller({
        allow: config.EXECUTOR_ALLOWED_TARGETS,
        maxRequestBytes: config.EXECUTOR_MAX_REQUEST_BYTES,
        maxResponseBytes: config.EXECUTOR_MAX_RESPONSE_BYTES,
        maxOutputBytes: config.EXECUTOR_MAX_OUTPUT_BYTES,
        connectTimeoutMs: config.EXECUTOR_CONNECT_TIMEOUT_MS,
        connectionsPerOrigin: config.EXECUTOR_CONNECTIONS_PER_ORIGIN,
      });
      const metrics = new ExecutorMetrics(registry);
      const executor = buildExecutor(
        {
          claim: traceClaims(
            mysqlJobClaimer(pool, {
              shards,
              tenants: new ClaimTenants({ ttlMs: config.EXECUTOR_TENANT_CACHE_MS }),
              owner,
              leaseSeconds,
              deferMs: config.EXECUTOR_TENANT_DEFER_MS,
              leadMs: { critical: config.EXECUTOR_CRITICAL_LEAD_MS },
              fairLanes: config.EXECUTOR_FAIR_SHARE ? FAIR_LANES : [],
              keyring: config.DSCHED_SECRETS_KEY,
              nodeInputs: {
                maxRequestBytes: config.EXECUTOR_MAX_REQUEST_BYTES,
                taskApiUrl: config.EXECUTOR_TASK_API_URL,
              },
            }),
            traces,
          ),
          call: traceCalls(call, traces),
          // A batch that fails (a group a moment old after a resharding's cut-over) is retried by
          // the batcher from the groups read again.
          writeOutcomes: traceOutcomes(
            refreshOnFailure(
              shards,
              mysqlOutcomeWriter(pool, (report) => {
                metrics.callbackJobs.inc(report.callbackJobs);
                metrics.tasksPausedAfterFailures.inc(report.pausedTasks);
              }),
            ),
            traces,
          ),
          // A batch of outcomes is one shard's: the group of the partition its claim read.
          outcomeGroup: ({ job }) =>
            shards.groupOf(job.partition ?? partitionOfId(job.id, config.SCHEDULER_PARTITIONS)).shard,
          renew: mysqlLeaseRenewer(pool, { owner, leaseSeconds, shards }),
          cancelRequested: mysqlCancelWatcher(pool, { owner, shards }),
          wakeNodes: mysqlNodeWaker(
            pool,
            { maxOutputBytes: config.EXECUTOR_MAX_OUTPUT_BYTES, taskApiUrl: config.EXECUTOR_TASK_API_URL },
            shards,
          ),
          metrics,
          logger,
          random: Math.random,
          monotonicMs: () => performance.now(),
        },
        {
          lanes: [
            {
              lane: 'critical',
              concurrency: config.EXECUTOR_CRITICAL_CONCURRENCY,
              pollMs: config.EXECUTOR_CRITICAL_POLL_MS,
            },
            {
              lane: 'default',
              concurrency: config.EXECUTOR_DEFAULT_CONCURRENCY,
              pollMs: config.EXECUTOR_POLL_MS,
              ahead: config.EXECUTOR_CLAIM_AHEAD,
            },
            { lane: 'long', concurrency: config.EXECUTOR_LONG_CONCURRENCY, pollMs: config.EXECUTOR_POLL_MS },
          ],
          maxClaimBatch: config.EXECUTOR_MAX_CLAIM_BATCH,
          outcomeBatch: config.EXECUTOR_OUTCOME_BATCH,
          leaseSeconds,
          cancelPollMs: config.EXECUTOR_CANCEL_POLL_MS,
          park: {
            heartbeatSeconds: config.EXECUTOR_ASYNC_HEARTBEAT_S,
            deadlineSeconds: config.EXECUTOR_ASYNC_DEADLINE_S,
          },
          wake: { pollMs: config.EXECUTOR_POLL_MS, batch: config.EXECUTOR_MAX_CLAIM_BATCH },
        },
      );
      // Lease renewal runs from the start and stops last: it keeps the claims alive while the
      // shutdown drain lets calls finish.
      executor.leaseLoop.start();
      executor.cancelLoop.start();
      return {
        loops: executor.claimLoops,
        ready: () => pingMysql(pool),
        stopSteps: [
          {
            name: 'finish or give back in-flight calls',
            run: async () => {
              const { givenBack } = await executor.drain(config.SHUTDOWN_GRACE_MS);
              logger.info({ givenBack }, 'in-flight calls finished or given back');
            },
          },
          { name: 'lease renewal', run: () => executor.leaseLoop.stop() },
          { name: 'cancel watch', run: () => executor.cancelLoop.stop() },
          { name: 'http', run: () => call.close() },
          { name: 'shard map', run: async () => shards.close() },
          { name: 'mysql', run: () => pool.end() },
        ],
      };
    },
  });
}

try {
  await main(loadExecutorConfig(process.env));
} catch (err) {
  exitOnStartupError('executor', err);
}
