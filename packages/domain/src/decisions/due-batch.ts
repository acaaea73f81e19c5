import { jitteredRunAt } from '../calendar/jitter.ts';
import { occurrenceKey } from '../calendar/occurrence.ts';
import { type DueTaskState, type PlanLimits, planOccurrences, type SkippedRange } from './occurrence-plan.ts';

// What one scheduler batch decides for the due tasks it read and locked: the jobs to write, the
// occurrences skipped on purpose, where each task's next_fire_at moves, and where a cap cut the
// batch. Pure, the twin of task-lifecycle.ts: the batch's transaction reads the tasks and the
// database clock, runs the decision, and writes what it returns (packages/mysql/src/scheduler).

export interface DueTask extends DueTaskState {
  id: string;
  /** The task's flexible window (0: none): each job runs at its deterministic instant in it. */
  jitterS: number;
  /** A run of the task is still live (read only for overlapPolicy 'forbid'). */
  previousRunLive: boolean;
}

export interface DueBatchClock {
  /** The database clock the batch decides with (invariant 1). */
  now: Date;
  /** now + lookahead: occurrences before it are materialised this batch. */
  dueBefore: Date;
}

export interface DueBatchLimits {
  plan: PlanLimits;
  /** Job rows per batch; the tasks past it wait for the next batch. */
  maxJobs: number;
}

export interface DueBatchPlan {
  /** scheduledFor and the occurrence key keep the nominal time; runAt takes the jitter. */
  jobs: { taskId: string; occurrence: string; scheduledFor: Date; runAt: Date }[];
  skips: { taskId: string; range: SkippedRange }[];
  /** Every task planned, in order; the tasks after the last one stay due (unlocked at commit). */
  advance: { taskId: string; nextFireAt: Date | null }[];
  /** The job cap cut the batch short: more may be due. */
  full: boolean;
}

/** The decision a batch transaction runs on the due tasks it locked. */
export type DueBatchDecision = (tasks: DueTask[], clock: DueBatchClock) => DueBatchPlan;

export function planDueBatch(tasks: DueTask[], clock: DueBatchClock, limits: DueBatchLimits): DueBatchPlan {
  const out: DueBatchPlan = { jobs: [], skips: [], advance: [], full: false };
  for (const t of tasks) {
    const plan = planOccurrences(
      t,
      { now: clock.now, dueBefore: clock.dueBefore, previousRunLive: t.previousRunLive },
      limits.plan,
    );
    // The first task always fits, so a batch always moves forward.
    if (out.advance.length > 0 && out.jobs.length + plan.fireTimes.length > limits.maxJobs) {
      out.full = true;
      break;
    }
    for (const at of plan.fireTimes) {
      out.jobs.push({
        taskId: t.id,
        occurrence: occurrenceKey('scheduled', at),
        scheduledFor: at,
        runAt: jitteredRunAt(t.id, at, t.jitterS),
      });
    }
    for (const range of plan.skipped) out.skips.push({ taskId: t.id, range });
    out.advance.push({ taskId: t.id, nextFireAt: plan.nextFireAt });
  }
  return out;
}

/** The scheduler's decision with its configured limits. */
export function dueBatchDecision(limits: DueBatchLimits): DueBatchDecision {
  return (tasks, clock) => planDueBatch(tasks, clock, limits);
}
