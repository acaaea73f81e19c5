import { z } from 'zod';
import { invalidArgument } from '../errors.ts';
import { isId } from '../ids.ts';
import type { Tags } from '../model.ts';
import { pageQueryShape } from './job-queries.ts';
import { parseTagFilter, TAG_LIMITS } from './tags.ts';

// Bulk operations (docs/bulk-operations.md): one request that cancels, pauses, resumes, redrives or
// retries what a filter matches, carried out by the reconciler in batches. The request's shape is
// here; what each action touches is in packages/mysql/src/operations.

export const OPERATION_ACTIONS = ['cancel', 'pause', 'resume', 'redrive', 'retry'] as const;
export type OperationAction = (typeof OPERATION_ACTIONS)[number];
export const OPERATION_STATES = ['running', 'succeeded', 'failed', 'cancelled'] as const;
export type OperationState = (typeof OPERATION_STATES)[number];

/** Actions on tasks (a filter of taskId and tags); the others act on jobs. */
export const TASK_ACTIONS: readonly OperationAction[] = ['pause', 'resume'];

/** The job states each job action may be narrowed to (`filter.state`). */
const JOB_ACTION_STATES: Record<string, readonly string[]> = {
  cancel: ['pending', 'running'],
  redrive: ['dead'],
  retry: ['pending'],
};

const time = z.iso.datetime({ offset: true }).describe('RFC 3339 time');

/** The longest `filter.errorContains` (a job's last error is at most 1,000 characters). */
export const ERROR_TEXT_MAX = 200;

export const operationFilterSchema = z
  .strictObject({
    taskId: z.string().optional().describe('one task: its jobs, or the task itself (pause, resume)'),
    tag: z
      .union([z.string(), z.array(z.string())])
      .optional()
      .describe(`key:value, or a list of them (all must match, at most ${TAG_LIMITS.perFilter})`),
    state: z
      .enum(['pending', 'running', 'dead'])
      .optional()
      .describe('narrows a job action: cancel pending or running, redrive dead, retry pending'),
    from: time.optional().describe('jobs scheduled at or after this time'),
    to: time.optional().describe('jobs scheduled before this time'),
    errorContains: z
      .string()
      .min(1)
      .max(ERROR_TEXT_MAX)
      .optional()
      .describe(
        'a job action: only jobs whose last error contains this text (ignoring case); it narrows the ' +
          'other fields, it is not a filter alone',
      ),
  })
  .describe('what the operation acts on; at least one of taskId, tag, from, to (never everything)')
  .meta({ id: 'OperationFilter' });

export const createOperationSchema = z.strictObject({
  action: z
    .enum(OPERATION_ACTIONS)
    .describe(
      'cancel: pending and running jobs; pause, resume: tasks; redrive: dead jobs (the DLQ); ' +
        'retry: pending jobs waiting out a retry backoff, made due now',
    ),
  filter: operationFilterSchema,
  dryRun: z.boolean().optional().describe('count what it would touch; change nothing, store nothing'),
});
export type CreateOperationRequest = z.infer<typeof createOperationSchema>;

export const listOperationsQuerySchema = z.strictObject({ ...pageQueryShape });

/** A filter checked against its action, as the store walks it. */
export interface OperationFilter {
  taskId: string | null;
  tags: Tags | null;
  state: 'pending' | 'running' | 'dead' | null;
  from: Date | null;
  /** Exclusive. */
  to: Date | null;
  /** Jobs whose last error contains it, ignoring case (a job action's narrowing, never alone). */
  errorContains: string | null;
}

/**
 * The filter of a request, checked against its action: never empty (at least one of taskId, tag,
 * from, to: a state alone would be nearly everything), a task action only by task and tags, a
 * state its action can act on, a range that is not empty. Throws invalid_argument naming the field.
 */
export function operationFilter(
  action: OperationAction,
  raw: CreateOperationRequest['filter'],
): OperationFilter {
  if (raw.taskId !== undefined && !isId(raw.taskId)) throw invalidArgument('filter.taskId', 'not an id');
  const tags = parseTagFilterAt(raw.tag);
  const filter: OperationFilter = {
    taskId: raw.taskId ?? null,
    tags: tags ?? null,
    state: raw.state ?? null,
    from: raw.from === undefined ? null : new Date(raw.from),
    to: raw.to === undefined ? null : new Date(raw.to),
    errorContains: raw.errorContains ?? null,
  };
  if (!filter.taskId && !filter.tags && !filter.from && !filter.to) {
    throw invalidArgument(
      'filter',
      'a filter is required (taskId, tag, from or to): an operation never acts on everything',
    );
  }
  if (TASK_ACTIONS.includes(action)) {
    for (const field of ['state', 'from', 'to', 'errorContains'] as const) {
      if (raw[field] !== undefined)
        throw invalidArgument(`filter.${field}`, `${action} acts on tasks: filter them by taskId and tag`);
    }
    if (!filter.taskId && !filter.tags) throw invalidArgument('filter', `${action} needs taskId or tag`);
  } else if (filter.state && !JOB_ACTION_STATES[action]!.includes(filter.state)) {
    throw invalidArgument(
      'filter.state',
      `${action} acts on ${JOB_ACTION_STATES[action]!.join(' or ')} jobs`,
    );
  }
  if (filter.from && filter.to && filter.from >= filter.to)
    throw invalidArgument('filter.from', 'must be before to');
  return filter;
}

function parseTagFilterAt(raw: string | string[] | undefined): Tags | undefined {
  try {
    return parseTagFilter(raw);
  } catch (err) {
    const issue = (err as { details?: { issue: string }[] }).details?.[0]?.issue ?? String(err);
    throw invalidArgument('filter.tag', issue);
  }
}

/** What a stored operation is (the store's row, as the API shows it). */
export interface Operation {
  id: string;
  tenantId: string;
  action: OperationAction;
  filter: OperationFilter;
  state: OperationState;
  cancelRequested: boolean;
  matched: number;
  done: number;
  failed: number;
  batches: number;
  error: string | null;
  createdAt: Date;
  updatedAt: Date;
  finishedAt: Date | null;
}

export const operationViewSchema = z
  .object({
    id: z.string(),
    action: z.enum(OPERATION_ACTIONS),
    filter: z
      .object({
        taskId: z.string().optional(),
        tag: z.array(z.string()).optional(),
        state: z.enum(['pending', 'running', 'dead']).optional(),
        from: z.string().optional(),
        to: z.string().optional(),
        errorContains: z.string().optional(),
      })
      .describe('the filter as stored: tags as a list, times normalised')
      .meta({ id: 'OperationFilterView' }),
    state: z.enum(OPERATION_STATES),
    matched: z
      .number()
      .int()
      .describe('what the filter matched when the operation started (counted up to a cap)'),
    done: z.number().int().describe('what it changed so far'),
    failed: z.number().int().describe('what matched but could not be changed'),
    cancelRequested: z.boolean().describe('a cancel was asked for: it stops before its next batch'),
    error: z.string().optional(),
    createdAt: z.string(),
    updatedAt: z.string(),
    finishedAt: z.string().optional(),
  })
  .meta({ id: 'Operation' });
export type OperationView = z.infer<typeof operationViewSchema>;

export function operationView(op: Operation): OperationView {
  const f = op.filter;
  return {
    id: op.id,
    action: op.action,
    filter: {
      ...(f.taskId ? { taskId: f.taskId } : {}),
      ...(f.tags ? { tag: Object.entries(f.tags).map(([k, v]) => `${k}:${v}`) } : {}),
      ...(f.state ? { state: f.state } : {}),
      ...(f.from ? { from: f.from.toISOString() } : {}),
      ...(f.to ? { to: f.to.toISOString() } : {}),
      ...(f.errorContains ? { errorContains: f.errorContains } : {}),
    },
    state: op.state,
    matched: op.matched,
    done: op.done,
    failed: op.failed,
    cancelRequested: op.cancelRequested,
    ...(op.error ? { error: op.error } : {}),
    createdAt: op.createdAt.toISOString(),
    updatedAt: op.updatedAt.toISOString(),
    ...(op.finishedAt ? { finishedAt: op.finishedAt.toISOString() } : {}),
  };
}
