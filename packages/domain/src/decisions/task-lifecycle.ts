import { firstFireAt } from '../calendar/schedule.ts';
import { conflict, invalidArgument } from '../errors.ts';
import { sameJson as same } from '../json.ts';
import { laneFor, type Schedule, type Task } from '../model.ts';
import { toFlowControl, toTarget } from '../wire/call-spec.ts';
import { mergedTagsIssue, normaliseTags } from '../wire/tags.ts';
import type { PatchTaskRequest } from '../wire/task-requests.ts';
import {
  CRITICAL_LANE_ISSUE,
  criticalLaneAllowed,
  PAUSE_ON_ONCE_ISSUE,
  toCallbacks,
  toSchedule,
} from '../wire/task-spec.ts';
import type { SkippedRange } from './occurrence-plan.ts';
import { checkTaskWorkflow } from './workflow-plan.ts';

// What an edit, a pause, a resume or a delete does to a task and to its materialised jobs
// (docs/task-lifecycle.md). Pure: the caller reads the task under its row lock and the database
// clock, and writes the change in the same transaction.

/**
 * What becomes of jobs materialised but not started (pending, attempt 0) when the task changes:
 * `cancel` them (their schedule is gone), `replace` them by jobs with the new settings for the same
 * occurrences (the schedule is unchanged, what a job does is not), or `keep` them.
 */
export type UnstartedJobsAction = 'keep' | 'cancel' | 'replace';

export interface TaskChange {
  /** The task after the change; its version is one higher. */
  task: Task;
  unstarted: UnstartedJobsAction;
  /** Which jobs `unstarted` applies to: the schedule's own, or every kind (delete). */
  kinds: 'scheduled' | 'all';
  reason: string;
  /** Occurrences the change skips on purpose (resume: the ones due while paused). */
  skipped: SkippedRange | null;
  /** The task stops counting toward the tenant's maxTasks. */
  releasesQuota: boolean;
  /** The count of dead occurrences in a row starts again from zero (a resume). */
  resetsFailureStreak: boolean;
}

function bump(task: Task, now: Date, changes: Partial<Task>): Task {
  return { ...task, ...changes, version: task.version + 1, updatedAt: now };
}

function withoutWords(schedule: Schedule): Schedule {
  if (schedule.text === undefined) return schedule;
  const { text: _text, ...rest } = schedule;
  return rest as Schedule;
}

/** Applies a PATCH; null when it changes nothing (the version stays). */
export function patchTask(task: Task, req: PatchTaskRequest, now: Date): TaskChange | null {
  const given = req.schedule ? toSchedule(req.schedule, now) : task.schedule;
  // A schedule sent back as a GET gave it is the stored one, with the words it was given in.
  const schedule =
    req.schedule && req.schedule.type !== 'text' && same(given, withoutWords(task.schedule))
      ? task.schedule
      : given;
  if (task.workflow && (req.target !== undefined || req.lane !== undefined)) {
    throw invalidArgument(
      req.target !== undefined ? 'target' : 'lane',
      'a workflow task has a workflow, not a target',
    );
  }
  if (!task.workflow && req.workflow !== undefined) {
    throw invalidArgument('workflow', 'a task with a target cannot become a workflow task');
  }
  if (req.workflow) checkTaskWorkflow(req.workflow);
  const target = req.target ? toTarget(req.target) : task.target;
  const priority = req.priority ?? task.priority;
  // The lane follows priority and timeout, as at creation, unless the patch names one.
  const lane = task.workflow
    ? task.lane
    : (req.lane ??
      (req.priority !== undefined || req.target !== undefined
        ? laneFor(priority, target.timeoutMs)
        : task.lane));
  if (!criticalLaneAllowed(priority, lane)) throw invalidArgument('lane', CRITICAL_LANE_ISSUE);
  const next: Task = {
    ...task,
    name: req.name ?? task.name,
    key: req.key === undefined ? (task.key ?? null) : req.key,
    schedule,
    target,
    priority,
    lane,
    retry: req.retry ?? task.retry,
    misfirePolicy: req.misfirePolicy ?? task.misfirePolicy,
    overlapPolicy: req.overlapPolicy ?? task.overlapPolicy,
    metadata: req.metadata === undefined ? task.metadata : req.metadata,
    tags: req.tags === undefined ? task.tags : normaliseTags(req.tags),
    jitterS: req.jitterS ?? task.jitterS,
    pauseAfterFailures:
      req.pauseAfterFailures === undefined ? task.pauseAfterFailures : req.pauseAfterFailures,
    callbacks: req.callbacks === undefined ? task.callbacks : toCallbacks(req.callbacks),
    flowControl: req.flowControl === undefined ? (task.flowControl ?? null) : toFlowControl(req.flowControl),
    workflow: req.workflow ?? task.workflow,
  };
  const merged = next.workflow ? mergedTagsIssue(next.tags, next.workflow.tags) : undefined;
  if (merged) throw invalidArgument('tags', merged);
  if (next.pauseAfterFailures !== null && schedule.type === 'once') {
    throw invalidArgument('pauseAfterFailures', PAUSE_ON_ONCE_ISSUE);
  }
  // A new window moves when the occurrences run: like a new schedule, the ones materialised ahead
  // go and are planned again.
  const scheduleChanged = !same(schedule, task.schedule) || next.jitterS !== task.jitterS;
  // Jobs copy the callbacks, the failure count flag, the flow control and the tags from their task
  // when made.
  const jobsChanged =
    ['target', 'retry', 'priority', 'lane', 'callbacks', 'pauseAfterFailures', 'tags'].some(
      (k) => !same(next[k as keyof Task], task[k as keyof Task]),
    ) || !same(next.flowControl ?? null, task.flowControl ?? null);
  if (!scheduleChanged && !jobsChanged && same(next, task)) return null;
  let unstarted: UnstartedJobsAction = 'keep';
  if (scheduleChanged) {
    // The old schedule's materialised occurrences go; the new one starts from now.
    next.nextFireAt = firstFireAt(schedule, now);
    unstarted = 'cancel';
  } else if (jobsChanged) {
    unstarted = 'replace';
  }
  return {
    task: bump(next, now, {}),
    unstarted,
    kinds: 'scheduled',
    reason: scheduleChanged ? 'schedule changed' : 'task changed',
    skipped: null,
    releasesQuota: false,
    // A new threshold (or none) counts from its own start, not from a streak kept under the old one.
    resetsFailureStreak: next.pauseAfterFailures !== task.pauseAfterFailures,
  };
}

/** Pauses: nothing new fires, and what was materialised ahead is cancelled. Null if already paused. */
export function pauseTask(task: Task, now: Date): TaskChange | null {
  if (task.state === 'paused') return null;
  return {
    task: bump(task, now, { state: 'paused', pausedReason: null }),
    unstarted: 'cancel',
    kinds: 'scheduled',
    reason: 'task paused',
    skipped: null,
    releasesQuota: false,
    resetsFailureStreak: false,
  };
}

/**
 * Resumes from now: occurrences that fell due while paused are skipped (and recorded so), a
 * `once` task that has not fired yet still fires. Null if already active.
 */
export function resumeTask(task: Task, now: Date): TaskChange | null {
  if (task.state === 'active') return null;
  if (task.state !== 'paused') throw conflict(`a ${task.state} task cannot be resumed`);
  const resumeAt = task.schedule.type === 'once' ? task.nextFireAt : firstFireAt(task.schedule, now);
  const skipped =
    task.nextFireAt && resumeAt && resumeAt.getTime() > task.nextFireAt.getTime()
      ? { from: task.nextFireAt, to: resumeAt, reason: 'paused' as const }
      : null;
  return {
    task: bump(task, now, { state: 'active', nextFireAt: resumeAt, pausedReason: null }),
    unstarted: 'keep',
    kinds: 'scheduled',
    reason: 'task resumed',
    skipped,
    releasesQuota: false,
    // A task paused after failures starts counting again, or its next dead occurrence re-pauses it.
    resetsFailureStreak: true,
  };
}

/** Deletes: no occurrence fires any more, and every job not yet started is cancelled. */
export function deleteTask(task: Task, now: Date): TaskChange {
  return {
    task: bump(task, now, { state: 'deleted', nextFireAt: null }),
    unstarted: 'cancel',
    kinds: 'all',
    reason: 'task deleted',
    skipped: null,
    releasesQuota: true,
    resetsFailureStreak: false,
  };
}
