import {
  createWorkflowSchema,
  idParamsSchema,
  isId,
  listNodeParentsQuerySchema,
  listWorkflowNodesQuerySchema,
  listWorkflowsQuerySchema,
  NODE_ID,
  nodeView,
  notFound,
  pageSchema,
  type SecretsKeyring,
  workflowNodeParamsSchema,
  workflowNodeViewSchema,
  workflowSummarySchema,
  workflowSummaryView,
  workflowView,
  workflowViewSchema,
} from '@dsched/domain';
import { defineRoute, HISTORY_UNAVAILABLE, parseWith, pathId, STANDARD_ERRORS } from '@dsched/runtime';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  ARCHIVED_GRAPH_MAX_NODES,
  GRAPH_MAX_EDGES,
  GRAPH_MAX_NODES,
  getWorkflowOrThrow,
  listNodesPage,
  listParentsPage,
  listWorkflowRuns,
  operateOnRun,
  retryNode,
  submitWorkflow,
  workflowGraph,
} from '../core/workflows.ts';
import type {
  DatabaseClock,
  RateLimiter,
  TenantDirectory,
  WorkflowHistory,
  WorkflowStore,
} from '../ports.ts';
import { RATE_LIMITED } from './task-lifecycle.ts';
import { tenantGuard } from './tenant-guard.ts';
import { nodeViewWithSignal } from './workflow-signals.ts';

// POST /v1/workflows, the runs list, GET /v1/workflows/{id}, its nodes (and a small one's graph), and the run
// operations.

// Every read of a run may go to history (a finished run moves there): 503 while it is unreachable.
const tenantErrors = {
  401: STANDARD_ERRORS[401],
  404: STANDARD_ERRORS[404],
  429: RATE_LIMITED,
  503: HISTORY_UNAVAILABLE,
};
const ENDED = { description: 'conflict: the workflow has ended' };

const workflowGraphSchema = z.object({
  workflow: workflowViewSchema,
  nodes: z.array(workflowNodeViewSchema),
  // Pairs as arrays of two strings, not a tuple: OpenAPI 3.0 has no prefixItems (schemathesis refuses it).
  edges: z.array(z.array(z.string()).length(2)).describe('[parent node id, child node id]'),
});

export const workflowRouteDocs = [
  defineRoute({
    method: 'post',
    path: '/v1/workflows',
    summary: 'Submit a workflow: a DAG of HTTP calls, walked as its nodes finish',
    description:
      'Checked whole before anything is stored: unique node ids, known dependencies, no cycle (the ' +
      'error names the nodes of one), at most 100,000 nodes and 1,000,000 dependencies. Stored in ' +
      'one transaction with the jobs of its root nodes. A running workflow counts as one of the ' +
      'tenant’s maxTasks.',
    tags: ['workflows'],
    auth: 'tenant',
    body: createWorkflowSchema,
    responses: {
      201: { description: 'the workflow', schema: workflowViewSchema },
      400: STANDARD_ERRORS[400],
      401: STANDARD_ERRORS[401],
      413: { description: 'resource_exhausted: the body is over WORKFLOW_MAX_BODY_BYTES' },
      429: { description: 'resource_exhausted: over maxTasks or rateLimitPerSecond' },
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/workflows',
    summary: 'The tenant’s workflow runs, newest first, live and archived, paged',
    description:
      'Filtered by state, exact name, creation range (default: the last 7 days) and tags ' +
      '(`tag=key:value`, repeatable, all must match). Runs archived before tags existed are read by id only.',
    tags: ['workflows'],
    auth: 'tenant',
    query: listWorkflowsQuerySchema,
    responses: {
      200: { description: 'a page of runs', schema: pageSchema('workflows', workflowSummarySchema) },
      400: STANDARD_ERRORS[400],
      401: STANDARD_ERRORS[401],
      503: HISTORY_UNAVAILABLE,
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/workflows/{id}',
    summary: 'One workflow: its state, node counts by state and times',
    tags: ['workflows'],
    auth: 'tenant',
    params: idParamsSchema,
    responses: { 200: { description: 'the workflow', schema: workflowViewSchema }, ...tenantErrors },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/workflows/{id}/nodes',
    summary: 'A workflow’s nodes in id order, paged, optionally in one state',
    tags: ['workflows'],
    auth: 'tenant',
    params: idParamsSchema,
    query: listWorkflowNodesQuerySchema,
    responses: {
      200: {
        description: 'a page of nodes; nextPageToken while more remain',
        schema: z.object({ nodes: z.array(workflowNodeViewSchema), nextPageToken: z.string().optional() }),
      },
      400: STANDARD_ERRORS[400],
      ...tenantErrors,
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/workflows/{id}/graph',
    summary: `A workflow whole: every node and dependency, up to ${GRAPH_MAX_NODES} nodes`,
    description:
      `For drawing the DAG (the console does): the workflow, all its nodes in id order (without ` +
      `their outputs: /nodes has them) and its dependencies as [parent, child] pairs. A workflow of ` +
      `more than ${GRAPH_MAX_NODES} nodes or ${GRAPH_MAX_EDGES} dependencies answers 412, and so does ` +
      `one of more than ${ARCHIVED_GRAPH_MAX_NODES} nodes once it moved to history (which keeps the ` +
      `dependencies of smaller runs only); page through /nodes instead.`,
    tags: ['workflows'],
    auth: 'tenant',
    params: idParamsSchema,
    responses: {
      200: { description: 'the workflow, its nodes and its dependencies', schema: workflowGraphSchema },
      ...tenantErrors,
      412: { description: 'failed_precondition: too large to answer whole' },
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/workflows/{id}/nodes/{nodeId}/parents',
    summary: 'A node’s parents with their outputs, in id order, paged',
    description:
      'What a node with `inputs: "parents"` is sent the URL of (`parentsUrl`) when its parents’ ' +
      'outputs do not fit in one request: more than 1,000 parents, or over the request body cap.',
    tags: ['workflows'],
    auth: 'tenant',
    params: workflowNodeParamsSchema,
    query: listNodeParentsQuerySchema,
    responses: {
      200: {
        description: 'a page of parents; nextPageToken while more remain',
        schema: z.object({ parents: z.array(workflowNodeViewSchema), nextPageToken: z.string().optional() }),
      },
      400: STANDARD_ERRORS[400],
      ...tenantErrors,
    },
  }),
  ...(['cancel', 'pause', 'resume'] as const).map((op) =>
    defineRoute({
      method: 'post',
      path: `/v1/workflows/{id}/${op}`,
      summary: {
        cancel: 'Cancel a workflow: nodes not started are cancelled, running calls aborted',
        pause: 'Pause a workflow: nodes that become ready wait (the walk goes on, dispatch holds)',
        resume: 'Resume a paused workflow: the nodes that became ready meanwhile are dispatched',
      }[op],
      tags: ['workflows'],
      auth: 'tenant',
      params: idParamsSchema,
      responses:
        op === 'cancel'
          ? {
              200: { description: 'the workflow (as it is, when it had ended)', schema: workflowViewSchema },
              ...tenantErrors,
            }
          : { 200: { description: 'the workflow', schema: workflowViewSchema }, ...tenantErrors, 409: ENDED },
    }),
  ),
  defineRoute({
    method: 'post',
    path: '/v1/workflows/{id}/nodes/{nodeId}/retry',
    summary: 'Re-run a node that did not succeed, and its descendants that did not succeed',
    description:
      'Succeeded nodes never run again. The node’s job keeps its id (and Idempotency-Key); attempt ' +
      'numbers keep rising. A finished workflow is running again — until it moves to history ' +
      '(succeeded runs once finished, failed and cancelled ones after DLQ_RETENTION_S): then 409 ' +
      'with details [{"field": "id", "issue": "archived"}].',
    tags: ['workflows'],
    auth: 'tenant',
    params: workflowNodeParamsSchema,
    responses: {
      200: { description: 'the workflow', schema: workflowViewSchema },
      ...tenantErrors,
      409: {
        description: 'conflict, details [{"field": "id", "issue": "archived"}]: the run moved to history',
      },
      412: { description: 'failed_precondition: the node is live or succeeded' },
    },
  }),
];

export function registerWorkflowRoutes(
  app: FastifyInstance,
  deps: {
    workflows: WorkflowStore;
    history: WorkflowHistory;
    tenants: TenantDirectory;
    rateLimit: RateLimiter;
    now: DatabaseClock;
    workflowMaxBodyBytes: number;
    partitions: number;
    signalKeys: SecretsKeyring;
    publicUrl?: string | undefined;
  },
): void {
  const tenantOf = tenantGuard(deps);

  app.post('/v1/workflows', { bodyLimit: deps.workflowMaxBodyBytes }, async (request, reply) => {
    const tenant = await tenantOf(request);
    const body = parseWith(createWorkflowSchema, request.body);
    const wf = await submitWorkflow(deps, tenant, body);
    return reply.status(201).send(workflowView(wf));
  });

  app.get('/v1/workflows', async (request) => {
    const tenant = await tenantOf(request);
    const page = await listWorkflowRuns(deps, tenant, parseWith(listWorkflowsQuerySchema, request.query));
    return {
      workflows: page.workflows.map(workflowSummaryView),
      ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}),
    };
  });

  app.get('/v1/workflows/:id', async (request) => {
    const tenant = await tenantOf(request);
    return workflowView(await getWorkflowOrThrow(deps, tenant, pathId(request.params, 'workflow')));
  });

  app.get('/v1/workflows/:id/nodes', async (request) => {
    const tenant = await tenantOf(request);
    const query = parseWith(listWorkflowNodesQuerySchema, request.query);
    const id = pathId(request.params, 'workflow');
    const page = await listNodesPage(deps, tenant, id, query);
    return {
      nodes: page.nodes.map(nodeViewWithSignal(deps, request, id)),
      ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}),
    };
  });

  app.get('/v1/workflows/:id/graph', async (request) => {
    const tenant = await tenantOf(request);
    const id = pathId(request.params, 'workflow');
    const graph = await workflowGraph(deps, tenant, id);
    const view = nodeViewWithSignal(deps, request, id);
    return { workflow: workflowView(graph.workflow), nodes: graph.nodes.map(view), edges: graph.edges };
  });

  app.get('/v1/workflows/:id/nodes/:nodeId/parents', async (request) => {
    const tenant = await tenantOf(request);
    const { id, nodeId } = request.params as { id: string; nodeId: string };
    if (!isId(id) || !NODE_ID.test(nodeId)) throw notFound('resource');
    const query = parseWith(listNodeParentsQuerySchema, request.query);
    const page = await listParentsPage(deps, tenant, id, nodeId, query);
    return {
      parents: page.parents.map(nodeView),
      ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}),
    };
  });

  for (const op of ['cancel', 'pause', 'resume'] as const) {
    app.post(`/v1/workflows/:id/${op}`, async (request) => {
      const tenant = await tenantOf(request);
      return workflowView(await operateOnRun(deps, tenant, pathId(request.params, 'workflow'), op));
    });
  }

  app.post('/v1/workflows/:id/nodes/:nodeId/retry', async (request) => {
    const tenant = await tenantOf(request);
    const { id, nodeId } = request.params as { id: string; nodeId: string };
    if (!isId(id) || !NODE_ID.test(nodeId)) throw notFound('resource');
    return workflowView(await retryNode(deps, tenant, id, nodeId));
  });
}
