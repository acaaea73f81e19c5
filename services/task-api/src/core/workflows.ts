import { randomInt } from 'node:crypto';
import {
  ARCHIVED_GRAPH_MAX_NODES,
  type ArchivedWorkflow,
  type CreateWorkflowRequest,
  checkNodeTimes,
  conflict,
  DschedError,
  decodePageToken,
  encodePageToken,
  firstCursor,
  GRAPH_MAX_EDGES,
  GRAPH_MAX_NODES,
  graphFits,
  type ListNodeParentsQuery,
  type ListWorkflowNodesQuery,
  type ListWorkflowsQuery,
  mergeNewestFirst,
  NODE_ID,
  type NodeRecord,
  notFound,
  type PageKey,
  type PagePosition,
  type PageQuery,
  parseTagFilter,
  planWorkflow,
  readPositionKey,
  resolveRange,
  type SecretsKeyring,
  type Tenant,
  tagFilterKey,
  type WorkflowRecord,
  type WorkflowSummary,
  withSignalHashes,
} from '@dsched/domain';
import type { DatabaseClock, WorkflowHistory, WorkflowStore } from '../ports.ts';

/** Where runs are read: live ones in MySQL, finished ones moved to history in Cassandra. */
export interface WorkflowStores {
  workflows: WorkflowStore;
  history: WorkflowHistory;
}

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
  deps: { workflows: WorkflowStore; now: DatabaseClock; signalKeys: SecretsKeyring; partitions: number },
  tenant: Tenant,
  req: CreateWorkflowRequest,
): Promise<WorkflowRecord> {
  const now = await deps.now();
  checkNodeTimes(req, now.getTime());
  // A submitted run's partition is drawn at random: runs spread over every partition (and shard).
  const partition = randomInt(deps.partitions);
  const plan = withSignalHashes(
    planWorkflow(req, tenant.id, now.getTime(), partition),
    deps.signalKeys.current.key,
  );
  if (!(await deps.workflows.insert(plan))) throw overQuota(tenant);
  const stored = await deps.workflows.get(tenant.id, plan.id);
  if (!stored) throw new DschedError('internal', 'workflow vanished after it was stored');
  return stored;
}

/** A run that moved to history, or 404 (missing, or another tenant's). */
async function archivedOrThrow(
  stores: WorkflowStores,
  tenant: Tenant,
  id: string,
): Promise<ArchivedWorkflow> {
  const archived = await stores.history.get(tenant.id, id);
  if (!archived) throw notFound('workflow');
  return archived;
}

/** A run, live or archived: the caller cannot tell the difference (as for jobs in job-api). */
export async function getWorkflowOrThrow(
  stores: WorkflowStores,
  tenant: Tenant,
  id: string,
): Promise<WorkflowRecord> {
  const wf = await stores.workflows.get(tenant.id, id);
  if (wf) return wf;
  return (await archivedOrThrow(stores, tenant, id)).record;
}

/**
 * Reads a page of a run from MySQL while it is live, else from history. A run marked archived
 * while its page was read has its rows deleted behind the mark, so the live page counts only if
 * the run was still live after it (a read before the mark committed saw every row).
 */
async function readRun<T>(
  stores: WorkflowStores,
  tenant: Tenant,
  id: string,
  live: () => Promise<T>,
  archived: (run: ArchivedWorkflow) => Promise<T>,
): Promise<T> {
  if (await stores.workflows.isLive(tenant.id, id)) {
    const page = await live();
    if (await stores.workflows.isLive(tenant.id, id)) return page;
  }
  return archived(await archivedOrThrow(stores, tenant, id));
}

/** The node list a token is bound to: the run's (of the tenant), with its state filter. */
const nodeListQuery = (tenant: Tenant, id: string, state: string | undefined): PageQuery => ({
  list: 'GET /v1/workflows/{id}/nodes',
  filters: { tenant: tenant.id, workflow: id, state },
});

/**
 * A node list's key: the last node id, and from history the node bucket it was in (a parents
 * page resumes by parent id alone: history keeps each parent's bucket beside it).
 */
function readNodeKey([after, bucket, ...rest]: unknown[]): { after: string; bucket?: number } | undefined {
  if (rest.length > 0 || typeof after !== 'string' || !NODE_ID.test(after)) return undefined;
  if (bucket === undefined) return { after };
  return Number.isSafeInteger(bucket) && (bucket as number) >= 0
    ? { after, bucket: bucket as number }
    : undefined;
}

const nodeKey = (last: { nodeId: string; bucket?: number }): PageKey =>
  last.bucket === undefined ? [last.nodeId] : [last.nodeId, last.bucket];

/** A page of a run's nodes, in node id order; the token carries the last node id and the query. */
export async function listNodesPage(
  stores: WorkflowStores,
  tenant: Tenant,
  id: string,
  query: ListWorkflowNodesQuery,
): Promise<{ nodes: NodeRecord[]; nextPageToken?: string }> {
  const pageQuery = nodeListQuery(tenant, id, query.state);
  const cursor = query.pageToken ? decodePageToken(query.pageToken, pageQuery, readNodeKey) : undefined;
  const page = {
    limit: query.limit + 1,
    ...(cursor ? { afterNodeId: cursor.after } : {}),
    ...(query.state ? { state: query.state } : {}),
  };
  const rows = await readRun(
    stores,
    tenant,
    id,
    () => stores.workflows.listNodes(id, page),
    (run) =>
      stores.history.listNodes(run, {
        ...page,
        ...(cursor?.bucket !== undefined ? { bucket: cursor.bucket } : {}),
      }),
  );
  const nodes = rows.slice(0, query.limit);
  if (rows.length <= query.limit) return { nodes };
  return { nodes, nextPageToken: encodePageToken(pageQuery, nodeKey(nodes.at(-1)!)) };
}

/** A page of one node's parents with their outputs (what a fan-in's paged inputs point at). */
export async function listParentsPage(
  stores: WorkflowStores,
  tenant: Tenant,
  id: string,
  nodeId: string,
  query: ListNodeParentsQuery,
): Promise<{ parents: NodeRecord[]; nextPageToken?: string }> {
  const pageQuery: PageQuery = {
    list: 'GET /v1/workflows/{id}/nodes/{nodeId}/parents',
    filters: { tenant: tenant.id, workflow: id, node: nodeId },
  };
  const cursor = query.pageToken ? decodePageToken(query.pageToken, pageQuery, readNodeKey) : undefined;
  const page = { limit: query.limit + 1, ...(cursor ? { afterNodeId: cursor.after } : {}) };
  const rows = await readRun(
    stores,
    tenant,
    id,
    () => stores.workflows.listParents(id, nodeId, page),
    (run) => stores.history.listParents(run, nodeId, page),
  );
  if (rows === null) throw notFound('node');
  const parents = rows.slice(0, query.limit);
  if (rows.length <= query.limit) return { parents };
  return { parents, nextPageToken: encodePageToken(pageQuery, [parents.at(-1)!.nodeId]) };
}

/** Cancel, pause or resume: 404 for another tenant's or a missing run, 409 when it has ended. */
export async function operateOnRun(
  stores: WorkflowStores,
  tenant: Tenant,
  id: string,
  op: 'cancel' | 'pause' | 'resume',
): Promise<WorkflowRecord> {
  const { workflows } = stores;
  const result =
    op === 'cancel'
      ? await workflows.cancel(tenant.id, id)
      : await workflows.setPaused(tenant.id, id, op === 'pause');
  // Not in MySQL: a run moved to history has ended, like one that is still there.
  const wf = await getWorkflowOrThrow(stores, tenant, id);
  // Cancelling a run that already ended is answered with its state: asking twice is harmless.
  if (result !== 'done' && op !== 'cancel') throw conflict(`the workflow is ${wf.state}`);
  return wf;
}

export { ARCHIVED_GRAPH_MAX_NODES, GRAPH_MAX_EDGES, GRAPH_MAX_NODES };

const tooLarge = (message: string, issue: string) =>
  new DschedError('failed_precondition', message, { details: [{ field: 'id', issue }] });

/**
 * A run's every node (without outputs: a drawing needs none, /nodes pages them) and dependency,
 * for drawing. Live up to GRAPH_MAX_NODES; from history only while its summary keeps its edges
 * (ARCHIVED_GRAPH_MAX_NODES); a larger one is paged through /nodes.
 */
export async function workflowGraph(
  stores: WorkflowStores,
  tenant: Tenant,
  id: string,
): Promise<{ workflow: WorkflowRecord; nodes: NodeRecord[]; edges: [string, string][] }> {
  const workflow = await getWorkflowOrThrow(stores, tenant, id);
  if (!graphFits(workflow)) {
    throw tooLarge(
      `the workflow has ${workflow.nodeCount} nodes and ${workflow.edgeCount} dependencies; its graph is ` +
        `answered up to ${GRAPH_MAX_NODES} and ${GRAPH_MAX_EDGES}: page through /nodes instead`,
      `more than ${GRAPH_MAX_NODES} nodes or ${GRAPH_MAX_EDGES} dependencies`,
    );
  }
  const withoutOutputs = (nodes: NodeRecord[]) => nodes.map((n) => ({ ...n, output: undefined }));
  return readRun(
    stores,
    tenant,
    id,
    async () => {
      const [nodes, edges] = await Promise.all([
        stores.workflows.listNodes(id, { limit: GRAPH_MAX_NODES }),
        stores.workflows.listEdges(id, GRAPH_MAX_EDGES),
      ]);
      return { workflow, nodes: withoutOutputs(nodes), edges };
    },
    // The archiver keeps a small run's dependencies in its summary; a larger one's are not kept.
    async (run) => {
      if (run.edges === null)
        throw tooLarge(
          `the workflow has ${run.record.nodeCount} nodes and moved to history, which keeps the ` +
            `dependencies of runs up to ${ARCHIVED_GRAPH_MAX_NODES} nodes: page through /nodes instead`,
          `archived with more than ${ARCHIVED_GRAPH_MAX_NODES} nodes`,
        );
      return {
        workflow: run.record,
        nodes: withoutOutputs(await stores.history.listNodes(run, { limit: GRAPH_MAX_NODES })),
        edges: run.edges,
      };
    },
  );
}

/** Re-runs a node that did not succeed and its descendants that did not succeed. */
export async function retryNode(
  stores: WorkflowStores,
  tenant: Tenant,
  id: string,
  nodeId: string,
): Promise<WorkflowRecord> {
  const result = await stores.workflows.retryNode(tenant.id, id, nodeId);
  if (result === 'archived' || result === 'not_found') {
    // A run in history is final (decision D29): nothing of it runs again.
    await archivedOrThrow(stores, tenant, id);
    throw new DschedError(
      'conflict',
      'the workflow has moved to history and cannot run again; submit it anew to re-run it',
      { details: [{ field: 'id', issue: 'archived' }] },
    );
  }
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
  return getWorkflowOrThrow(stores, tenant, id);
}

/**
 * The runs list (GET /v1/workflows): live runs from MySQL and archived ones from history, merged
 * newest first by (createdAt, id) into keyset pages, as job-api merges jobs. A run's position never
 * changes, so one archived between two pages is seen once.
 */
export async function listWorkflowRuns(
  deps: WorkflowStores & { now: DatabaseClock },
  tenant: Tenant,
  q: ListWorkflowsQuery,
): Promise<{ workflows: WorkflowSummary[]; nextPageToken?: string }> {
  const tags = parseTagFilter(q.tag);
  // A token is bound to the query that made it: the tenant, the filters and the range.
  const pageQuery: PageQuery = {
    list: 'GET /v1/workflows',
    filters: {
      tenant: tenant.id,
      state: q.state,
      name: q.name,
      from: q.from,
      to: q.to,
      tags: tagFilterKey(tags),
    },
  };
  let position: PagePosition;
  if (q.pageToken) position = decodePageToken(q.pageToken, pageQuery, readPositionKey);
  else {
    const { from, to } = resolveRange(q, q.to === undefined ? await deps.now() : new Date(0));
    position = { from, cursor: firstCursor(to) };
  }
  const query = { tenantId: tenant.id, state: q.state, name: q.name, tags, ...position, limit: q.limit + 1 };
  const [live, archived] = await Promise.all([deps.workflows.list(query), deps.history.list(query)]);
  // As jobs: an item keyed by its creation time, the live copy first when a run is in both.
  const keyed = (w: WorkflowSummary) => ({ id: w.id, scheduledFor: w.createdAt.toISOString(), run: w });
  const page = mergeNewestFirst(
    [
      { items: live.slice(0, q.limit + 1).map(keyed), more: live.length > q.limit },
      { items: archived.items.map(keyed), more: archived.more },
    ],
    q.limit,
    { query: pageQuery, from: position.from },
  );
  return {
    workflows: page.items.map((i) => i.run),
    ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}),
  };
}
