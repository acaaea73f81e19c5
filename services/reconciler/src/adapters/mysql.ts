import {
  failPastDeadline,
  readMaintenanceGauges,
  releaseClaimsOf,
  releaseExpiredClaims,
  runningClaimOwners,
} from '@dsched/mysql/jobs/reconcile';
import type { Pool } from '@dsched/mysql/pool';
import { countRunningWorkflows, countWalkQueue, sweepWorkflows } from '@dsched/mysql/workflows';
import type { ClaimStore, WorkflowGaugeReader, WorkflowSweeper } from '../ports.ts';

export function mysqlClaimStore(pool: Pool): ClaimStore {
  return {
    releaseExpired: (limit) => releaseExpiredClaims(pool, limit),
    failPastDeadline: (limit) => failPastDeadline(pool, limit),
    releaseClaimsOf: (owners, limit) => releaseClaimsOf(pool, owners, limit),
    runningOwners: () => runningClaimOwners(pool),
    gauges: () => readMaintenanceGauges(pool),
  };
}

export function mysqlWorkflowGauges(pool: Pool): WorkflowGaugeReader {
  return async () => ({ ...(await countRunningWorkflows(pool)), walkQueue: await countWalkQueue(pool) });
}

export function mysqlWorkflowSweeper(pool: Pool): WorkflowSweeper {
  return (after, limit) => sweepWorkflows(pool, after, limit);
}
