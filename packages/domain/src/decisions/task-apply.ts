import { z } from 'zod';
import { toCalendar } from '../calendar/excluded-days.ts';
import { firstFireAt } from '../calendar/schedule.ts';
import { DschedError, type FieldIssue } from '../errors.ts';
import { newId } from '../ids.ts';
import { sameJson } from '../json.ts';
import type { Schedule, Task } from '../model.ts';
import type { PatchTaskRequest } from '../wire/task-requests.ts';
import {
  type CreateTaskRequest,
  createTaskSchema,
  type TaskSpec,
  toSchedule,
  toTaskSpec,
} from '../wire/task-spec.ts';
import { describeSchedule } from '../words/schedule-description.ts';
import { canonicalZone } from '../words/schedule-text.ts';
import { deleteTask, patchTask, type TaskChange } from './task-lifecycle.ts';
import { checkTaskWorkflow } from './workflow-plan.ts';

// Schedules as code (docs/schedules-as-code.md): a file of keyed tasks applied to a tenant as one
// change. Each entry creates the task of its key, updates it field by field, or leaves it as it is;
// with `prune`, the tenant's keyed tasks the file no longer lists are deleted, never a task without a
// key. Pure: the caller reads the tenant's keyed tasks under their row locks with the database
// clock, and writes the plan in the same transaction, or nothing (dry run, or any error).

/** The most entries one apply takes. */
export const MAX_APPLY_TASKS = 1000;

export const applyTasksSchema = z.object({
  tasks: z
    .array(createTaskSchema)
    .max(MAX_APPLY_TASKS)
    .describe('every task the tenant keeps by key: the body of POST /v1/tasks, each with its `key`'),
  prune: z.boolean().default(false).describe('also delete the tenant’s keyed tasks this list does not name'),
  dryRun: z.boolean().default(false).describe('answer the plan and change nothing'),
});

export type ApplyTasksRequest = z.infer<typeof applyTasksSchema>;

export const APPLY_ACTIONS = ['create', 'update', 'delete', 'unchanged'] as const;
export type ApplyAction = (typeof APPLY_ACTIONS)[number];

export interface FieldChange {
  field: string;
  from?: unknown;
  to?: unknown;
}

export interface ApplyStep {
  key: string;
  action: ApplyAction;
  /** The task's id (a created one's id when not a dry run). */
  id: string;
  /** The schedule's sentence, as it is after the apply. */
  description: string;
  changes?: FieldChange[];
}

export interface ApplyResult {
  dryRun: boolean;
  created: string[];
  updated: string[];
  deleted: string[];
  unchanged: string[];
  plan: ApplyStep[];
}

export const applyResultSchema = z
  .object({
    dryRun: z.boolean(),
    created: z.array(z.string()).describe('keys of the tasks created'),
    updated: z.array(z.string()).describe('keys of the tasks updated'),
    deleted: z.array(z.string()).describe('keys of the tasks deleted (prune)'),
    unchanged: z.array(z.string()).describe('keys of the tasks the file leaves as they are'),
    plan: z.array(
      z.object({
        key: z.string(),
        action: z.enum(APPLY_ACTIONS),
        id: z.string(),
        description: z.string().describe('the schedule in one sentence'),
        changes: z
          .array(z.object({ field: z.string(), from: z.unknown().optional(), to: z.unknown().optional() }))
          .optional()
          .describe('an update, field by field'),
      }),
    ),
  })
  .meta({ id: 'ApplyResult' });

export interface ApplyPlan {
  creates: Task[];
  /** Updates and deletes, each with the version its task was read at. */
  changes: { readVersion: number; change: TaskChange }[];
  result: ApplyResult;
}

/** A new active task of a tenant, first fire time from `now`: as POST /v1/tasks makes one. */
export function newTask(spec: TaskSpec, tenantId: string, now: Date): Task {
  return {
    ...spec,
    id: newId(now.getTime()),
    tenantId,
    state: 'active',
    pausedReason: null,
    nextFireAt: firstFireAt(spec.schedule, now),
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
}

/** What an update compares: the task's settings, as stored (sentence and state left out). */
function settings(t: TaskSpec | Task): Record<string, unknown> {
  return {
    name: t.name,
    schedule: storedSchedule(t.schedule),
    ...(t.workflow ? { workflow: t.workflow } : { target: t.target, lane: t.lane }),
    priority: t.priority,
    retry: t.retry,
    misfirePolicy: t.misfirePolicy,
    overlapPolicy: t.overlapPolicy,
    metadata: t.metadata,
    jitterS: t.jitterS,
    pauseAfterFailures: t.pauseAfterFailures,
    callbacks: t.callbacks,
    flowControl: t.flowControl ?? null,
  };
}

function storedSchedule(s: Schedule): Record<string, unknown> {
  return JSON.parse(JSON.stringify(s)) as Record<string, unknown>;
}

const NESTED = new Set(['schedule', 'target', 'retry', 'callbacks', 'flowControl']);
const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** The fields that differ, one level into schedule, target, retry, callbacks and flow control. */
export function fieldChanges(from: Record<string, unknown>, to: Record<string, unknown>): FieldChange[] {
  const out: FieldChange[] = [];
  for (const field of new Set([...Object.keys(from), ...Object.keys(to)])) {
    const [a, b] = [from[field], to[field]];
    if (sameJson(a, b)) continue;
    if (NESTED.has(field) && isObject(a) && isObject(b) && a.type === b.type) {
      for (const sub of new Set([...Object.keys(a), ...Object.keys(b)])) {
        if (sameJson(a[sub], b[sub])) continue;
        out.push({
          field: `${field}.${sub}`,
          ...(a[sub] !== undefined ? { from: a[sub] } : {}),
          ...(b[sub] !== undefined ? { to: b[sub] } : {}),
        });
      }
      continue;
    }
    out.push({
      field,
      ...(a !== undefined && a !== null ? { from: a } : {}),
      ...(b !== undefined && b !== null ? { to: b } : {}),
    });
  }
  return out;
}

/**
 * The schedule an entry asks for. Words the task already has (same text, zone and calendar) keep
 * the schedule they gave when first applied: "in 3 hours" or "tomorrow at 9am" would otherwise
 * move at every apply, and a file applied twice must change nothing.
 */
function desiredSchedule(
  req: CreateTaskRequest['schedule'],
  current: Task | undefined,
  now: Date,
  field: string,
): Schedule {
  if (req.type === 'text' && current?.schedule.text === req.text.trim()) {
    const s = current.schedule;
    const zone = s.type === 'cron' ? s.timezone : s.type === 'once' ? (s.timezone ?? 'UTC') : null;
    const sameZone = req.timezone === undefined || zone === null || canonicalZone(req.timezone) === zone;
    const calendar = s.type === 'once' ? undefined : s.calendar;
    const sameCalendar = sameJson(req.calendar ? toCalendar(req.calendar) : undefined, calendar);
    if (sameZone && sameCalendar) return s;
  }
  return toSchedule(req, now, field);
}

/** The PATCH that makes a task what its entry says: every field given, absent ones to their defaults. */
function patchOf(req: CreateTaskRequest, spec: TaskSpec, scheduleChanged: boolean): PatchTaskRequest {
  return {
    name: req.name,
    key: spec.key,
    ...(scheduleChanged ? { schedule: req.schedule } : {}),
    ...(req.workflow
      ? { workflow: req.workflow }
      : { ...(req.target ? { target: req.target } : {}), lane: spec.lane as never }),
    priority: req.priority,
    retry: req.retry,
    misfirePolicy: req.misfirePolicy,
    overlapPolicy: req.overlapPolicy,
    metadata: req.metadata ?? null,
    jitterS: req.jitterS,
    pauseAfterFailures: req.pauseAfterFailures ?? null,
    callbacks: req.callbacks ?? null,
    flowControl: req.flowControl ?? null,
  };
}

/** Runs `fn`, turning the field of an invalid_argument it throws into `prefix.field`, into `issues`. */
function collect<T>(issues: FieldIssue[], prefix: string, note: string, fn: () => T): T | undefined {
  try {
    return fn();
  } catch (err) {
    if (!(err instanceof DschedError) || err.code !== 'invalid_argument') throw err;
    for (const d of err.details) {
      const field = d.field.startsWith(prefix) ? d.field : `${prefix}.${d.field}`;
      issues.push({ field, issue: `${d.issue}${note}` });
    }
    return undefined;
  }
}

/**
 * The plan of an apply: what to create, what to change, and the answer. Throws invalid_argument
 * naming every bad entry and field (`tasks.3.schedule.text`, the entry's key in the issue), so a
 * file with an error changes nothing.
 */
export function planApply(input: {
  tenantId: string;
  request: ApplyTasksRequest;
  /** The tenant's live tasks that have a key. */
  existing: Task[];
  now: Date;
}): ApplyPlan {
  const { request, now } = input;
  const issues: FieldIssue[] = [];
  const byKey = new Map(input.existing.map((t) => [t.key!, t]));
  const seen = new Map<string, number>();
  const plan: ApplyPlan = {
    creates: [],
    changes: [],
    result: { dryRun: request.dryRun, created: [], updated: [], deleted: [], unchanged: [], plan: [] },
  };
  request.tasks.forEach((req, i) => {
    const prefix = `tasks.${i}`;
    if (req.key === undefined) {
      issues.push({
        field: `${prefix}.key`,
        issue: 'every task of an apply has a key: it is how the next apply finds it',
      });
      return;
    }
    const note = ` (key "${req.key}")`;
    const first = seen.get(req.key);
    if (first !== undefined) {
      issues.push({ field: `${prefix}.key`, issue: `"${req.key}" is also the key of tasks.${first}` });
      return;
    }
    seen.set(req.key, i);
    const current = byKey.get(req.key);
    const spec = collect(issues, prefix, note, () => {
      if (req.workflow) checkTaskWorkflow(req.workflow);
      return toTaskSpec(req, now, desiredSchedule(req.schedule, current, now, `${prefix}.schedule`));
    });
    if (!spec) return;
    if (!current) {
      const task = newTask(spec, input.tenantId, now);
      plan.creates.push(task);
      plan.result.created.push(req.key);
      plan.result.plan.push({
        key: req.key,
        action: 'create',
        id: task.id,
        description: describeSchedule(task.schedule, { jitterS: task.jitterS }),
      });
      return;
    }
    const changes = fieldChanges(settings(current), settings(spec));
    const change =
      changes.length === 0
        ? null
        : collect(issues, prefix, note, () => {
            if (!!current.workflow !== !!req.workflow) {
              throw new DschedError('invalid_argument', 'kind', {
                details: [
                  {
                    field: req.workflow ? 'workflow' : 'target',
                    issue: 'a task cannot change between a target and a workflow: give it another key',
                  },
                ],
              });
            }
            const scheduleChanged = !sameJson(
              storedSchedule(current.schedule),
              storedSchedule(spec.schedule),
            );
            return patchTask(current, patchOf(req, spec, scheduleChanged), now);
          });
    if (change === undefined) return;
    const after = change?.task ?? current;
    const step: ApplyStep = {
      key: req.key,
      action: change ? 'update' : 'unchanged',
      id: current.id,
      description: describeSchedule(after.schedule, { jitterS: after.jitterS }),
    };
    if (change) {
      plan.changes.push({ readVersion: current.version, change });
      plan.result.updated.push(req.key);
      step.changes = changes;
    } else plan.result.unchanged.push(req.key);
    plan.result.plan.push(step);
  });
  if (issues.length > 0) {
    throw new DschedError('invalid_argument', issues.map((d) => `${d.field}: ${d.issue}`).join('; '), {
      details: issues,
    });
  }
  if (request.prune) {
    const gone = input.existing.filter((t) => !seen.has(t.key!)).sort((a, b) => a.key!.localeCompare(b.key!));
    for (const t of gone) {
      plan.changes.push({ readVersion: t.version, change: deleteTask(t, now) });
      plan.result.deleted.push(t.key!);
      plan.result.plan.push({
        key: t.key!,
        action: 'delete',
        id: t.id,
        description: describeSchedule(t.schedule, { jitterS: t.jitterS }),
      });
    }
  }
  return plan;
}
