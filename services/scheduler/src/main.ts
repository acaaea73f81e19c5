import { connectMysql, pingMysql } from '@dsched/mysql/pool';
import { exitOnStartupError, Loop, runWorker } from '@dsched/runtime';
import { mysqlDueMaterialiser } from './adapters/mysql.ts';
import { loadSchedulerConfig, type SchedulerConfig } from './config.ts';
import { SchedulerTick } from './core/tick.ts';
import { SchedulerMetrics } from './metrics.ts';

async function main(config: SchedulerConfig): Promise<void> {
  const pool = await connectMysql(config.DATABASE_URL, config.DATABASE_POOL_SIZE);
  await runWorker({
    service: 'scheduler',
    logLevel: config.LOG_LEVEL,
    metricsPort: config.METRICS_PORT,
    graceMs: config.SHUTDOWN_GRACE_MS,
    build: async ({ logger, registry }) => {
      const all = Array.from({ length: config.SCHEDULER_PARTITIONS }, (_, i) => i);
      const tick = new SchedulerTick({
        materialise: mysqlDueMaterialiser(pool),
        metrics: new SchedulerMetrics(registry),
        partitions: () => all,
        lookaheadS: config.SCHEDULER_LOOKAHEAD_S,
        batchSize: config.SCHEDULER_BATCH_SIZE,
      });
      return {
        loops: [
          new Loop({
            name: 'tick',
            runOnce: () => tick.runOnce(),
            intervalMs: config.SCHEDULER_TICK_MS,
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
  await main(loadSchedulerConfig(process.env));
} catch (err) {
  exitOnStartupError('scheduler', err);
}
