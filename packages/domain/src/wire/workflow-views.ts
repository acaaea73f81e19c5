import { z } from 'zod';
import {
  NODE_STATES,
  type NodeState,
  WORKFLOW_STATES,
  type WorkflowState,
} from '../decisions/workflow-nodes.ts';
import { NODE_INPUTS, NODE_KINDS, type NodeInputs, type NodeKind, type Tags } from '../model.ts';
import { checkRange, pageQueryShape } from './job-queries.ts';
import { pageTokenParam } from './paging.ts';
import { tagQueryShape, tagsSchema } from './tags.ts';
import { iso } from './views.ts';

// What the workflow routes return: records as the store reads them, their views, and the zod
// schemas of those views for the OpenAPI document; plus the query of the node list.

export interface WorkflowRecord {
  id: string;
  name: string;
  state: WorkflowState;
  paused: boolean;
  failurePolicy: 'continue' | 'fail_fast';
  maxParallel: number | null;
  nodeCount: number;
  edgeCount: number;
  deadlineAt: Date | null;
  metadata: Record<string, unknown> | null;
  tags: Tags | null;
  createdAt: Date;
  updatedAt: Date;
  finishedAt: Date | null;
  /** Nodes by the state the API shows. */
  nodes: Record<NodeState, number>;
}

export interface NodeRecord {
  nodeId: string;
  state: NodeState;
  attempt: number;
  /** The node's job, once it was made. */
  jobId: string | null;
  trigger: string;
  /** What the node asked to be called with besides its body. */
  inputs: NodeInputs;
  /** What a sleep, wait or map node does (absent: a call or a map's item; kept in history). */
  kind?: NodeKind;
  /** A pending sleep's wake time, or a pending wait's timeout. */
  wakeAt?: Date;
  /** A wait node not ended yet: what its signal URL is made of (its job id, its stored token hash). */
  signal?: { jobId: string; hash: Buffer | null };
  /** A map node: the parent it maps over, its items' count (null until it starts), how many are made. */
  map?: { over: string; count: number | null; made: number };
  /** A wait node's signal URL (shown to the tenant's key: it works without one). */
  signalUrl?: string;
  finishedAt: Date | null;
  output: unknown;
  /** Read from history: the bucket the node came from, where the next page starts. */
  bucket?: number;
}

export function workflowView(w: WorkflowRecord): Record<string, unknown> {
  return {
    id: w.id,
    name: w.name,
    state: w.state,
    paused: w.paused,
    failurePolicy: w.failurePolicy,
    ...(w.maxParallel !== null ? { maxParallel: w.maxParallel } : {}),
    nodeCount: w.nodeCount,
    edgeCount: w.edgeCount,
    nodes: w.nodes,
    ...(w.deadlineAt ? { deadlineAt: iso(w.deadlineAt) } : {}),
    ...(w.metadata ? { metadata: w.metadata } : {}),
    ...(w.tags ? { tags: w.tags } : {}),
    createdAt: iso(w.createdAt),
    updatedAt: iso(w.updatedAt),
    ...(w.finishedAt ? { finishedAt: iso(w.finishedAt) } : {}),
  };
}

export function nodeView(n: NodeRecord): Record<string, unknown> {
  return {
    id: n.nodeId,
    ...(n.kind ? { kind: n.kind } : {}),
    state: n.state,
    attempt: n.attempt,
    trigger: n.trigger,
    inputs: n.inputs,
    ...(n.jobId ? { jobId: n.jobId } : {}),
    ...(n.wakeAt ? { wakeAt: iso(n.wakeAt) } : {}),
    ...(n.signalUrl ? { signalUrl: n.signalUrl } : {}),
    ...(n.map
      ? {
          map: {
            over: n.map.over,
            ...(n.map.count === null ? {} : { count: n.map.count }),
            made: n.map.made,
          },
        }
      : {}),
    ...(n.finishedAt ? { finishedAt: iso(n.finishedAt) } : {}),
    ...(n.output !== undefined ? { output: n.output } : {}),
  };
}

export const workflowViewSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    state: z.enum(WORKFLOW_STATES),
    paused: z.boolean().describe('dispatch is held: nodes that become ready wait'),
    failurePolicy: z.enum(['continue', 'fail_fast']),
    maxParallel: z.number().int().optional(),
    nodeCount: z.number().int(),
    edgeCount: z.number().int(),
    nodes: z.record(z.enum(NODE_STATES), z.number().int()).describe('nodes by state'),
    deadlineAt: z.string().optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
    tags: tagsSchema.optional(),
    createdAt: z.string(),
    updatedAt: z.string(),
    finishedAt: z.string().optional(),
  })
  .meta({ id: 'Workflow' });

export const workflowNodeViewSchema = z
  .object({
    id: z.string(),
    kind: z
      .enum(NODE_KINDS)
      .optional()
      .describe(
        "`sleep`, `wait` or `map`; absent for a `call` node and a map's item; a run read from history keeps it",
      ),
    state: z.enum(NODE_STATES),
    attempt: z.number().int().describe('attempts made so far'),
    trigger: z.string(),
    inputs: z.enum(NODE_INPUTS).describe('`parents`: called with its parents’ outputs beside its body'),
    jobId: z.string().optional().describe('the node’s job in job-api, once it was made'),
    wakeAt: z
      .string()
      .optional()
      .describe('a pending sleep node: when it wakes; a pending wait node: its timeout'),
    signalUrl: z
      .string()
      .optional()
      .describe('a wait node that waits: POST here (no API key: the token is in it) to signal it, once'),
    map: z
      .object({
        over: z.string().describe('the parent whose output it maps over'),
        count: z.number().int().optional().describe('its items (the array’s length), once it started'),
        made: z.number().int().describe('item nodes made so far (`<id>~<index>`, listed among the nodes)'),
      })
      .optional()
      .describe('a map node'),
    finishedAt: z.string().optional(),
    output: z
      .unknown()
      .optional()
      .describe(
        'the response body of its last finished attempt (succeeded or dead), its first EXECUTOR_MAX_OUTPUT_BYTES: the JSON it was, or a string',
      ),
  })
  .meta({ id: 'WorkflowNode' });

/** GET /v1/workflows/{id}/nodes query. */
export const listWorkflowNodesQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(50),
  pageToken: pageTokenParam(),
  state: z.enum(NODE_STATES).optional(),
});

export type ListWorkflowNodesQuery = z.infer<typeof listWorkflowNodesQuerySchema>;

/** GET /v1/workflows/{id}/nodes/{nodeId}/parents query. */
export const listNodeParentsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(50),
  pageToken: pageTokenParam(),
});

export type ListNodeParentsQuery = z.infer<typeof listNodeParentsQuerySchema>;

export const workflowNodeParamsSchema = z.object({ id: z.string(), nodeId: z.string() });

/** A run as the runs list shows it: its record without the node counts by state. */
export type WorkflowSummary = Omit<WorkflowRecord, 'nodes'>;

export function workflowSummaryView(w: WorkflowSummary): Record<string, unknown> {
  const { nodes: _, ...view } = workflowView({ ...w, nodes: {} as WorkflowRecord['nodes'] });
  return view;
}

export const workflowSummarySchema = workflowViewSchema.omit({ nodes: true }).meta({ id: 'WorkflowSummary' });

const listTime = z.iso.datetime({ offset: true });

/**
 * GET /v1/workflows: the tenant's runs, newest first by creation, live and archived, filtered by
 * state, exact name, creation range and tags.
 */
export const listWorkflowsQuerySchema = z
  .object({
    state: z.enum(WORKFLOW_STATES).optional(),
    name: z.string().min(1).max(200).optional().describe('the run’s name, exactly'),
    from: listTime.optional().describe('inclusive lower bound on createdAt (default: `to` minus 7 days)'),
    to: listTime.optional().describe('exclusive upper bound on createdAt (default: now)'),
    ...tagQueryShape,
    ...pageQueryShape,
  })
  .superRefine(checkRange);

export type ListWorkflowsQuery = z.infer<typeof listWorkflowsQuerySchema>;

/** A wait node's signal, through the key's route or the node's signal URL (docs/workflows.md "Signals"). */
export interface SignalRequest {
  workflowId: string;
  nodeId: string;
  /** With an API key: the tenant whose run it must be. */
  tenantId?: string;
  /** Through the URL: whether its token is the node's, given the stored hash and the node's job id. */
  tokenMatches?: (storedHash: Buffer | null, jobId: string) => boolean;
  /** The payload as JSON text (the node's output), or null. */
  payload: string | null;
  /** Who signalled and from where, for the audit. */
  by: string;
}

export type SignalResult =
  | { result: 'signalled'; jobId: string }
  | { result: 'not_found' }
  | { result: 'conflict'; issue: string };
