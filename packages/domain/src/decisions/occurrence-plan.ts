import { lastFireBefore, nextFireAfter } from '../calendar/schedule.ts';
import type { MisfirePolicy, OverlapPolicy, Schedule } from '../model.ts';

// What one scheduler pass does with one due task: which fire times become jobs, where
// next_fire_at moves, and which occurrences are skipped on purpose (docs/scheduling.md). Pure: the
// caller reads the task under its row lock, passes the database's `now`, and writes the result in
// the same transaction.

export type SkipReason = 'misfire' | 'overlap' | 'paused';

/** Occurrences in [from, to) that were not materialised on purpose. */
export interface SkippedRange {
  from: Date;
  to: Date;
  reason: SkipReason;
}

export interface OccurrencePlan {
  fireTimes: Date[];
  /** Always later than the task's current next_fire_at, or null when the schedule is exhausted. */
  nextFireAt: Date | null;
  skipped: SkippedRange[];
}

export interface DueTaskState {
  schedule: Schedule;
  nextFireAt: Date;
  misfirePolicy: MisfirePolicy;
  overlapPolicy: OverlapPolicy;
}

export interface PlanLimits {
  /** An occurrence older than `now - misfireThresholdMs` was missed, not merely late. */
  misfireThresholdMs: number;
  /** `fire_all` runs at most this many missed occurrences per misfire. */
  maxCatchUp: number;
  /** At most this many occurrences per task and pass besides the catch-up (the rest next pass). */
  maxPerPass: number;
}

export function planOccurrences(
  task: DueTaskState,
  at: { now: Date; dueBefore: Date; previousRunLive: boolean },
  limits: PlanLimits,
): OccurrencePlan {
  const { schedule } = task;
  const fireTimes: Date[] = [];
  const skipped: SkippedRange[] = [];
  const missedBefore = new Date(at.now.getTime() - limits.misfireThresholdMs);
  let next: Date | null = task.nextFireAt;

  if (next.getTime() < missedBefore.getTime()) {
    const firstMissed: Date = next;
    // The first occurrence that is not missed: where every policy resumes.
    const resume = nextFireAfter(schedule, new Date(missedBefore.getTime() - 1));
    const skipUntil = resume ?? missedBefore;
    switch (task.misfirePolicy) {
      case 'skip':
        skipped.push({ from: firstMissed, to: skipUntil, reason: 'misfire' });
        break;
      case 'fire_once': {
        const last = lastFireBefore(schedule, firstMissed, missedBefore) ?? firstMissed;
        if (last.getTime() > firstMissed.getTime())
          skipped.push({ from: firstMissed, to: last, reason: 'misfire' });
        fireTimes.push(last);
        break;
      }
      case 'fire_all': {
        let t: Date | null = firstMissed;
        while (t !== null && t.getTime() < missedBefore.getTime() && fireTimes.length < limits.maxCatchUp) {
          fireTimes.push(t);
          t = nextFireAfter(schedule, t);
        }
        if (t !== null && t.getTime() < missedBefore.getTime())
          skipped.push({ from: t, to: skipUntil, reason: 'misfire' });
        break;
      }
    }
    next = resume;
  }

  // A task that forbids overlap is planned only up to now: whether an occurrence runs depends on
  // the previous run at its time, which the lookahead cannot know.
  const horizon = task.overlapPolicy === 'forbid' ? at.now : at.dueBefore;
  let regular = 0;
  while (next !== null && next.getTime() <= horizon.getTime() && regular < limits.maxPerPass) {
    fireTimes.push(next);
    regular += 1;
    next = nextFireAfter(schedule, next);
  }

  if (task.overlapPolicy === 'forbid' && fireTimes.length > 0) {
    // One new run at most, and none while the previous one is pending or running.
    const keep = at.previousRunLive ? 0 : 1;
    const dropped = fireTimes.splice(keep);
    if (dropped.length > 0) {
      skipped.push({ from: dropped[0]!, to: next ?? new Date(horizon.getTime() + 1), reason: 'overlap' });
    }
  }
  return { fireTimes, nextFireAt: next, skipped: mergeRanges(skipped) };
}

/** Adjacent ranges of the same reason become one row. */
function mergeRanges(ranges: SkippedRange[]): SkippedRange[] {
  const out: SkippedRange[] = [];
  for (const r of ranges) {
    const last = out[out.length - 1];
    if (last && last.reason === r.reason && last.to.getTime() >= r.from.getTime()) {
      if (r.to.getTime() > last.to.getTime()) last.to = r.to;
    } else out.push({ ...r });
  }
  return out;
}
