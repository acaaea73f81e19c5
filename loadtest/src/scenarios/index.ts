import { archiverKill } from './archiver-kill.ts';
import { bulkCancel } from './bulk-cancel.ts';
import { cancelStorm } from './cancel-storm.ts';
import { cassandraNodeDown } from './cassandra-node-down.ts';
import { executorKillScenario, reconcilerKillScenario, smoke } from './executor-kill.ts';
import { hostileTargets } from './hostile-targets.ts';
import { mariadbRestart } from './mariadb-restart.ts';
import { mysqlFailover } from './mysql-failover.ts';
import { noisyNeighbour } from './noisy-neighbour.ts';
import { peak } from './peak.ts';
import { peakVsPeers } from './peak-vs-peers.ts';
import { reshard } from './reshard.ts';
import { routerCost } from './router-cost.ts';
import { clockSkew, schedulerKill, schedulerNoLeases } from './scheduler-faults.ts';
import { shardLinearity } from './shard-linearity.ts';
import { soak } from './soak.ts';
import { steady } from './steady.ts';
import { cassandraDown, executorPartition, mariadbRestartPeak } from './store-faults.ts';
import { longShort, targetFlaky, tenantLimit } from './target-faults.ts';
import type { Scenario } from './types.ts';
import { workflow } from './workflow.ts';
import { workflowSleepers } from './workflow-sleepers.ts';

export const SCENARIOS: Scenario[] = [
  peak,
  steady,
  peakVsPeers,
  noisyNeighbour,
  executorKillScenario,
  reconcilerKillScenario,
  mariadbRestart,
  schedulerKill,
  schedulerNoLeases,
  clockSkew,
  targetFlaky,
  longShort,
  cancelStorm,
  archiverKill,
  tenantLimit,
  cassandraDown,
  cassandraNodeDown,
  executorPartition,
  mariadbRestartPeak,
  mysqlFailover,
  hostileTargets,
  soak,
  smoke,
  workflow,
  workflowSleepers,
  bulkCancel,
  shardLinearity,
  routerCost,
  reshard,
];

/**
 * The fault scenarios: lost = 0 and duplicate effects = 0 in each (the soak, half an hour, runs on
 * its own; bulk-cancel's kill is of the reconciler's bulk operation, not of the job path).
 */
export const FAULT_SCENARIOS = SCENARIOS.filter(
  (s) =>
    ![
      'peak',
      'steady',
      'peak-vs-peers',
      'noisy-neighbour',
      'smoke',
      'soak',
      'workflow',
      'workflow-sleepers',
      'bulk-cancel',
      'shard-linearity',
      'router-cost',
      'reshard',
    ].includes(s.name),
);
