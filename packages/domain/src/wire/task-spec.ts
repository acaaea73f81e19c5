import { z } from 'zod';
import { calendarIssues, toCalendar, validateCalendar } from '../calendar/excluded-days.ts';
import { DURATION_TEXT, intervalIssues, MAX_INTERVAL_MS } from '../calendar/interval.ts';
import { MAX_JITTER_S } from '../calendar/jitter.ts';
import { validateCron } from '../calendar/schedule.ts';
import { isKnownTimeZone } from '../calendar/time-zone.ts';
import type { Tags } from '../model.ts';
import {
  type FlowControl,
  type Lane,
  laneFor,
  type Priority,
  type RetryPolicy,
  type Schedule,
  type Target,
  type TaskCallbacks,
  type TaskWorkflow,
  WORKFLOW_START_LANE,
  WORKFLOW_TASK_TARGET,
} from '../model.ts';
import { MAX_SCHEDULE_TEXT, parseScheduleText } from '../words/schedule-text.ts';
import { calendarSchema } from './calendar-schema.ts';
import {
  flowControlSchema,
  httpUrlSchema,
  laneSchema,
  metadataSchema,
  prioritySchema,
  retrySchema,
  targetSchema,
  taskNameSchema,
  toFlowControl,
  toTarget,
} from './call-spec.ts';
import { mergedTagsIssue, normaliseTags, tagsSchema } from './tags.ts';
import { createWorkflowSchema } from './workflow-spec.ts';

// The request shapes of task-api, as zod schemas: they validate requests and generate the
// OpenAPI document, so the two cannot drift apart.

const time = z.iso.datetime({ offset: true }).describe('RFC 3339 time');

export const dstPolicySchema = z.object({
  repeated: z.enum(['first', 'last', 'both']).default('first'),
  skipped: z.enum(['shift', 'skip']).default('shift'),
});

export const TASK_KEY_PATTERN = /^[a-z0-9][a-z0-9._-]*$/;

export const taskKeySchema = z
  .string()
  .min(1)
  .max(128)
  .regex(
    TASK_KEY_PATTERN,
    'expected lower-case letters, digits, ".", "_" and "-", starting with a letter or digit',
  )
  .describe('the tenant’s own name for the task, unique among its live tasks: how `dsched apply` finds it');

/** A schedule in words (schedule-text.ts), here and in POST /v1/schedules/parse. */
export const scheduleTextSchema = z
  .string()
  .min(1)
  .max(MAX_SCHEDULE_TEXT)
  .describe(
    'the schedule in words: "every weekday at 9am", "on the last day of every month at 23:00", "in 3 hours"',
  );

export const textTimezoneSchema = z
  .string()
  .min(1)
  .max(64)
  .optional()
  .describe('the zone of a phrase that names none (UTC by default)');

/**
 * What a response adds to a schedule, accepted back so that a schedule read by GET can be sent as
 * it came: the sentence is ignored, and the words are kept only when the schedule is the stored one
 * (patchTask).
 */
const readBack = {
  description: z.string().max(2000).optional().describe('read-only (the sentence responses give): ignored'),
  text: z
    .string()
    .max(MAX_SCHEDULE_TEXT)
    .optional()
    .describe('read-only (the words the schedule was given in): to give words, use type "text"'),
};

export const scheduleSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('once'),
    at: time,
    timezone: z.string().min(1).max(64).optional().describe('the zone its description shows the time in'),
    ...readBack,
  }),
  z.object({
    type: z.literal('cron'),
    expression: z.string().min(1).max(200),
    timezone: z.string().min(1).max(64).default('UTC'),
    dst: dstPolicySchema.default({ repeated: 'first', skipped: 'shift' }),
    calendar: calendarSchema.optional(),
    ...readBack,
  }),
  z.object({
    type: z.literal('interval'),
    every: z
      .string()
      .max(32)
      .regex(DURATION_TEXT, 'expected a duration such as "90m" or "1h30m"')
      .describe(
        `elapsed time between fires: days, hours, minutes, seconds ("90m", "1h30m", "7d"), 1s to ${MAX_INTERVAL_MS / 86_400_000}d`,
      ),
    offset: z
      .string()
      .max(32)
      .regex(DURATION_TEXT, 'expected a duration such as "15m"')
      .optional()
      .describe('phase: fires at startAt (or the Unix epoch) + offset + k × every; shorter than every'),
    startAt: time.optional().describe('the first fire time (before the offset); the Unix epoch when absent'),
    calendar: calendarSchema.optional(),
    ...readBack,
  }),
  z.object({
    type: z.literal('text'),
    text: scheduleTextSchema,
    timezone: textTimezoneSchema,
    calendar: calendarSchema
      .optional()
      .describe('a calendar for the cron or interval schedule the words give'),
  }),
]);

export const misfirePolicySchema = z.enum(['fire_once', 'fire_all', 'skip']);
export const overlapPolicySchema = z.enum(['allow', 'forbid']);

export const jitterSchema = z
  .number()
  .int()
  .min(0)
  .max(MAX_JITTER_S)
  .describe('each occurrence runs at a deterministic instant in [t, t + jitterS s); 0: at t');

export const pauseAfterFailuresSchema = z
  .number()
  .int()
  .min(1)
  .max(1000)
  .describe('pause a cron or interval task after this many dead occurrences in a row');

export const callbacksSchema = z
  .object({
    onSuccess: httpUrlSchema.optional().describe('POSTed a signed job.succeeded event after a job succeeds'),
    onDead: httpUrlSchema.optional().describe('POSTed a signed job.dead event after a job is dead-lettered'),
  })
  .strict();

// The critical lane's slots are reserved for critical jobs (docs/executor.md#lanes).
export const CRITICAL_LANE_ISSUE = 'only critical-priority tasks run in the critical lane';

export const PAUSE_ON_ONCE_ISSUE = 'only cron and interval tasks pause after failures';

export function criticalLaneAllowed(priority: string, lane: string | undefined): boolean {
  return lane !== 'critical' || priority === 'critical';
}

/**
 * Adds an issue naming the field when a schedule is wrong: a cron expression malformed, impossible
 * or zone-less, an interval's durations unreadable, zero or out of range.
 */
export function refineSchedule(
  schedule: z.infer<typeof scheduleSchema> | undefined,
  ctx: z.RefinementCtx,
): void {
  if (schedule && schedule.type !== 'once' && schedule.calendar) {
    // A text schedule's kind is known only once its words are read (toSchedule checks it then).
    const kind = schedule.type === 'text' ? 'interval' : schedule.type;
    for (const { field, issue } of calendarIssues(schedule.calendar, kind)) {
      if (schedule.type === 'text' && field === 'timezone') continue;
      ctx.addIssue({ code: 'custom', path: ['schedule', 'calendar', ...field.split('.')], message: issue });
    }
  }
  if (schedule?.type === 'interval') {
    for (const { field, issue } of intervalIssues(schedule)) {
      ctx.addIssue({ code: 'custom', path: ['schedule', field], message: issue });
    }
    return;
  }
  if (schedule?.type === 'once' && schedule.timezone !== undefined && !isKnownTimeZone(schedule.timezone)) {
    ctx.addIssue({
      code: 'custom',
      path: ['schedule', 'timezone'],
      message: `unknown IANA time zone "${schedule.timezone}"`,
    });
  }
  if (schedule?.type !== 'cron') return;
  try {
    validateCron(schedule.expression, schedule.timezone);
  } catch (err) {
    const detail = (err as { details?: { field: string; issue: string }[] }).details?.[0];
    ctx.addIssue({
      code: 'custom',
      path: (detail?.field ?? 'schedule.expression').split('.'),
      message: detail?.issue ?? String(err),
    });
  }
}

/** The most calls of one flow control key in flight at once, and the fastest rate, one may ask for. */
export const createTaskSchema = z
  .object({
    name: taskNameSchema,
    key: taskKeySchema.optional(),
    schedule: scheduleSchema,
    target: targetSchema.optional(),
    workflow: createWorkflowSchema
      .optional()
      .describe(
        'instead of `target`: each occurrence starts one run of this workflow (POST /v1/workflows body)',
      ),
    priority: prioritySchema.default('normal'),
    lane: laneSchema.optional(),
    retry: retrySchema.default({ maxAttempts: 5, initialBackoffMs: 1000, maxBackoffMs: 300_000, rules: [] }),
    misfirePolicy: misfirePolicySchema.default('fire_once'),
    overlapPolicy: overlapPolicySchema.default('allow'),
    metadata: metadataSchema.optional(),
    tags: tagsSchema.optional(),
    jitterS: jitterSchema.default(0),
    pauseAfterFailures: pauseAfterFailuresSchema.optional(),
    callbacks: callbacksSchema.optional(),
    flowControl: flowControlSchema.optional(),
  })
  .superRefine((task, ctx) => {
    refineSchedule(task.schedule, ctx);
    if ((task.target === undefined) === (task.workflow === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [task.target === undefined ? 'target' : 'workflow'],
        message: 'a task has either a target or a workflow, not both',
      });
    }
    const merged = task.workflow ? mergedTagsIssue(task.tags, task.workflow.tags) : undefined;
    if (merged) ctx.addIssue({ code: 'custom', path: ['tags'], message: merged });
    if (task.workflow !== undefined && task.lane !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['lane'], message: 'a workflow task’s nodes choose their lanes' });
    }
    if (task.workflow !== undefined && task.callbacks !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['callbacks'], message: 'not supported on a workflow task' });
    }
    if (task.workflow !== undefined && task.flowControl !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['flowControl'],
        message: 'not supported on a workflow task: give it on its nodes',
      });
    }
    if (task.pauseAfterFailures !== undefined && task.schedule.type === 'once') {
      ctx.addIssue({ code: 'custom', path: ['pauseAfterFailures'], message: PAUSE_ON_ONCE_ISSUE });
    }
    if (!criticalLaneAllowed(task.priority, task.lane)) {
      ctx.addIssue({ code: 'custom', path: ['lane'], message: CRITICAL_LANE_ISSUE });
    }
  });

export type CreateTaskRequest = z.infer<typeof createTaskSchema>;

/** The parts of a task that a create request decides, in domain types. */
export interface TaskSpec {
  name: string;
  key: string | null;
  schedule: Schedule;
  target: Target;
  priority: Priority;
  lane: Lane;
  retry: RetryPolicy;
  misfirePolicy: 'fire_once' | 'fire_all' | 'skip';
  overlapPolicy: 'allow' | 'forbid';
  metadata: Record<string, unknown> | null;
  tags: Tags | null;
  jitterS: number;
  pauseAfterFailures: number | null;
  callbacks: TaskCallbacks | null;
  flowControl: FlowControl | null;
  workflow: TaskWorkflow | null;
}

/**
 * The schedule a request gives, in domain types. A `text` schedule is read here, against `now`
 * (the database clock: "in 3 hours"), and stored as what it says (cron, interval or once) with its
 * words; a phrase not understood is a 400 naming `schedule.text` (`field` for another prefix).
 */
export function toSchedule(s: CreateTaskRequest['schedule'], now: Date, field = 'schedule'): Schedule {
  if (s.type === 'once') {
    return {
      type: 'once',
      at: new Date(s.at),
      ...(s.timezone !== undefined ? { timezone: s.timezone } : {}),
    };
  }
  const calendar = s.calendar ? { calendar: toCalendar(s.calendar) } : {};
  if (s.type === 'interval') {
    return {
      type: 'interval',
      every: s.every,
      ...(s.offset !== undefined ? { offset: s.offset } : {}),
      ...(s.startAt !== undefined ? { startAt: new Date(s.startAt) } : {}),
      ...calendar,
    };
  }
  if (s.type === 'text') {
    const parsed = parseScheduleText(s.text, { timezone: s.timezone, now, field: `${field}.text` });
    if (!s.calendar) return parsed;
    validateCalendar(s.calendar, parsed.type, `${field}.calendar`);
    return { ...parsed, ...calendar } as Schedule;
  }
  return { type: 'cron', expression: s.expression.trim(), timezone: s.timezone, dst: s.dst, ...calendar };
}

/** Callbacks as stored: null when none is set. */
export function toCallbacks(c: CreateTaskRequest['callbacks'] | null): TaskCallbacks | null {
  if (!c || (c.onSuccess === undefined && c.onDead === undefined)) return null;
  return {
    ...(c.onSuccess !== undefined ? { onSuccess: c.onSuccess } : {}),
    ...(c.onDead !== undefined ? { onDead: c.onDead } : {}),
  };
}

/** The settings a create request gives; `schedule`, when given, is the request's schedule already read. */
export function toTaskSpec(
  req: CreateTaskRequest,
  now: Date,
  schedule: Schedule = toSchedule(req.schedule, now),
): TaskSpec {
  const target = req.target ? toTarget(req.target) : WORKFLOW_TASK_TARGET;
  return {
    name: req.name,
    key: req.key ?? null,
    schedule,
    target,
    priority: req.priority,
    lane: req.workflow ? WORKFLOW_START_LANE : laneFor(req.priority, target.timeoutMs, req.lane),
    retry: req.retry,
    misfirePolicy: req.misfirePolicy,
    overlapPolicy: req.overlapPolicy,
    metadata: req.metadata ?? null,
    tags: normaliseTags(req.tags),
    jitterS: req.jitterS,
    pauseAfterFailures: req.pauseAfterFailures ?? null,
    callbacks: toCallbacks(req.callbacks),
    flowControl: toFlowControl(req.flowControl),
    workflow: req.workflow ?? null,
  };
}
