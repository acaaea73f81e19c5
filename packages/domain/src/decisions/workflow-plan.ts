import { DschedError } from '../errors.ts';
import { newId } from '../ids.ts';
import {
  type FailurePolicy,
  type FlowControl,
  laneFor,
  type NodeInputs,
  type Priority,
  type RetryPolicy,
  type Tags,
  type Target,
  type TriggerRule,
} from '../model.ts';
import { toFlowControl, toTarget } from '../wire/call-spec.ts';
import { normaliseTags } from '../wire/tags.ts';
import type { TraceContext } from '../wire/trace-context.ts';
import type { CreateWorkflowRequest } from '../wire/workflow-spec.ts';
import { checkWorkflowGraph } from './workflow-graph.ts';

// A submission as it is stored: its graph checked (workflow-graph.ts), each node's job decided
// (lane, target, flow control), and the run's and the nodes' ids given from the database clock.

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
  /** Copied to every node job (docs/tags.md); null: none. */
  tags: Tags | null;
  nodes: WorkflowNodeSpec[];
  /** One job id per node, in `nodes` order: the node's job, whenever it is made. */
  jobIds: string[];
  edgeCount: number;
  /** The run's trace (docs/tracing.md): its node jobs are spans of it. */
  trace?: TraceContext | null;
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
    tags: normaliseTags(req.tags),
    nodes: req.nodes.map(toWorkflowNodeSpec),
    jobIds: req.nodes.map(() => newId(nowMs)),
    edgeCount: graph.edgeCount,
  };
}
