import { z } from 'zod';
import { parseDuration } from '../calendar/interval.ts';
import { MAX_WORKFLOW_NODES } from '../decisions/workflow-graph.ts';
import {
  FAILURE_POLICIES,
  NODE_INPUTS,
  NODE_KINDS,
  TRIGGER_RULES,
  WAIT_TIMEOUT_OUTCOMES,
  type WorkflowBody,
} from '../model.ts';
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

/** The longest sleep, and the longest wait for a signal: a year. */
export const MAX_NODE_WAIT_S = 365 * 86_400;

export const sleepSpecSchema = z
  .strictObject({
    for: z
      .string()
      .optional()
      .describe('a duration from when the node is reached: `90s`, `10m`, `1h30m`, `2d`'),
    until: z.iso.datetime({ offset: true }).optional().describe('an RFC 3339 time to wake at'),
  })
  .describe('exactly one of `for` and `until`; more than 0 and at most a year');

export const waitSpecSchema = z.strictObject({
  timeoutS: z.number().int().min(1).max(MAX_NODE_WAIT_S).describe('how long the node waits for its signal'),
  onTimeout: z
    .enum(WAIT_TIMEOUT_OUTCOMES)
    .default('fail')
    .describe('at the timeout: `fail` the node (the run goes on by its failure policy) or `succeed` it'),
});

/** How many items a map node makes unless it says (`map.maxItems`); each counts toward the node cap. */
export const DEFAULT_MAP_MAX_ITEMS = 10_000;

export const mapSpecSchema = z
  .strictObject({
    over: nodeIdSchema.describe('the parent whose output (a JSON array) is mapped over: one call per item'),
    target: targetSchema.describe(
      "each item's call: the item is its body, its index the `Dsched-Map-Index` header",
    ),
    maxItems: z
      .number()
      .int()
      .min(1)
      .max(MAX_WORKFLOW_NODES)
      .default(DEFAULT_MAP_MAX_ITEMS)
      .describe(
        "the most items; a longer array fails the node. Counted toward the run's 100,000 nodes at submission",
      ),
  })
  .describe('required for a `map` node');

// Strict: a misspelt field (say `depends_on`) would otherwise be dropped and quietly turn a node into
// a root.
export const workflowNodeSchema = z
  .strictObject({
    id: nodeIdSchema,
    kind: z
      .enum(NODE_KINDS)
      .default('call')
      .describe(
        '`call` its target; `sleep` (no call) until its time; `wait` for a signal, up to `wait.timeoutS`; ' +
          "`map`: one call of `map.target` per item of a parent's output (items `<id>~<index>`)",
      ),
    target: targetSchema.optional().describe('required for a `call` node'),
    sleep: sleepSpecSchema.optional().describe('required for a `sleep` node'),
    wait: waitSpecSchema.optional().describe('required for a `wait` node'),
    map: mapSpecSchema.optional(),
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
  })
  .superRefine(checkNodeKind);

/** Each kind takes its own field and refuses the others' (400 naming the field). */
function checkNodeKind(
  n: {
    kind: string;
    target?: unknown;
    sleep?: { for?: string | undefined; until?: string | undefined };
    wait?: unknown;
    map?: unknown;
  },
  ctx: z.RefinementCtx,
): void {
  const fields = { call: 'target', sleep: 'sleep', wait: 'wait', map: 'map' } as const;
  for (const [kind, field] of Object.entries(fields)) {
    const present = n[field] !== undefined;
    if (kind === n.kind && !present) {
      ctx.addIssue({ code: 'custom', path: [field], message: `required for a ${kind} node` });
    } else if (kind !== n.kind && present) {
      ctx.addIssue({ code: 'custom', path: [field], message: `not allowed on a ${n.kind} node` });
    }
  }
  const sleep = n.kind === 'sleep' ? n.sleep : undefined;
  if (!sleep) return;
  if ((sleep.for === undefined) === (sleep.until === undefined)) {
    ctx.addIssue({ code: 'custom', path: ['sleep'], message: 'exactly one of for and until' });
  } else if (sleep.for !== undefined) {
    const ms = parseDuration(sleep.for);
    if (ms === null) {
      ctx.addIssue({
        code: 'custom',
        path: ['sleep', 'for'],
        message: 'a duration such as 90s, 10m, 1h30m or 2d',
      });
    } else if (ms <= 0 || ms > MAX_NODE_WAIT_S * 1000) {
      ctx.addIssue({ code: 'custom', path: ['sleep', 'for'], message: 'more than 0 and at most a year' });
    }
  }
}

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
