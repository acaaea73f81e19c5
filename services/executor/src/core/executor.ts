import type { Lane } from '@dsched/domain';
import { type Logger, Loop } from '@dsched/runtime';
import type { ExecutorMetrics } from '../metrics.ts';
import type {
  CancelWatcher,
  JobClaimer,
  LeaseRenewer,
  NodeWaker,
  OutcomeWrite,
  OutcomeWriter,
  TargetCaller,
} from '../ports.ts';
import { CancelWatch } from './cancel-watch.ts';
import { LaneWorker } from './lane-worker.ts';
import { LeaseKeeper } from './lease-keeper.ts';
import { OutcomeBatcher } from './outcome-batcher.ts';
import type { ParkTimes } from './transitions.ts';

export interface ExecutorDeps {
  claim: JobClaimer;
  call: TargetCaller;
  writeOutcomes: OutcomeWriter;
  /** The group of partitions (one shard's) an outcome's job is in: a batch of outcomes is one group's. */
  outcomeGroup?: (write: OutcomeWrite) => string;
  renew: LeaseRenewer;
  cancelRequested: CancelWatcher;
  wakeNodes: NodeWaker;
  metrics: ExecutorMetrics;
  logger: Logger;
  random: () => number;
  monotonicMs: () => number;
}

export interface LaneSettings {
  lane: Lane;
  concurrency: number;
  pollMs: number;
  /** Claims held beyond the slots, waiting for one (LaneOptions.ahead); 0 by default. */
  ahead?: number;
}

export interface ExecutorSettings {
  lanes: LaneSettings[];
  maxClaimBatch: number;
  outcomeBatch: number;
  leaseSeconds: number;
  /** How often the calls in flight are checked for a requested cancel. */
  cancelPollMs: number;
  /** How long a job that answered 202 may go without a heartbeat, and in all. */
  park: ParkTimes;
  /** How often due sleep and wait nodes are ended, and how many of each kind a pass ends at most. */
  wake: { pollMs: number; batch: number };
}

export interface Executor {
  lanes: LaneWorker[];
  /**
   * One claim loop per lane, and the node waker (due sleep and wait nodes, no call): stopped first
   * at shutdown, so nothing new is claimed.
   */
  claimLoops: Loop[];
  /** Lease renewal (and cancel delivery): runs until the drain has written every outcome. */
  leaseLoop: Loop;
  /** Cancel delivery within a poll (cancel-watch.ts): runs, like the lease loop, until the drain is over. */
  cancelLoop: Loop;
  /** Finishes or gives back everything in flight, and writes every outcome. */
  drain(graceMs: number): Promise<{ givenBack: number }>;
}

// The executor assembled: a worker and a claim loop per lane, one outcome batcher and one lease
// keeper for them all (docs/executor.md).
export function buildExecutor(deps: ExecutorDeps, settings: ExecutorSettings): Executor {
  const outcomes = new OutcomeBatcher({
    write: deps.writeOutcomes,
    maxBatch: settings.outcomeBatch,
    retryMs: 1000,
    giveUpAfterMs: settings.leaseSeconds * 1000,
    now: deps.monotonicMs,
    logger: deps.logger,
    ...(deps.outcomeGroup ? { groupOf: deps.outcomeGroup } : {}),
  });
  const lanes: LaneWorker[] = [];
  const claimLoops: Loop[] = [];
  for (const { lane, concurrency, pollMs, ahead = 0 } of settings.lanes) {
    if (concurrency <= 0) continue;
    // Critical jobs are claimed the moment a slot frees; the other lanes wait for a quarter of a
    // batch of free slots (or the poll), so a busy lane claims in batches rather than one by one.
    const refillAt =
      lane === 'critical' ? 1 : Math.max(1, Math.floor(Math.min(concurrency, settings.maxClaimBatch) / 4));
    const worker = new LaneWorker(
      { lane, concurrency, maxBatch: settings.maxClaimBatch, refillAt, ahead },
      { ...deps, outcomes, park: settings.park },
    );
    const loop = new Loop({
      name: `claim-${lane}`,
      runOnce: () => worker.runOnce(),
      intervalMs: pollMs,
      logger: deps.logger,
    });
    worker.onRefill(() => loop.wake());
    lanes.push(worker);
    claimLoops.push(loop);
  }
  // Sleep and wait nodes hold no slot of any lane: their jobs are in lanes no claim reads, and
  // when due this loop ends them in one transaction per kind, without a call (node-wake.ts).
  claimLoops.push(
    new Loop({
      name: 'wake-nodes',
      runOnce: async () => {
        const pass = await deps.wakeNodes(settings.wake.batch);
        deps.metrics.nodesWoken.inc({ kind: 'sleep' }, pass.woken.sleep);
        deps.metrics.nodesWoken.inc({ kind: 'wait' }, pass.woken.wait);
        deps.metrics.nodesWoken.inc({ kind: 'map' }, pass.woken.map);
        return pass.full;
      },
      intervalMs: settings.wake.pollMs,
      logger: deps.logger,
    }),
  );
  const keeper = new LeaseKeeper(deps.renew, lanes, deps.metrics, deps.logger);
  const leaseLoop = new Loop({
    name: 'lease-renewal',
    runOnce: () => keeper.runOnce(),
    intervalMs: Math.floor((settings.leaseSeconds * 1000) / 3),
    logger: deps.logger,
  });
  const cancels = new CancelWatch(deps.cancelRequested, lanes);
  const cancelLoop = new Loop({
    name: 'cancel-watch',
    runOnce: async () => {
      await cancels.runOnce();
      return false;
    },
    intervalMs: settings.cancelPollMs,
    logger: deps.logger,
  });
  return {
    lanes,
    claimLoops,
    leaseLoop,
    cancelLoop,
    async drain(graceMs) {
      const counts = await Promise.all(lanes.map((l) => l.drain(graceMs)));
      await outcomes.flush();
      return { givenBack: counts.reduce((a, b) => a + b, 0) };
    },
  };
}
