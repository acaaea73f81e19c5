import { z } from 'zod';
import {
  flowControlSchema,
  laneSchema,
  metadataSchema,
  prioritySchema,
  retrySchema,
  targetSchema,
  taskNameSchema,
} from './call-spec.ts';
import { pageTokenParam } from './paging.ts';
import { tagQueryShape, tagsSchema } from './tags.ts';
import {
  callbacksSchema,
  jitterSchema,
  misfirePolicySchema,
  overlapPolicySchema,
  pauseAfterFailuresSchema,
  refineSchedule,
  scheduleSchema,
  taskKeySchema,
} from './task-spec.ts';
import { createWorkflowSchema } from './workflow-spec.ts';

// Request shapes of the task lifecycle routes (PATCH, backfill, list), as zod schemas: they
// validate requests and generate the OpenAPI document, like createTaskSchema.

/**
 * PATCH /v1/tasks/{id}: any subset of the create fields. A field given replaces the whole field
 * (a new `target` is a whole target, with its defaults); a field absent is left alone; `metadata:
 * null` clears it, and so do `tags: null`, `pauseAfterFailures: null`, `callbacks: null` and `flowControl: null`. Other fields (id, state, version, nextFireAt...) are refused by name.
 */
export const patchTaskSchema = z
  .object({
    name: taskNameSchema.optional(),
    key: taskKeySchema.nullable().optional().describe('set, change, or (null) remove the task’s key'),
    schedule: scheduleSchema.optional(),
    target: targetSchema.optional(),
    priority: prioritySchema.optional(),
    lane: laneSchema.optional(),
    retry: retrySchema.optional(),
    misfirePolicy: misfirePolicySchema.optional(),
    overlapPolicy: overlapPolicySchema.optional(),
    metadata: metadataSchema.nullable().optional(),
    tags: tagsSchema.nullable().optional(),
    jitterS: jitterSchema.optional(),
    pauseAfterFailures: pauseAfterFailuresSchema.nullable().optional(),
    callbacks: callbacksSchema.nullable().optional(),
    flowControl: flowControlSchema.nullable().optional(),
    workflow: createWorkflowSchema
      .optional()
      .describe('a workflow task’s new workflow (occurrences not started yet run the new one)'),
  })
  .superRefine((patch, ctx) => refineSchedule(patch.schedule, ctx));

export type PatchTaskRequest = z.infer<typeof patchTaskSchema>;

/** The most occurrences one backfill request may run. */
export const MAX_BACKFILL_OCCURRENCES = 1000;

const time = z.iso.datetime({ offset: true }).describe('RFC 3339 time');

/** POST /v1/tasks/{id}/backfill: the schedule's occurrences in [from, to) run as backfill jobs. */
export const backfillSchema = z
  .object({ from: time, to: time })
  .refine((b) => Date.parse(b.from) < Date.parse(b.to), { path: ['to'], message: 'must be after from' });

export type BackfillRequest = z.infer<typeof backfillSchema>;

/** GET /v1/tasks query: paged by an opaque token, optionally one state. */
export const listTasksQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(50),
  pageToken: pageTokenParam(),
  state: z.enum(['active', 'paused']).optional(),
  key: taskKeySchema.optional().describe('only the task with this key (none, or one)'),
  ...tagQueryShape,
});

export type ListTasksQuery = z.infer<typeof listTasksQuerySchema>;

/**
 * POST /v1/tasks/{id}/pause and /resume: an optional body with the reason, which task-api writes
 * to its log beside the task and tenant ids (it is not stored on the task).
 */
export const taskStateChangeSchema = z
  .object({ reason: z.string().min(1).max(500).optional().describe('why; written to the service log') })
  .strict();
