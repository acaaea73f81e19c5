import {
  failPastDeadline,
  readMaintenanceGauges,
  releaseClaimsOf,
  releaseExpiredClaims,
  runningClaimOwners,
} from '@dsched/mysql/jobs/reconcile';
import { releaseOperation, runOperationBatch, takeOperation } from '@dsched/mysql/operations';
import type { Pool } from '@dsched/mysql/pool';
import {
  countRunningWorkflows,
  countWalkQueue,
  releaseMarkedRunQuotas,
  sweepWorkflows,
} from '@dsched/mysql/workflows';
import { endSpans, type JobTraces } from '@dsched/runtime';
import type { ClaimStore, OperationStore, WorkflowGaugeReader, WorkflowSweeper } from '../ports.ts';

/**
 * The reconciler's statements; with tracing on, each batch it gives back or dead-letters is one
 * `settle jobs` span linked to a span in each sampled job's trace (docs/tracing.md).
 */
export function mysqlClaimStore(pool: Pool, traces?: JobTraces): ClaimStore {
  const spans = (reason: string) => traces && endSpans(traces, 'reconcile', { reason, batch: true });
  return {
    releaseExpired: (limit, group) => releaseExpiredClaims(pool, limit, spans('lease_expired'), null, group),
    failPastDeadline: (limit, group) => failPastDeadline(pool, limit, spans('deadline'), null, group),
    releaseClaimsOf: (owners, limit, group) =>
      releaseClaimsOf(pool, owners, limit, spans('executor_gone'), null, group),
    runningOwners: () => runningClaimOwners(pool),
    releaseRunQuotas: (limit, group) => releaseMarkedRunQuotas(pool, group, limit),
    gauges: () => readMaintenanceGauges(pool),
  };
}

export function mysqlWorkflowGauges(pool: Pool): WorkflowGaugeReader {
  return async () => ({ ...(await countRunningWorkflows(pool)), walkQueue: await countWalkQueue(pool) });
}

export function mysqlWorkflowSweeper(pool: Pool): WorkflowSweeper {
  return (after, limit, partitions) => sweepWorkflows(pool, after, limit, partitions);
}

export function mysqlOperationStore(pool: Pool): OperationStore {
  return {
    take: (owner, leaseMs) => takeOperation(pool, owner, leaseMs),
    runBatch: (id, owner, o) =>
      runOperationBatch(pool, id, owner, { batchSize: o.batchSize, ttlMs: o.leaseMs }),
    release: (id, owner) => releaseOperation(pool, id, owner),
  };
}
