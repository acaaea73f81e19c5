import { z } from 'zod';
import { MAX_WORKFLOW_NODES } from '../decisions/workflow-graph.ts';
import { FAILURE_POLICIES, NODE_INPUTS, TRIGGER_RULES, type WorkflowBody } from '../model.ts';
import {
  flowControlSchema,
  metadataSchema,
  prioritySchema,
  retrySchema,
  targetSchema,
  taskNameSchema,
} from './call-spec.ts';
import { tagsSchema } from './tags.ts';

// The request shape of POST /v1/workflows, as zod schemas (they validate and feed OpenAPI). The
// graph checks that need the whole graph (unique ids, known parents, acyclic) are in
// workflow-graph.ts: zod checks each node alone.

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

export const createWorkflowSchema = z.strictObject({
  name: taskNameSchema,
  nodes: z.array(workflowNodeSchema).min(1).max(MAX_WORKFLOW_NODES),
  failurePolicy: z.enum(FAILURE_POLICIES).default('continue'),
  maxParallel: z.number().int().min(1).max(MAX_WORKFLOW_NODES).optional(),
  deadlineS: z.number().int().min(1).max(MAX_WORKFLOW_DEADLINE_S).optional(),
  metadata: metadataSchema.optional(),
  tags: tagsSchema.optional(),
});

export type CreateWorkflowRequest = z.infer<typeof createWorkflowSchema>;

// What the schema yields is the model's WorkflowBody, exactly: a stored workflow task's body and a
// submission are one type, though the model does not import the schema (no cycle).
true satisfies SameType<CreateWorkflowRequest, WorkflowBody>;
type SameType<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
