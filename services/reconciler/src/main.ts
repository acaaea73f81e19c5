import { releaseExpiredClaims } from '@dsched/mysql/jobs/reconcile';
import { connectMysql, pingMysql } from '@dsched/mysql/pool';
import { exitOnStartupError, Loop, runWorker } from '@dsched/runtime';
import { loadReconcilerConfig, type ReconcilerConfig } from './config.ts';
import { Reconciler } from './core/reconcile.ts';
import { ReconcilerMetrics } from './metrics.ts';

async function main(config: ReconcilerConfig): Promise<void> {
  const pool = await connectMysql(config.DATABASE_URL, config.DATABASE_POOL_SIZE);
  await runWorker({
    service: 'reconciler',
    logLevel: config.LOG_LEVEL,
    metricsPort: config.METRICS_PORT,
    graceMs: config.SHUTDOWN_GRACE_MS,
    build: async ({ logger, registry }) => {
      const reconciler = new Reconciler({
        release: (limit) => releaseExpiredClaims(pool, limit),
        metrics: new ReconcilerMetrics(registry),
        batchSize: config.RECONCILER_BATCH_SIZE,
      });
      return {
        loops: [
          new Loop({
            name: 'reconcile',
            runOnce: () => reconciler.runOnce(),
            intervalMs: config.RECONCILER_INTERVAL_MS,
            logger,
          }),
        ],
        ready: () => pingMysql(pool),
        stopSteps: [{ name: 'mysql', run: () => pool.end() }],
      };
    },
  });
}

try {
  await main(loadReconcilerConfig(process.env));
} catch (err) {
  exitOnStartupError('reconciler', err);
}
