import { z } from 'zod';
import { AUDIT_STATUSES } from '../decisions/audit.ts';
import { JOB_STATES, PRIORITIES } from '../model.ts';
import { tagsSchema } from './tags.ts';

// Response documents as zod schemas, for the OpenAPI document only (responses are built by typed
// code, see views.ts; requests are what zod validates).

export const attemptViewSchema = z.object({
  attempt: z.number().int(),
  startedAt: z.string(),
  finishedAt: z.string().optional(),
  status: z.number().int().optional(),
  error: z.string().optional(),
  errorClass: z.string().optional(),
  durationMs: z.number().int().optional(),
  executor: z.string(),
  traceId: z
    .string()
    .regex(/^[0-9a-f]{32}$/)
    .optional()
    .describe(
      "The occurrence's OpenTelemetry trace (W3C trace id), the same for each of its attempts; the `traceparent` of every call it made is of this trace.",
    ),
});

export const jobViewSchema = z
  .object({
    id: z.string(),
    taskId: z.string().nullable(),
    workflowId: z.string().optional(),
    nodeId: z.string().optional(),
    kind: z.string(),
    state: z.enum(JOB_STATES),
    attempt: z.number().int().describe('attempts made so far, over every attempt group'),
    maxAttempts: z.number().int(),
    attemptGroup: z.number().int().optional().describe('1, plus one per redrive from the DLQ'),
    priority: z.enum(PRIORITIES),
    scheduledFor: z.string(),
    startedAt: z.string().optional(),
    finishedAt: z.string().optional(),
    lastStatus: z.number().int().optional(),
    lastError: z.string().optional(),
    cancelRequested: z
      .boolean()
      .optional()
      .describe('a cancel was requested while an executor was calling it'),
    deadlineAt: z.string().optional().describe('a parked (202) job must complete by then'),
    heartbeatBy: z.string().optional().describe('a parked (202) job must heartbeat (or complete) by then'),
    progress: z.record(z.string(), z.unknown()).optional().describe('the last heartbeat’s progress'),
    output: z.record(z.string(), z.unknown()).optional().describe('what the completion reported'),
    tags: tagsSchema.optional().describe('its task’s or workflow’s tags when it was made'),
    attempts: z.array(attemptViewSchema),
  })
  .meta({ id: 'Job' });

export function pageSchema<T extends z.ZodType>(key: string, item: T) {
  return z.object({ [key]: z.array(item), nextPageToken: z.string().optional() });
}

export const redriveResultSchema = z.object({
  count: z.number().int().describe('jobs moved from the DLQ back to pending'),
  jobIds: z.array(z.string()),
});

export const auditEntrySchema = z.object({
  scheduledFor: z.string(),
  status: z.enum(AUDIT_STATUSES),
  jobId: z.string().optional(),
  reason: z.string().optional(),
  movedTo: z
    .string()
    .optional()
    .describe('an excluded occurrence that a calendar moved: the fire time it moved to'),
});

export const auditResultSchema = z.object({
  taskId: z.string(),
  from: z.string(),
  to: z.string(),
  occurrences: z.array(auditEntrySchema),
  counts: z.record(z.enum(AUDIT_STATUSES), z.number().int()),
});

export const errorSchema = z
  .object({
    error: z.object({
      code: z.enum([
        'invalid_argument',
        'not_found',
        'conflict',
        'unauthenticated',
        'permission_denied',
        'resource_exhausted',
        'failed_precondition',
        'internal',
      ]),
      message: z.string(),
      details: z.array(z.object({ field: z.string(), issue: z.string() })),
    }),
  })
  .meta({ id: 'Error' });
