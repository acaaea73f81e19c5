import type { CassandraClient } from '@dsched/cassandra/client';
import { readHistory } from '@dsched/cassandra/client';
import {
  archivedWorkflowNode,
  archivedWorkflowNodes,
  archivedWorkflowParents,
  archivedWorkflowRuns,
  getArchivedWorkflow,
} from '@dsched/cassandra/workflow-history';
import type { WorkflowHistory } from '../ports.ts';

const UNREACHABLE =
  'workflow history (Cassandra) is unreachable right now; live workflows are still served, retry later';

export function cassandraWorkflowHistory(client: CassandraClient): WorkflowHistory {
  return {
    get: (tenantId, id) => readHistory(() => getArchivedWorkflow(client, tenantId, id), UNREACHABLE),
    list: (q) =>
      readHistory(async () => {
        const page = await archivedWorkflowRuns(client, q);
        return { items: page.items.map((run) => run.record), more: page.more };
      }, UNREACHABLE),
    listNodes: (run, page) => readHistory(() => archivedWorkflowNodes(client, run, page), UNREACHABLE),
    listParents: (run, nodeId, page) =>
      readHistory(() => archivedWorkflowParents(client, run, nodeId, page), UNREACHABLE),
    node: (workflowId, nodeId) =>
      readHistory(() => archivedWorkflowNode(client, workflowId, nodeId), UNREACHABLE),
  };
}
