import { invalidArgument } from '../errors.ts';
import type { DstPolicy, Schedule } from '../model.ts';
import { type BaseNext, type EffectiveFire, nextCalendarFire } from './calendar-fires.ts';
import { type CompiledCron, CRON_HORIZON_YEARS, compileCron, nextLocalMatch } from './cron.ts';
import { type CompiledCalendar, compileCalendar } from './excluded-days.ts';
import { lastIntervalFireBeforeMs, nextIntervalFireMs } from './interval.ts';
import { isKnownTimeZone, zoneOffsets } from './time-zone.ts';

// Next-fire computation, daylight saving included (docs/design.md "Semantics", docs/scheduling.md). Pure:
// every function takes the instant to compute from.
//
// A cron expression names wall-clock times. Most map to one instant; around a transition a wall
// time occurs twice (fall back) or never (spring forward). A fixed-time schedule (`30 2 * * *`)
// follows its DST policy there: in an overlap it fires on the `first`, the `last` or `both` of
// the two instants; in a gap it is `shift`ed to the first instant after the gap or `skip`ped.
// An interval-like schedule (every hour of the day matches, e.g. `*/15 * * * *`) follows
// elapsed time instead: it fires at every instant whose wall clock matches, so in an overlap it
// fires in both passes and in a gap the missing wall times simply do not occur.

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** Larger than any daylight-saving shift in the tz database (the largest is two hours). */
const SHIFT_WINDOW_MS = 3 * HOUR_MS;
const HORIZON_MS = (CRON_HORIZON_YEARS + 1) * 366 * DAY_MS;

export const DEFAULT_DST_POLICY: DstPolicy = { repeated: 'first', skipped: 'shift' };

/**
 * Checks a cron schedule and throws invalid_argument naming the field: a malformed expression,
 * an expression that can never fire (`0 0 30 2 *`), or an unknown IANA zone.
 */
export function validateCron(expression: string, timezone: string, fieldPrefix = 'schedule'): void {
  if (!isKnownTimeZone(timezone)) {
    throw invalidArgument(`${fieldPrefix}.timezone`, `unknown IANA time zone "${timezone}"`);
  }
  const fields = expression.trim().split(/\s+/);
  const predefined = fields.length === 1 && fields[0]!.startsWith('@');
  if (!predefined && fields.length !== 5 && fields.length !== 6) {
    throw invalidArgument(`${fieldPrefix}.expression`, 'expected five fields, or six with seconds first');
  }
  let next: number | null;
  try {
    next = nextLocalMatch(compileCron(expression.trim()), Date.UTC(2000, 0, 1));
  } catch (err) {
    throw invalidArgument(`${fieldPrefix}.expression`, (err as Error).message);
  }
  if (next === null) throw invalidArgument(`${fieldPrefix}.expression`, 'the expression never fires');
}

/** Whether a wall time that occurs twice fires at this instant (the earlier or later of the two). */
function admitsRepeated(policy: DstPolicy, instant: number, local: number, zone: string): boolean {
  if (policy.repeated === 'both') return true;
  const instants = zoneOffsets(zone).instantsOf(local);
  if (instants.length < 2) return true;
  return policy.repeated === 'first' ? instant === instants[0] : instant === instants[instants.length - 1];
}

/**
 * The first fire time of a cron schedule strictly after the instant `after` (ms), or null when
 * it has none within the search horizon.
 */
export function nextCronFireMs(
  expression: string,
  timezone: string,
  dst: DstPolicy,
  after: number,
): number | null {
  const c: CompiledCron = compileCron(expression);
  const zone = zoneOffsets(timezone);
  const fixedTime = !c.everyHour;
  const limit = after + HORIZON_MS;
  let cur = after;
  // Walk segments of constant offset: `offset` is in force from just after `cur` until the next
  // transition after `segmentStart`. Each step returns or moves forward.
  let offset = zone.offsetAt(cur);
  let segmentStart = cur;
  while (cur < limit) {
    const local = nextLocalMatch(c, cur + offset);
    if (local === null) return null;
    const candidate = local - offset;
    const spanDays = Math.ceil((candidate - segmentStart) / DAY_MS) + 1;
    const transition = zone.nextTransitionAfter(segmentStart, spanDays);
    if (transition === null || transition > candidate) {
      // The candidate lies in this segment.
      const nearShift =
        zone.offsetAt(candidate - SHIFT_WINDOW_MS) !== offset ||
        zone.offsetAt(candidate + SHIFT_WINDOW_MS) !== offset;
      if (!fixedTime || !nearShift || admitsRepeated(dst, candidate, local, timezone)) return candidate;
      cur = candidate;
      continue;
    }
    // No fire of this segment comes before the transition. In a spring-forward gap a fixed-time
    // schedule whose wall time falls inside the gap fires at the transition (policy `shift`).
    const next = zone.offsetAt(transition);
    if (fixedTime && next > offset && dst.skipped === 'shift') {
      const inGap = nextLocalMatch(c, transition + offset - 1000);
      if (inGap !== null && inGap < transition + next) return transition;
    }
    cur = Math.max(cur, transition - 1);
    offset = next;
    segmentStart = transition;
  }
  return null;
}

/**
 * The first fire time strictly after `after`, or null when the schedule has no more.
 * A `once` schedule fires at its time, even when that is already past (it runs as soon as it can).
 */
export function nextFireAfter(schedule: Schedule, after: Date): Date | null {
  if (schedule.type === 'once') return schedule.at.getTime() > after.getTime() ? schedule.at : null;
  if (schedule.calendar) {
    const fire = nextCalendarFireOf(schedule, after.getTime());
    return fire === null ? null : new Date(fire.at);
  }
  if (schedule.type === 'interval') return new Date(nextIntervalFireMs(schedule, after.getTime()));
  const next = nextCronFireMs(schedule.expression, schedule.timezone, schedule.dst, after.getTime());
  return next === null ? null : new Date(next);
}

type RecurringSchedule = Exclude<Schedule, { type: 'once' }>;

/** The schedule's own fire times, its calendar left out. */
export function baseFireTimes(schedule: RecurringSchedule): BaseNext {
  if (schedule.type === 'interval') return (after) => nextIntervalFireMs(schedule, after);
  const { expression, timezone, dst } = schedule;
  return (after) => nextCronFireMs(expression, timezone, dst, after);
}

/** The compiled calendar of a schedule that has one; its days are in the schedule's zone. */
export function scheduleCalendar(schedule: RecurringSchedule): CompiledCalendar | null {
  const calendar = schedule.calendar;
  if (!calendar) return null;
  // A schedule read once is asked many times (a planning pass, a preview): the calendar object
  // keeps its compiled form under a symbol (invisible to JSON), so the cache key is built once per
  // read. A WeakMap did the same at twice the cost, with 30,000 schedules read per peak.
  const zone = schedule.type === 'cron' ? schedule.timezone : (calendar.timezone ?? 'UTC');
  const held = (calendar as { [COMPILED]?: CompiledCalendar })[COMPILED];
  if (held && held.zone.zone === zone) return held;
  const compiled = compileCalendar(calendar, zone);
  if (Object.isExtensible(calendar)) {
    Object.defineProperty(calendar, COMPILED, { value: compiled, enumerable: false, writable: true });
  }
  return compiled;
}

const COMPILED = Symbol('compiled calendar');

function recurrenceKey(schedule: RecurringSchedule): string {
  if (schedule.type === 'interval') {
    return `i|${schedule.every}|${schedule.offset ?? ''}|${schedule.startAt?.getTime() ?? ''}`;
  }
  return `c|${schedule.expression}|${schedule.timezone}|${schedule.dst.repeated}|${schedule.dst.skipped}`;
}

/** The first fire time after `after` of a schedule with a calendar, with what moved into it. */
export function nextCalendarFireOf(schedule: RecurringSchedule, after: number): EffectiveFire | null {
  const cal = scheduleCalendar(schedule)!;
  return nextCalendarFire(cal, baseFireTimes(schedule), () => recurrenceKey(schedule), after);
}

/** The fire time a new (or edited) task starts from: the first at or after `now`. */
export function firstFireAt(schedule: Schedule, now: Date): Date | null {
  if (schedule.type === 'once') return schedule.at;
  return nextFireAfter(schedule, new Date(now.getTime() - 1));
}

/** Fire times in [from, to), at most `cap` of them; `more` says whether the range held more. */
export function fireTimesBetween(
  schedule: Schedule,
  from: Date,
  to: Date,
  cap: number,
): { times: Date[]; more: boolean } {
  const times: Date[] = [];
  let t = nextFireAfter(schedule, new Date(from.getTime() - 1));
  while (t !== null && t.getTime() < to.getTime()) {
    if (times.length === cap) return { times, more: true };
    times.push(t);
    t = nextFireAfter(schedule, t);
  }
  return { times, more: false };
}

/**
 * The last fire time in [from, before), or null. Searches backwards from `before` in growing
 * windows, so a task that missed a year of a once-a-second schedule costs a few steps, not
 * thirty million.
 */
export function lastFireBefore(schedule: Schedule, from: Date, before: Date): Date | null {
  const end = before.getTime();
  const start = from.getTime();
  if (start >= end) return null;
  if (schedule.type === 'interval' && !schedule.calendar) {
    const last = lastIntervalFireBeforeMs(schedule, end);
    return last === null || last < start ? null : new Date(last);
  }
  for (let window = 1000; ; window *= 8) {
    const lo = Math.max(start, end - window);
    let t = nextFireAfter(schedule, new Date(lo - 1));
    if (t !== null && t.getTime() < end) {
      let last = t;
      for (let steps = 0; steps < 100_000; steps++) {
        t = nextFireAfter(schedule, last);
        if (t === null || t.getTime() >= end) break;
        last = t;
      }
      return last;
    }
    if (lo === start) return null;
  }
}
