import type { CassandraClient } from '@dsched/cassandra/client';
import { writeJobHistory } from '@dsched/cassandra/job-history';
import {
  writeWorkflowNodes,
  writeWorkflowParents,
  writeWorkflowRun,
} from '@dsched/cassandra/workflow-history';
import {
  archiverLagSeconds,
  deleteArchivedJobs,
  readyBacklogUpTo,
  selectArchivableJobs,
} from '@dsched/mysql/jobs/archive';
import type { Pool } from '@dsched/mysql/pool';
import {
  archiveEdgePage,
  archiveNodePage,
  deleteArchivedWorkflowBatch,
  getWorkflow,
  listWorkflowEdges,
  markWorkflowArchived,
  selectArchivableWorkflows,
} from '@dsched/mysql/workflows';
import type {
  DeliveryBacklog,
  FinishedJobSource,
  FinishedWorkflowSource,
  HistoryWriter,
  WorkflowHistoryWriter,
} from '../ports.ts';

export function mysqlFinishedJobSource(
  pool: Pool,
  options: { deadRetentionSeconds: number },
): FinishedJobSource {
  return {
    select: (limit, partitions) =>
      selectArchivableJobs(pool, { limit, deadRetentionSeconds: options.deadRetentionSeconds, partitions }),
    delete: (jobs, partitions) => deleteArchivedJobs(pool, jobs, partitions),
    lagSeconds: () => archiverLagSeconds(pool, options.deadRetentionSeconds),
  };
}

export function cassandraHistoryWriter(
  client: CassandraClient,
  options: { ttlSeconds: number; concurrency: number },
): HistoryWriter {
  return (records) => writeJobHistory(client, records, options);
}

export function mysqlDeliveryBacklog(pool: Pool): DeliveryBacklog {
  return (cap) => readyBacklogUpTo(pool, cap);
}

export function mysqlFinishedWorkflowSource(
  pool: Pool,
  options: { deadRetentionSeconds: number },
): FinishedWorkflowSource {
  return {
    select: (limit, partitions) =>
      selectArchivableWorkflows(pool, {
        limit,
        deadRetentionSeconds: options.deadRetentionSeconds,
        partitions,
      }),
    summary: (tenantId, id) => getWorkflow(pool, tenantId, id),
    nodePage: (run, afterNodeId, limit) =>
      archiveNodePage(pool, run, { limit, ...(afterNodeId ? { afterNodeId } : {}) }),
    edgePage: (run, q) => archiveEdgePage(pool, run, q),
    edges: (id, limit) => listWorkflowEdges(pool, id, limit),
    mark: (run) => markWorkflowArchived(pool, run),
    deleteBatch: (run, limit) => deleteArchivedWorkflowBatch(pool, run, limit),
  };
}

export function cassandraWorkflowHistoryWriter(
  client: CassandraClient,
  options: { ttlSeconds: number; concurrency: number },
): WorkflowHistoryWriter {
  return {
    nodes: (copy, nodes) => writeWorkflowNodes(client, copy, nodes, options),
    parents: (copy, edges) => writeWorkflowParents(client, copy, edges, options),
    run: (archived) => writeWorkflowRun(client, archived, options),
  };
}
