// The shape of a business calendar (docs/scheduling.md#calendars), apart from the code that reads
// it (excluded-days.ts): the model, the interval schedule and the console's types need the shape
// only, not date-holidays.

/** What becomes of an occurrence on an excluded day (calendar/excluded-days.ts). */
export type OnExcluded = 'skip' | 'next_business_day' | 'previous_business_day';

/** A business calendar: the days a cron or interval schedule does not fire on. */
export interface ScheduleCalendar {
  /** Public holidays of a country, or country-region (`DE`, `DE-BE`, `US-CA`, `DE-BY-A`). */
  holidays?: string;
  /** Saturdays and Sundays are excluded. */
  weekends?: boolean;
  /** Explicit dates excluded (`YYYY-MM-DD`, in the calendar's zone). */
  dates?: string[];
  onExcluded: OnExcluded;
  /** Interval schedules only: the zone whose days are judged (UTC when absent). */
  timezone?: string;
}
