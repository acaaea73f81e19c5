import type { AuditEntry } from '../decisions/audit.ts';
import type { Schedule } from '../model.ts';
import { wallClockIn } from '../words/schedule-description.ts';
import { excludedFires } from './calendar-fires.ts';
import { baseFireTimes, nextCalendarFireOf, scheduleCalendar } from './schedule.ts';

// What a calendar did to a schedule, for the preview and the audit (docs/scheduling.md#calendars):
// the occurrences of the schedule's own rule that fell on excluded days (`excluded`: skipped, or
// moved and to where) and the fire times moved onto business days (`movedFrom`).

type RecurringSchedule = Exclude<Schedule, { type: 'once' }>;

/** At most this many excluded entries in one audit or preview. */
export const MAX_EXCLUDED_ENTRIES = 10_000;

/** The audit's `excluded` entries of [from, to): never `missing`, since nothing was due. */
export function excludedOccurrences(
  schedule: Schedule,
  range: { from: Date; to: Date },
  createdAt: Date,
): AuditEntry[] {
  if (schedule.type === 'once' || !schedule.calendar) return [];
  const cal = scheduleCalendar(schedule)!;
  const from = Math.max(range.from.getTime(), createdAt.getTime());
  return excludedFires(cal, baseFireTimes(schedule), from, range.to.getTime(), MAX_EXCLUDED_ENTRIES).map(
    (f) => ({
      scheduledFor: new Date(f.at).toISOString(),
      status: 'excluded',
      reason: f.reason,
      ...(f.movedTo !== undefined ? { movedTo: new Date(f.movedTo).toISOString() } : {}),
    }),
  );
}

export interface CalendarMarks {
  /** Fire times (ms) → the base fire times moved into them. */
  movedInto: Map<number, number[]>;
  /** Base fire times on excluded days in the window, with their reason and destination. */
  excluded: { at: number; reason: string; movedTo?: number }[];
}

/** The calendar's marks on the fire times in [from, to] of a schedule with a calendar. */
export function calendarMarks(schedule: RecurringSchedule, from: number, to: number): CalendarMarks {
  const cal = scheduleCalendar(schedule)!;
  const movedInto = new Map<number, number[]>();
  for (let f = nextCalendarFireOf(schedule, from - 1); f !== null && f.at <= to; ) {
    if (f.movedFrom) movedInto.set(f.at, f.movedFrom);
    f = nextCalendarFireOf(schedule, f.at);
  }
  const excluded = excludedFires(cal, baseFireTimes(schedule), from, to + 1, MAX_EXCLUDED_ENTRIES);
  return { movedInto, excluded };
}

/** "2027-01-01 09:00 (public holiday New Year's Day (DE-BE))" in the calendar's zone. */
export function describeExcluded(schedule: RecurringSchedule, at: number, reason: string): string {
  const cal = scheduleCalendar(schedule)!;
  return `${wallClockIn(new Date(at), cal.zone.zone)} (${reason})`;
}
