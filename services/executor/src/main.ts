import type { Lane } from '@dsched/domain';
import { connectMysql, pingMysql } from '@dsched/mysql/pool';
import { exitOnStartupError, instanceId, Loop, runWorker } from '@dsched/runtime';
import { httpTargetCaller } from './adapters/http-caller.ts';
import { mysqlJobClaimer, mysqlOutcomeRecorder } from './adapters/mysql.ts';
import { type ExecutorConfig, loadExecutorConfig } from './config.ts';
import { LaneWorker } from './core/lane-worker.ts';
import { ExecutorMetrics } from './metrics.ts';

async function main(config: ExecutorConfig): Promise<void> {
  const pool = await connectMysql(config.DATABASE_URL, config.DATABASE_POOL_SIZE);
  const owner = instanceId('executor', config.INSTANCE_ID);
  await runWorker({
    service: 'executor',
    logLevel: config.LOG_LEVEL,
    metricsPort: config.METRICS_PORT,
    graceMs: config.SHUTDOWN_GRACE_MS,
    build: async ({ logger, registry }) => {
      const deps = {
        claim: mysqlJobClaimer(pool, { owner, leaseSeconds: config.EXECUTOR_LEASE_S }),
        call: httpTargetCaller({ maxResponseBytes: config.EXECUTOR_MAX_RESPONSE_BYTES }),
        record: mysqlOutcomeRecorder(pool),
        metrics: new ExecutorMetrics(registry),
        logger,
        random: Math.random,
        now: Date.now,
      };
      const lanes: [Lane, number, number][] = [
        ['critical', config.EXECUTOR_CRITICAL_CONCURRENCY, config.EXECUTOR_CRITICAL_POLL_MS],
        ['default', config.EXECUTOR_DEFAULT_CONCURRENCY, config.EXECUTOR_POLL_MS],
        ['long', config.EXECUTOR_LONG_CONCURRENCY, config.EXECUTOR_POLL_MS],
      ];
      const workers = lanes
        .filter(([, concurrency]) => concurrency > 0)
        .map(([lane, concurrency, pollMs]) => {
          const worker = new LaneWorker(lane, concurrency, deps);
          const loop = new Loop({
            name: `claim-${lane}`,
            runOnce: () => worker.runOnce(),
            intervalMs: pollMs,
            logger,
          });
          worker.onSlotFreed(() => loop.wake());
          return { worker, loop };
        });
      return {
        loops: workers.map((w) => w.loop),
        ready: () => pingMysql(pool),
        stopSteps: [
          {
            name: 'drain in-flight calls',
            run: async () =>
              void (await Promise.all(workers.map((w) => w.worker.drain(config.SHUTDOWN_GRACE_MS)))),
          },
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
