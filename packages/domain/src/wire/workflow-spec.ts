import { z } from 'zod';
import { checkWorkflowGraph } from '../decisions/workflow-graph.ts';
import { NODE_INPUTS, type NodeInputs } from '../decisions/workflow-inputs.ts';
import { TRIGGER_RULES, type TriggerRule } from '../decisions/workflow-nodes.ts';
import { DschedError } from '../errors.ts';
import { newId } from '../ids.ts';
import { type FlowControl, laneFor, type Priority, type RetryPolicy, type Target } from '../model.ts';
import {
  flowControlSchema,
  metadataSchema,
  prioritySchema,
  registerTaskWorkflowSchema,
  retrySchema,
  targetSchema,
  taskNameSchema,
  toFlowControl,
  toTarget,
} from './task-spec.ts';

// The request shape of POST /v1/workflows, as zod schemas (they validate and feed OpenAPI). The
// graph checks that need the whole graph (unique ids, known parents, acyclic) are in
// workflow-graph.ts: zod checks each node alone.

/** The most nodes, and parent links, one workflow may have (docs/workflows.md). */
export const MAX_WORKFLOW_NODES = 100_000;
export const MAX_WORKFLOW_EDGES = 1_000_000;
/** A node's parents are listed in its request; past this, use a fan-in node per group. */
export const MAX_NODE_PARENTS = 100_000;
/** The longest deadline a run may have: 30 days. */
export const MAX_WORKFLOW_DEADLINE_S = 30 * 86_400;

/** Node ids appear in paths (/nodes/{nodeId}/retry), so they keep to URL-safe characters. */
export const NODE_ID = /^[A-Za-z0-9._~:-]{1,100}$/;

export const nodeIdSchema = z.string().regex(NODE_ID, 'at most 100 of A-Z a-z 0-9 . _ ~ : -');

// Strict: a misspelt field (say `depends_on`) would otherwise be dropped and quietly turn a node into
// a root.
export const workflowNodeSchema = z.strictObject({
  id: nodeIdSchema,
  target: targetSchema,
  dependsOn: z.array(z.string()).max(MAX_NODE_PARENTS).default([]),
  retry: retrySchema.default({ maxAttempts: 5, initialBackoffMs: 1000, maxBackoffMs: 300_000, rules: [] }),
  priority: prioritySchema.default('normal'),
  trigger: z.enum(TRIGGER_RULES).default('all_success'),
  inputs: z
    .enum(NODE_INPUTS)
    .default('none')
    .describe(
      '`parents`: the node is called with `{"parents": {nodeId: output}, "body": <its body>}`, or, when ' +
        'its parents do not fit in one request, `{"parentsUrl", "parentCount", "body"}` (a paged list)',
    ),
  // As a task's: the node's job carries the key, and its calls share the key's limits with every
  // other call of the tenant naming it, across tasks, nodes and runs (docs/flow-control.md).
  flowControl: flowControlSchema.optional(),
});

export const FAILURE_POLICIES = ['continue', 'fail_fast'] as const;
export type FailurePolicy = (typeof FAILURE_POLICIES)[number];

export const createWorkflowSchema = z.strictObject({
  name: taskNameSchema,
  nodes: z.array(workflowNodeSchema).min(1).max(MAX_WORKFLOW_NODES),
  failurePolicy: z.enum(FAILURE_POLICIES).default('continue'),
  maxParallel: z.number().int().min(1).max(MAX_WORKFLOW_NODES).optional(),
  deadlineS: z.number().int().min(1).max(MAX_WORKFLOW_DEADLINE_S).optional(),
  metadata: metadataSchema.optional(),
});

export type CreateWorkflowRequest = z.infer<typeof createWorkflowSchema>;

registerTaskWorkflowSchema(createWorkflowSchema);

/** One node as it is stored: what its job will be, and where it sits in the graph. */
export interface WorkflowNodeSpec {
  id: string;
  target: Target;
  retry: RetryPolicy;
  priority: Priority;
  lane: ReturnType<typeof laneFor>;
  trigger: TriggerRule;
  inputs: NodeInputs;
  parents: string[];
  flowControl: FlowControl | null;
}

export function toWorkflowNodeSpec(n: CreateWorkflowRequest['nodes'][number]): WorkflowNodeSpec {
  const target = toTarget(n.target);
  return {
    id: n.id,
    target,
    retry: n.retry,
    priority: n.priority,
    // The critical lane is reserved for critical priority (as for tasks); a node takes the lane
    // its priority and timeout imply.
    lane: laneFor(n.priority, target.timeoutMs),
    trigger: n.trigger,
    inputs: n.inputs,
    parents: n.dependsOn,
    flowControl: toFlowControl(n.flowControl),
  };
}

/** A checked submission, as it is stored. */
export interface WorkflowPlan {
  id: string;
  tenantId: string;
  name: string;
  failurePolicy: FailurePolicy;
  maxParallel: number | null;
  deadlineS: number | null;
  metadata: Record<string, unknown> | null;
  nodes: WorkflowNodeSpec[];
  /** One job id per node, in `nodes` order: the node's job, whenever it is made. */
  jobIds: string[];
  edgeCount: number;
}

/**
 * Checks the graph of a task's workflow (a scheduled workflow) as a submission's is checked, at the
 * task's creation or edit, so no occurrence ever meets a refused graph; fields named `workflow.…`.
 */
export function checkTaskWorkflow(workflow: CreateWorkflowRequest): void {
  try {
    checkWorkflowGraph(workflow.nodes);
  } catch (err) {
    if (!(err instanceof DschedError)) throw err;
    const details = err.details.map((d) => ({ field: `workflow.${d.field}`, issue: d.issue }));
    throw new DschedError(err.code, details.map((d) => `${d.field}: ${d.issue}`).join('; '), { details });
  }
}

/**
 * Checks a parsed submission's graph (throws invalid_argument naming the node) and gives the run
 * and each node's job their ids, time-ordered from `nowMs` (the database clock).
 */
export function planWorkflow(req: CreateWorkflowRequest, tenantId: string, nowMs: number): WorkflowPlan {
  const graph = checkWorkflowGraph(req.nodes);
  return {
    id: newId(nowMs),
    tenantId,
    name: req.name,
    failurePolicy: req.failurePolicy,
    maxParallel: req.maxParallel ?? null,
    deadlineS: req.deadlineS ?? null,
    metadata: req.metadata ?? null,
    nodes: req.nodes.map(toWorkflowNodeSpec),
    jobIds: req.nodes.map(() => newId(nowMs)),
    edgeCount: graph.edgeCount,
  };
}
