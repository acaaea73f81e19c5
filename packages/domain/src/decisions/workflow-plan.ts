import { parseDuration } from '../calendar/interval.ts';
import { signalToken, signalTokenHash } from '../crypto/signal-token.ts';
import { DschedError } from '../errors.ts';
import { newId } from '../ids.ts';
import {
  type FailurePolicy,
  type FlowControl,
  laneFor,
  MAP_LANE,
  type MapSpec,
  type NodeInputs,
  type NodeKind,
  type Priority,
  type RetryPolicy,
  SLEEP_LANE,
  type Tags,
  type Target,
  type TriggerRule,
  WAIT_LANE,
} from '../model.ts';
import { toFlowControl, toTarget } from '../wire/call-spec.ts';
import { normaliseTags } from '../wire/tags.ts';
import type { TraceContext } from '../wire/trace-context.ts';
import { type CreateWorkflowRequest, MAX_NODE_WAIT_S } from '../wire/workflow-spec.ts';
import { checkWorkflowGraph } from './workflow-graph.ts';
import { mapNodeIssues } from './workflow-map.ts';

// A submission as it is stored: its graph checked (workflow-graph.ts), each node's job decided
// (lane, target, flow control), and the run's and the nodes' ids given from the database clock.

/** One node as it is stored: what its job will be, and where it sits in the graph. */
export interface WorkflowNodeSpec {
  id: string;
  kind: NodeKind;
  /** A call node's target; a sleep's or wait's names its kind (nodeKindTarget), never called. */
  target: Target;
  /**
   * When a sleep or wait node's job is due, once the node is reached: a delay from then (a sleep's
   * `for`, a wait's timeout) or an instant (a sleep's `until`); null for a call.
   */
  wake: { delayMs: number } | { at: Date } | null;
  /** A map node's parent it maps over and its cap (its `target` is each item's call); else absent. */
  map?: Pick<MapSpec, 'over' | 'maxItems'>;
  /** A wait node's signal token hash (hex; signal-token.ts), set by whoever holds the keyring; else null. */
  signalHash?: string | null;
  retry: RetryPolicy;
  priority: Priority;
  lane: ReturnType<typeof laneFor>;
  trigger: TriggerRule;
  inputs: NodeInputs;
  parents: string[];
  flowControl: FlowControl | null;
}

export function toWorkflowNodeSpec(n: CreateWorkflowRequest['nodes'][number]): WorkflowNodeSpec {
  if (n.kind === 'map' && n.map) return mapNodeSpec(n, n.map);
  if (n.kind !== 'call' || !n.target) return waitingNodeSpec(n);
  const target = toTarget(n.target);
  return {
    id: n.id,
    kind: 'call',
    target,
    wake: null,
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

/**
 * A map node as stored: its target is each item's call (with the item's priority, retry and flow
 * control, which the items copy); its own job is in MAP_LANE, which the node waker expands.
 */
function mapNodeSpec(n: CreateWorkflowRequest['nodes'][number], map: MapSpec): WorkflowNodeSpec {
  return {
    id: n.id,
    kind: 'map',
    target: toTarget(map.target),
    wake: null,
    map: { over: map.over, maxItems: map.maxItems },
    retry: n.retry,
    priority: n.priority,
    lane: MAP_LANE,
    trigger: n.trigger,
    inputs: 'none',
    parents: n.dependsOn,
    flowControl: toFlowControl(n.flowControl),
  };
}

/** Throws invalid_argument naming each field when a submission's map nodes are wrong (workflow-map.ts). */
function checkMapNodes(nodes: CreateWorkflowRequest['nodes']): void {
  const details = mapNodeIssues(nodes);
  if (details.length > 0) {
    throw new DschedError('invalid_argument', details.map((d) => `${d.field}: ${d.issue}`).join('; '), {
      details,
    });
  }
}

/**
 * The stored target of a sleep or wait node: never called (its job's lane is claimed by no
 * executor); its url names what the node waker does when the job is due.
 */
export function nodeKindTarget(kind: 'sleep' | 'wait', onTimeout: 'fail' | 'succeed' = 'fail'): Target {
  const url = kind === 'sleep' ? 'dsched:sleep' : `dsched:wait?onTimeout=${onTimeout}`;
  return { url, method: 'POST', headers: {}, timeoutMs: 30_000 };
}

/** What a wait node's stored target says it does at its timeout. */
export function waitTimeoutOutcome(target: Target): 'fail' | 'succeed' {
  return target.url.endsWith('onTimeout=succeed') ? 'succeed' : 'fail';
}

function waitingNodeSpec(n: CreateWorkflowRequest['nodes'][number]): WorkflowNodeSpec {
  let wake: WorkflowNodeSpec['wake'];
  if (n.kind === 'wait') wake = { delayMs: (n.wait?.timeoutS ?? 0) * 1000 };
  else if (n.sleep?.until !== undefined) wake = { at: new Date(n.sleep.until) };
  else wake = { delayMs: parseDuration(n.sleep?.for ?? '') ?? 0 };
  return {
    id: n.id,
    kind: n.kind === 'wait' ? 'wait' : 'sleep',
    target: nodeKindTarget(n.kind === 'wait' ? 'wait' : 'sleep', n.wait?.onTimeout),
    wake,
    retry: n.retry,
    priority: n.priority,
    lane: n.kind === 'wait' ? WAIT_LANE : SLEEP_LANE,
    trigger: n.trigger,
    inputs: n.inputs,
    parents: n.dependsOn,
    flowControl: null,
  };
}

/**
 * A submission's sleeps `until` a time are after `nowMs` and at most a year ahead (400 naming
 * `nodes.<i>.sleep.until`). Checked when a run is submitted; a scheduled run whose time has
 * passed wakes at once.
 */
export function checkNodeTimes(req: CreateWorkflowRequest, nowMs: number): void {
  const details: { field: string; issue: string }[] = [];
  req.nodes.forEach((n, i) => {
    if (n.kind !== 'sleep' || n.sleep?.until === undefined) return;
    const at = Date.parse(n.sleep.until);
    if (at <= nowMs) details.push({ field: `nodes.${i}.sleep.until`, issue: 'must be in the future' });
    else if (at - nowMs > MAX_NODE_WAIT_S * 1000) {
      details.push({ field: `nodes.${i}.sleep.until`, issue: 'at most a year ahead' });
    }
  });
  if (details.length > 0) {
    throw new DschedError('invalid_argument', details.map((d) => `${d.field}: ${d.issue}`).join('; '), {
      details,
    });
  }
}

/**
 * Gives each wait node of a plan the hash of its signal token (task-api, which holds the keyring).
 * A run planned without it (a scheduled run, started by the reconciler) has none stored: its
 * token is checked against the keyring's current key instead.
 */
export function withSignalHashes(plan: WorkflowPlan, key: Buffer): WorkflowPlan {
  plan.nodes.forEach((n, i) => {
    if (n.kind !== 'wait') return;
    const token = signalToken(key, { workflowId: plan.id, nodeId: n.id, jobId: plan.jobIds[i]! });
    n.signalHash = signalTokenHash(token).toString('hex');
  });
  return plan;
}

/** A checked submission, as it is stored. */
export interface WorkflowPlan {
  id: string;
  /** The run's partition (docs/sharding.md): its id, its rows and its node jobs' ids carry it. */
  partition: number;
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
    checkMapNodes(workflow.nodes);
  } catch (err) {
    if (!(err instanceof DschedError)) throw err;
    const details = err.details.map((d) => ({ field: `workflow.${d.field}`, issue: d.issue }));
    throw new DschedError(err.code, details.map((d) => `${d.field}: ${d.issue}`).join('; '), { details });
  }
}

/**
 * Checks a parsed submission's graph (throws invalid_argument naming the node) and gives the run
 * and each node's job their ids, time-ordered from `nowMs` (the database clock), each carrying the
 * run's `partition` (newId): a submitted run's is drawn at random, a task's occurrence's is its task's.
 */
export function planWorkflow(
  req: CreateWorkflowRequest,
  tenantId: string,
  nowMs: number,
  partition: number,
): WorkflowPlan {
  const graph = checkWorkflowGraph(req.nodes);
  checkMapNodes(req.nodes);
  return {
    id: newId(nowMs, partition),
    partition,
    tenantId,
    name: req.name,
    failurePolicy: req.failurePolicy,
    maxParallel: req.maxParallel ?? null,
    deadlineS: req.deadlineS ?? null,
    metadata: req.metadata ?? null,
    tags: normaliseTags(req.tags),
    nodes: req.nodes.map(toWorkflowNodeSpec),
    jobIds: req.nodes.map(() => newId(nowMs, partition)),
    edgeCount: graph.edgeCount,
  };
}
