import { type CompiledCalendar, DAY_MS, MAX_MOVE_DAYS } from './excluded-days.ts';

// The fire times of a schedule with a calendar (docs/scheduling.md#calendars). The schedule's own
// fire times (the base) come from a function the caller passes (schedule.ts's, without the
// calendar), so this module knows nothing of cron or intervals.
//
// Each base fire time lies on a day of the calendar's zone. On a business day it fires as it is.
// On an excluded day it is skipped, or moved to the same wall time on the next (previous) business
// day. A moved fire time is the instant it moves to, and that instant is its occurrence key: two
// fires moved to the same wall time of one day (Saturday's and Sunday's 09:00 both to Monday
// 09:00, or to a Monday that fires at 09:00 anyway) are one occurrence, which runs once.
//
// The hot path is a business day with business neighbours: one base step, a day number and two
// byte lookups. A day that receives moved fires ("fed": its neighbour is excluded) is worked out
// whole, once, and remembered.

export type BaseNext = (after: number) => number | null;

/** A moved wall time that does not exist on its new day (spring forward) fires at the transition. */
function instantOnDay(cal: CompiledCalendar, day: number, wallMs: number): number {
  const local = day * DAY_MS + wallMs;
  const instants = cal.zone.instantsOf(local);
  if (instants.length > 0) return instants[0]!;
  return cal.zone.nextTransitionAfter(local - 15 * 3_600_000, 2) ?? local;
}

export function dayOf(cal: CompiledCalendar, instant: number): number {
  return Math.floor((instant + cal.zone.offsetAt(instant)) / DAY_MS);
}

/** The first instant whose local day is `day` or later. */
export function dayStart(cal: CompiledCalendar, day: number): number {
  let lo = day * DAY_MS - 16 * 3_600_000; // local day < day here, for every zone
  let hi = day * DAY_MS + 16 * 3_600_000; // and >= day here
  while (hi - lo > 1000) {
    const mid = Math.floor((lo + hi) / 2000) * 1000;
    if (dayOf(cal, mid) >= day) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** A day that receives fires moved from an excluded neighbour. */
function isFed(cal: CompiledCalendar, day: number): boolean {
  if (cal.onExcluded === 'next_business_day') return cal.isExcluded(day - 1);
  if (cal.onExcluded === 'previous_business_day') return cal.isExcluded(day + 1);
  return false;
}

/** The days whose fires land on business day `day`: itself, then the excluded run that feeds it. */
function sourceDays(cal: CompiledCalendar, day: number): number[] {
  const out = [day];
  const step =
    cal.onExcluded === 'next_business_day' ? -1 : cal.onExcluded === 'previous_business_day' ? 1 : 0;
  if (step === 0) return out;
  for (let d = day + step; out.length <= MAX_MOVE_DAYS && cal.isExcluded(d); d += step) out.push(d);
  return out;
}

/** A fire time of a calendar schedule, with the base fire times it stands for. */
export interface EffectiveFire {
  at: number;
  /** The base fire times moved here from excluded days (absent: it is only its own). */
  movedFrom?: number[];
}

/** The base fire times on local day `day`, oldest first. */
export function baseFiresOnDay(cal: CompiledCalendar, base: BaseNext, day: number): number[] {
  const out: number[] = [];
  const end = dayStart(cal, day + 1);
  for (let t = base(dayStart(cal, day) - 1); t !== null && t < end; t = base(t)) {
    if (dayOf(cal, t) === day) out.push(t);
  }
  return out;
}

/** Every fire of a fed business day, oldest first, remembered per (calendar, rule, day). */
function firesOfFedDay(cal: CompiledCalendar, base: BaseNext, ruleKey: string, day: number): EffectiveFire[] {
  const fedDays = cal.fedDays as Map<string, EffectiveFire[]>;
  const key = `${ruleKey}\n${day}`;
  const cached = fedDays.get(key);
  if (cached) return cached;
  const byInstant = new Map<number, EffectiveFire>();
  for (const source of sourceDays(cal, day)) {
    for (const t of baseFiresOnDay(cal, base, source)) {
      if (source === day) {
        const seen = byInstant.get(t);
        if (!seen) byInstant.set(t, { at: t });
        continue;
      }
      // The same wall time on the business day.
      const wall = t + cal.zone.offsetAt(t) - source * DAY_MS;
      const at = instantOnDay(cal, day, wall);
      const seen = byInstant.get(at) ?? { at };
      seen.movedFrom = [...(seen.movedFrom ?? []), t].sort((a, b) => a - b);
      byInstant.set(at, seen);
    }
  }
  const fires = [...byInstant.values()].sort((a, b) => a.at - b.at);
  if (fedDays.size >= 10_000) fedDays.clear();
  fedDays.set(key, fires);
  return fires;
}

/** The index of the first fire later than `after` (fires.length when none is). */
function firstAfter(fires: EffectiveFire[], after: number): number {
  let lo = 0;
  let hi = fires.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (fires[mid]!.at > after) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** How far the search runs before it calls a schedule exhausted (as the cron search does). */
const HORIZON_DAYS = 9 * 366;

/**
 * The first fire time strictly after `after` (ms) of a schedule whose base fire times are `base`
 * and whose calendar is `cal`; null when there is none within the horizon. `ruleKey` names the
 * schedule's recurrence (without its calendar) for the calendar's memory of fed days; it is asked
 * only on a fed day.
 */
export function nextCalendarFire(
  cal: CompiledCalendar,
  base: BaseNext,
  ruleKey: () => string,
  after: number,
): EffectiveFire | null {
  let day = dayOf(cal, after) - 1;
  const lastDay = day + HORIZON_DAYS;
  // The base's first fire after max(after, start of `day`) and its day, carried between days.
  let next = base(after);
  while (day <= lastDay) {
    if (cal.isExcluded(day)) {
      // Nothing fires on an excluded day; its fires are found from the business day they move to.
      day += 1;
      continue;
    }
    if (isFed(cal, day)) {
      const fires = firesOfFedDay(cal, base, ruleKey(), day);
      const i = firstAfter(fires, after);
      if (i < fires.length) return fires[i]!;
      day += 1;
      next = base(Math.max(after, dayStart(cal, day) - 1));
      continue;
    }
    if (next === null) return null;
    const nextDay = dayOf(cal, next);
    if (nextDay === day) return { at: next };
    if (nextDay < day) {
      next = base(Math.max(after, dayStart(cal, day) - 1));
      continue;
    }
    // No base fire until nextDay. Days between can only receive fires moved back from it.
    day =
      cal.onExcluded === 'previous_business_day' && cal.isExcluded(nextDay)
        ? Math.max(day + 1, cal.previousBusinessDay(nextDay) ?? nextDay)
        : nextDay;
  }
  return null;
}

/** A base fire time on an excluded day, and where it went. */
export interface ExcludedFire {
  at: number;
  reason: string;
  /** The fire time it moved to; absent when it was skipped. */
  movedTo?: number;
}

/** The base fire times in [from, to) that fall on excluded days, oldest first, at most `cap`. */
export function excludedFires(
  cal: CompiledCalendar,
  base: BaseNext,
  from: number,
  to: number,
  cap: number,
): ExcludedFire[] {
  const out: ExcludedFire[] = [];
  let t = base(from - 1);
  while (t !== null && t < to && out.length < cap) {
    const day = dayOf(cal, t);
    if (!cal.isExcluded(day)) {
      // Jump to the next excluded day rather than stepping through every fire of business days.
      let d = day + 1;
      while (!cal.isExcluded(d) && d < day + HORIZON_DAYS) d += 1;
      t = base(Math.max(t, dayStart(cal, d) - 1));
      continue;
    }
    const target = cal.targetDay(day);
    const entry: ExcludedFire = { at: t, reason: cal.reasonOf(day) };
    if (target !== null) {
      const wall = t + cal.zone.offsetAt(t) - day * DAY_MS;
      entry.movedTo = instantOnDay(cal, target, wall);
    }
    out.push(entry);
    t = base(t);
  }
  return out;
}
