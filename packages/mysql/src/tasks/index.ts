// Tasks: their rows, their changes under the row lock (edit, pause, resume, delete), trigger-now
// and backfill, and the occurrences skipped on purpose (the audit's records).
export {
  inclusiveRange,
  liveOccurrenceJobs,
  recordOccurrenceSkips,
  type SkipReason,
  skipsInRange,
} from './occurrence-skips.ts';
export { type ApplyArgs, applyTaskPlan } from './task-apply.ts';
export { changeTask, insertTaskWithinQuota, listTasks, lockTask, writeTaskChange } from './task-changes.ts';
export {
  type RecountOptions,
  type RecountPass,
  recountAllTaskCounts,
  recountTaskCounts,
} from './task-count-recount.ts';
export { backfillTask, triggerTask } from './task-runs.ts';
export {
  getTask,
  insertTask,
  rowToTask,
  scheduleFromJson,
  scheduleFromRow,
  scheduleToJson,
} from './task-store.ts';
