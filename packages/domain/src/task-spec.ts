import { z } from 'zod';
import {
  LANES,
  type Lane,
  laneFor,
  PRIORITIES,
  type Priority,
  type RetryPolicy,
  type Schedule,
  type Target,
} from './model.ts';
import { validateCron } from './schedule.ts';

// The request shapes of task-api, as zod schemas: they validate requests and generate the
// OpenAPI document, so the two cannot drift apart.

const time = z.iso.datetime({ offset: true }).describe('RFC 3339 time');

export const dstPolicySchema = z.object({
  repeated: z.enum(['first', 'last', 'both']).default('first'),
  skipped: z.enum(['shift', 'skip']).default('shift'),
});

export const scheduleSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('once'), at: time }),
  z.object({
    type: z.literal('cron'),
    expression: z.string().min(1).max(200),
    timezone: z.string().min(1).max(64).default('UTC'),
    dst: dstPolicySchema.default({ repeated: 'first', skipped: 'shift' }),
  }),
]);

export const MAX_TARGET_TIMEOUT_MS = 60 * 60 * 1000;
export const MAX_BODY_BYTES = 256 * 1024;

export const targetSchema = z.object({
  url: z
    .string()
    .max(2048)
    .refine((u) => URL.canParse(u) && /^https?:$/.test(new URL(u).protocol), 'must be an http or https URL'),
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).default('POST'),
  headers: z
    .record(z.string().min(1).max(128), z.string().max(4096))
    .refine((h) => Object.keys(h).length <= 50, 'at most 50 headers')
    .default({}),
  body: z
    .unknown()
    .optional()
    .refine(
      (b) =>
        b === undefined || Buffer.byteLength(typeof b === 'string' ? b : JSON.stringify(b)) <= MAX_BODY_BYTES,
      `at most ${MAX_BODY_BYTES} bytes`,
    ),
  timeoutMs: z.number().int().min(100).max(MAX_TARGET_TIMEOUT_MS).default(30_000),
});

export const retryRuleSchema = z.object({
  status: z.union([z.number().int().min(100).max(599), z.enum(['4xx', '5xx'])]),
  action: z.enum(['retry', 'dead']),
});

export const retrySchema = z.object({
  maxAttempts: z.number().int().min(1).max(100).default(5),
  initialBackoffMs: z.number().int().min(0).max(86_400_000).default(1000),
  maxBackoffMs: z.number().int().min(0).max(86_400_000).default(300_000),
  rules: z.array(retryRuleSchema).max(20).default([]),
});

export const taskNameSchema = z.string().min(1).max(200);
export const prioritySchema = z.enum(PRIORITIES);
export const laneSchema = z.enum(LANES);
export const misfirePolicySchema = z.enum(['fire_once', 'fire_all', 'skip']);
export const overlapPolicySchema = z.enum(['allow', 'forbid']);
export const metadataSchema = z.record(z.string(), z.unknown());

// The critical lane's slots are reserved for critical jobs (docs/executor.md#lanes).
export const CRITICAL_LANE_ISSUE = 'only critical-priority tasks run in the critical lane';

export function criticalLaneAllowed(priority: string, lane: string | undefined): boolean {
  return lane !== 'critical' || priority === 'critical';
}

/** Adds an issue naming the field when a cron schedule is malformed, impossible or zone-less. */
export function refineCronSchedule(
  schedule: z.infer<typeof scheduleSchema> | undefined,
  ctx: z.RefinementCtx,
): void {
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

export const createTaskSchema = z
  .object({
    name: taskNameSchema,
    schedule: scheduleSchema,
    target: targetSchema,
    priority: prioritySchema.default('normal'),
    lane: laneSchema.optional(),
    retry: retrySchema.default({ maxAttempts: 5, initialBackoffMs: 1000, maxBackoffMs: 300_000, rules: [] }),
    misfirePolicy: misfirePolicySchema.default('fire_once'),
    overlapPolicy: overlapPolicySchema.default('allow'),
    metadata: metadataSchema.optional(),
  })
  .superRefine((task, ctx) => {
    refineCronSchedule(task.schedule, ctx);
    if (!criticalLaneAllowed(task.priority, task.lane)) {
      ctx.addIssue({ code: 'custom', path: ['lane'], message: CRITICAL_LANE_ISSUE });
    }
  });

export type CreateTaskRequest = z.infer<typeof createTaskSchema>;

/** The parts of a task that a create request decides, in domain types. */
export interface TaskSpec {
  name: string;
  schedule: Schedule;
  target: Target;
  priority: Priority;
  lane: Lane;
  retry: RetryPolicy;
  misfirePolicy: 'fire_once' | 'fire_all' | 'skip';
  overlapPolicy: 'allow' | 'forbid';
  metadata: Record<string, unknown> | null;
}

export function toSchedule(s: CreateTaskRequest['schedule']): Schedule {
  return s.type === 'once'
    ? { type: 'once', at: new Date(s.at) }
    : { type: 'cron', expression: s.expression.trim(), timezone: s.timezone, dst: s.dst };
}

export function toTarget(t: CreateTaskRequest['target']): Target {
  return {
    url: t.url,
    method: t.method,
    headers: t.headers,
    timeoutMs: t.timeoutMs,
    ...(t.body !== undefined ? { body: t.body } : {}),
  };
}

export function toTaskSpec(req: CreateTaskRequest): TaskSpec {
  const target = toTarget(req.target);
  return {
    name: req.name,
    schedule: toSchedule(req.schedule),
    target,
    priority: req.priority,
    lane: laneFor(req.priority, target.timeoutMs, req.lane),
    retry: req.retry,
    misfirePolicy: req.misfirePolicy,
    overlapPolicy: req.overlapPolicy,
    metadata: req.metadata ?? null,
  };
}
