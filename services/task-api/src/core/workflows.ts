import {
  type CreateWorkflowRequest,
  conflict,
  DschedError,
  invalidArgument,
  type ListNodeParentsQuery,
  type ListWorkflowNodesQuery,
  NODE_ID,
  type NodeRecord,
  notFound,
  planWorkflow,
  queryFingerprint,
  type Tenant,
  type WorkflowRecord,
} from '@dsched/domain';
import type { DatabaseClock, WorkflowStore } from '../ports.ts';

// The workflow use cases of task-api: submit (checked in the domain, stored whole or not at all),
// read, and the run operations. The walk itself happens where outcomes are written (executor).

function overQuota(tenant: Tenant): DschedError {
  return new DschedError('resource_exhausted', `the tenant's quota of ${tenant.maxTasks} tasks is reached`, {
    details: [
      {
        field: 'maxTasks',
        issue: `at most ${tenant.maxTasks} tasks and running workflows; wait for one to finish or raise the quota`,
      },
    ],
    retryAfterS: 60,
  });
}

/** Validates the graph (400 naming the node), then stores the run and its roots' jobs. */
export async function submitWorkflow(
  deps: { workflows: WorkflowStore; now: DatabaseClock },
  tenant: Tenant,
  req: CreateWorkflowRequest,
): Promise<WorkflowRecord> {
  const now = await deps.now();
  const plan = planWorkflow(req, tenant.id, now.getTime());
  if (!(await deps.workflows.insert(plan))) throw overQuota(tenant);
  const stored = await deps.workflows.get(tenant.id, plan.id);
  if (!stored) throw new DschedError('internal', 'workflow vanished after it was stored');
  return stored;
}

export async function getWorkflowOrThrow(
  workflows: WorkflowStore,
  tenant: Tenant,
  id: string,
): Promise<WorkflowRecord> {
  const wf = await workflows.get(tenant.id, id);
  if (!wf) throw notFound('workflow');
  return wf;
}

function pageFingerprint(id: string, state: string | undefined): string {
  return queryFingerprint({ workflow: id, state });
}

/** A page of a run's nodes, in node id order; the token carries the last node id and the query. */
export async function listNodesPage(
  workflows: WorkflowStore,
  tenant: Tenant,
  id: string,
  query: ListWorkflowNodesQuery,
): Promise<{ nodes: NodeRecord[]; nextPageToken?: string }> {
  await getWorkflowOrThrow(workflows, tenant, id);
  const fingerprint = pageFingerprint(id, query.state);
  const afterNodeId = query.pageToken ? decodeNodeToken(query.pageToken, fingerprint) : undefined;
  const rows = await workflows.listNodes(id, {
    limit: query.limit + 1,
    ...(afterNodeId ? { afterNodeId } : {}),
    ...(query.state ? { state: query.state } : {}),
  });
  const nodes = rows.slice(0, query.limit);
  if (rows.length <= query.limit) return { nodes };
  return { nodes, nextPageToken: nodeToken(fingerprint, nodes.at(-1)!.nodeId) };
}

/** A page of one node's parents with their outputs (what a fan-in's paged inputs point at). */
export async function listParentsPage(
  workflows: WorkflowStore,
  tenant: Tenant,
  id: string,
  nodeId: string,
  query: ListNodeParentsQuery,
): Promise<{ parents: NodeRecord[]; nextPageToken?: string }> {
  await getWorkflowOrThrow(workflows, tenant, id);
  const fingerprint = queryFingerprint({ workflow: id, parentsOf: nodeId });
  const afterNodeId = query.pageToken ? decodeNodeToken(query.pageToken, fingerprint) : undefined;
  const rows = await workflows.listParents(id, nodeId, {
    limit: query.limit + 1,
    ...(afterNodeId ? { afterNodeId } : {}),
  });
  if (rows === null) throw notFound('node');
  const parents = rows.slice(0, query.limit);
  if (rows.length <= query.limit) return { parents };
  return { parents, nextPageToken: nodeToken(fingerprint, parents.at(-1)!.nodeId) };
}

function nodeToken(fingerprint: string, after: string): string {
  return Buffer.from(JSON.stringify({ q: fingerprint, after })).toString('base64url');
}

function decodeNodeToken(token: string, fingerprint: string): string {
  let parsed: { q?: unknown; after?: unknown } = {};
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    // refused below
  }
  if (typeof parsed.after !== 'string' || !NODE_ID.test(parsed.after)) {
    throw invalidArgument('pageToken', 'not a page token this API issued');
  }
  if (parsed.q !== fingerprint) throw invalidArgument('pageToken', 'was issued for another query');
  return parsed.after;
}

/** Cancel, pause or resume: 404 for another tenant's or a missing run, 409 when it has ended. */
export async function operateOnRun(
  workflows: WorkflowStore,
  tenant: Tenant,
  id: string,
  op: 'cancel' | 'pause' | 'resume',
): Promise<WorkflowRecord> {
  const result =
    op === 'cancel'
      ? await workflows.cancel(tenant.id, id)
      : await workflows.setPaused(tenant.id, id, op === 'pause');
  if (result === 'not_found') throw notFound('workflow');
  const wf = await getWorkflowOrThrow(workflows, tenant, id);
  // Cancelling a run that already ended is answered with its state: asking twice is harmless.
  if (result === 'not_running' && op !== 'cancel') throw conflict(`the workflow is ${wf.state}`);
  return wf;
}

/** The largest run GET /v1/workflows/{id}/graph answers whole (the console draws it). */
export const GRAPH_MAX_NODES = 500;
export const GRAPH_MAX_EDGES = 5000;

/** A small run's every node and dependency, for drawing; a larger one is paged through /nodes. */
export async function workflowGraph(
  workflows: WorkflowStore,
  tenant: Tenant,
  id: string,
): Promise<{ workflow: WorkflowRecord; nodes: NodeRecord[]; edges: [string, string][] }> {
  const workflow = await getWorkflowOrThrow(workflows, tenant, id);
  if (workflow.nodeCount > GRAPH_MAX_NODES || workflow.edgeCount > GRAPH_MAX_EDGES) {
    throw new DschedError(
      'failed_precondition',
      `the workflow has ${workflow.nodeCount} nodes and ${workflow.edgeCount} dependencies; its graph is ` +
        `answered up to ${GRAPH_MAX_NODES} and ${GRAPH_MAX_EDGES}: page through /nodes instead`,
      {
        details: [
          { field: 'id', issue: `more than ${GRAPH_MAX_NODES} nodes or ${GRAPH_MAX_EDGES} dependencies` },
        ],
      },
    );
  }
  const [nodes, edges] = await Promise.all([
    workflows.listNodes(id, { limit: GRAPH_MAX_NODES }),
    workflows.listEdges(id, GRAPH_MAX_EDGES),
  ]);
  return { workflow, nodes, edges };
}

/** Re-runs a node that did not succeed and its descendants that did not succeed. */
export async function retryNode(
  workflows: WorkflowStore,
  tenant: Tenant,
  id: string,
  nodeId: string,
): Promise<WorkflowRecord> {
  const result = await workflows.retryNode(tenant.id, id, nodeId);
  if (result === 'not_found') throw notFound('workflow');
  if (result === 'node_not_found') throw notFound('node');
  if (result === 'node_not_retryable') {
    throw new DschedError(
      'failed_precondition',
      `node ${nodeId} is live or succeeded; only a finished node that did not succeed can be retried`,
      {
        details: [{ field: 'nodeId', issue: 'must be dead, upstream_failed, skipped or cancelled' }],
      },
    );
  }
  if (result === 'over_quota') throw overQuota(tenant);
  return getWorkflowOrThrow(workflows, tenant, id);
}
