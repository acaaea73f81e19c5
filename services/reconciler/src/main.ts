import { setTimeout as sleep } from 'node:timers/promises';
import { connectMysql, pingMysql } from '@dsched/mysql/pool';
import { createShardMap, refreshOnFailure, shardMapOptions } from '@dsched/mysql/shards';
import { recountAllTaskCounts } from '@dsched/mysql/tasks';
import { exitOnStartupError, instanceId, Loop, runWorker } from '@dsched/runtime';
import { kubernetesClient, kubernetesGoneExecutors } from './adapters/kubernetes.ts';
import {
  mysqlClaimStore,
  mysqlOperationStore,
  mysqlWorkflowGauges,
  mysqlWorkflowSweeper,
} from './adapters/mysql.ts';
import { loadReconcilerConfig, type ReconcilerConfig } from './config.ts';
import { OperationWorker } from './core/operations.ts';
import { GoneExecutorSweep, Reconciler, refreshGauges } from './core/reconcile.ts';
import { WorkflowSweep } from './core/workflow-sweep.ts';
import { ReconcilerMetrics } from './metrics.ts';

/** The recount's wait between its two counts; given up (the pass with it) when `loop` stops. */
async function settleUnlessStopped(loop: Loop, ms: number): Promise<void> {
  for (let waited = 0; waited < ms; waited += 250) {
    if (loop.stopped) throw new RecountStopped();
    await sleep(Math.min(250, ms - waited));
  }
}
class RecountStopped extends Error {}

async function main(config: ReconcilerConfig): Promise<void> {
  const kubernetes = kubernetesClient({
    mode: config.RECONCILER_KUBERNETES,
    kubeconfig: config.RECONCILER_KUBECONFIG,
    namespace: config.RECONCILER_KUBERNETES_NAMESPACE,
    env: process.env,
  });
  const pool = await connectMysql(config.DATABASE_URL, config.DATABASE_POOL_SIZE);
  const instance = instanceId('reconciler', config.INSTANCE_ID);
  // The partition groups the passes work by, one per shard on Vitess (docs/sharding.md).
  const shards = await createShardMap(pool, shardMapOptions(config));
  const groups = () => shards.groups();
  await runWorker({
    service: 'reconciler',
    logLevel: config.LOG_LEVEL,
    metricsPort: config.METRICS_PORT,
    graceMs: config.SHUTDOWN_GRACE_MS,
    otel: config,
    instanceId: instance,
    build: async ({ logger, registry, traces }) => {
      const store = mysqlClaimStore(pool, traces);
      const metrics = new ReconcilerMetrics(registry);
      const batchSize = config.RECONCILER_BATCH_SIZE;
      const reconciler = new Reconciler({ store, metrics, batchSize, groups });
      const workflows = new WorkflowSweep({
        sweep: mysqlWorkflowSweeper(pool),
        gauges: mysqlWorkflowGauges(pool),
        metrics,
        batchSize: config.RECONCILER_WORKFLOW_BATCH_SIZE,
        groups,
      });
      const operations = new OperationWorker({
        store: mysqlOperationStore(pool),
        metrics,
        logger,
        instance,
        batchSize: config.RECONCILER_OPERATION_BATCH_SIZE,
        leaseMs: config.RECONCILER_OPERATION_LEASE_MS,
        pauseMs: config.RECONCILER_OPERATION_PAUSE_MS,
      });
      // The task quota recounted, every tenant a page at a time (task-count-recount.ts, D63).
      const recount: Loop = new Loop({
        name: 'task-recount',
        runOnce: async () => {
          const settle = () => settleUnlessStopped(recount, config.RECONCILER_TASK_RECOUNT_SETTLE_MS);
          try {
            await recountAllTaskCounts(pool, { groups, limit: 500, settle });
          } catch (err) {
            if (!(err instanceof RecountStopped)) throw err;
          }
          return false;
        },
        intervalMs: config.RECONCILER_TASK_RECOUNT_INTERVAL_MS,
        logger,
      });
      const loops = [
        new Loop({
          name: 'reconcile',
          // A pass that fails may have met a shard map a moment old (a resharding's cut-over).
          runOnce: refreshOnFailure(shards, () => reconciler.runOnce()),
          intervalMs: config.RECONCILER_INTERVAL_MS,
          logger,
        }),
        new Loop({
          name: 'workflows',
          runOnce: () => workflows.runOnce(),
          intervalMs: config.RECONCILER_WORKFLOW_INTERVAL_MS,
          logger,
        }),
        new Loop({
          name: 'operations',
          runOnce: () => operations.runOnce(),
          intervalMs: config.RECONCILER_OPERATION_INTERVAL_MS,
          logger,
        }),
        recount,
        new Loop({
          name: 'gauges',
          runOnce: () => refreshGauges(store, metrics),
          intervalMs: config.RECONCILER_GAUGES_INTERVAL_MS,
          logger,
        }),
      ];
      if (kubernetes) {
        const gone = kubernetesGoneExecutors(kubernetes.api, kubernetes.namespace, logger);
        const sweep = new GoneExecutorSweep({ store, gone, metrics, batchSize, groups });
        loops.push(
          new Loop({
            name: 'kubernetes-executors',
            runOnce: () => sweep.runOnce(),
            intervalMs: config.RECONCILER_KUBERNETES_INTERVAL_MS,
            logger,
          }),
        );
        logger.info({ namespace: kubernetes.namespace }, 'kubernetes accelerator on');
      }
      return {
        loops,
        ready: () => pingMysql(pool),
        stopSteps: [
          { name: 'operation lease', run: () => operations.release() },
          { name: 'shard map', run: async () => shards.close() },
          { name: 'mysql', run: () => pool.end() },
        ],
      };
    },
  });
}

try {
  await main(loadReconcilerConfig(process.env));
} catch (err) {
  exitOnStartupError('reconciler', err);
}
