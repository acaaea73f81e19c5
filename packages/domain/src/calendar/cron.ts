import { CronExpressionParser } from 'cron-parser';

// Cron expressions: parsed and validated by cron-parser, then compiled into lookup tables that
// find the next matching wall-clock time without allocating. cron-parser's own iterator costs
// about 50 µs a step; the scheduler takes thousands of steps per tick, so it iterates here on
// "floating" local time (milliseconds whose UTC fields are the wall-clock fields) and leaves the
// mapping to instants, daylight saving included, to schedule.ts.
//
// Day matching follows cron-parser (and Vixie cron): when both day-of-month and day-of-week are
// restricted, a day matching either fires; `L` is the last day of the month, `5L` the last
// Friday, `1#2` the second Monday.

/** How far ahead a search looks before deciding that an expression has no further fire time. */
export const CRON_HORIZON_YEARS = 8;

export interface CompiledCron {
  readonly expression: string;
  /** For each value, the smallest allowed value at or after it, or -1. */
  readonly nextSecond: Int8Array;
  readonly nextMinute: Int8Array;
  readonly nextHour: Int8Array;
  readonly nextMonth: Int8Array;
  readonly daysOfMonth: ReadonlySet<number>;
  readonly lastDayOfMonth: boolean;
  readonly dayOfMonthWildcard: boolean;
  readonly daysOfWeek: ReadonlySet<number>;
  readonly lastWeekdaysOfMonth: ReadonlySet<number>;
  readonly nthWeekday: number;
  readonly dayOfWeekWildcard: boolean;
  /**
   * Fires in every hour of the day (`*` or a full range in the hour field): an interval-like
   * schedule, which follows elapsed time across daylight-saving changes (docs/design.md "Semantics").
   */
  readonly everyHour: boolean;
}

function numbers(values: readonly unknown[]): number[] {
  return values.filter((v): v is number => typeof v === 'number');
}

function nextTable(values: readonly unknown[], size: number): Int8Array {
  const allowed = new Set(numbers(values));
  const table = new Int8Array(size + 1).fill(-1);
  let next = -1;
  for (let v = size - 1; v >= 0; v--) {
    if (allowed.has(v)) next = v;
    table[v] = next;
  }
  return table;
}

/** Hashed values (`H`) would differ between processes unless seeded; dsched does not take them. */
const HASHED_FIELD = /(^|[\s,])H($|[\s,/(])/i;

/** Parses and compiles an expression; throws cron-parser's error for a malformed one. */
export function compileCron(expression: string): CompiledCron {
  const cached = compiled.get(expression);
  if (cached) return cached;
  if (HASHED_FIELD.test(expression)) throw new Error('hashed values (H) are not supported; name the value');
  const { fields } = CronExpressionParser.parse(expression, { tz: 'UTC', strict: false });
  const dow = fields.dayOfWeek;
  const result: CompiledCron = {
    expression,
    nextSecond: nextTable(fields.second.values, 60),
    nextMinute: nextTable(fields.minute.values, 60),
    nextHour: nextTable(fields.hour.values, 24),
    nextMonth: nextTable(fields.month.values, 13),
    daysOfMonth: new Set(numbers(fields.dayOfMonth.values)),
    lastDayOfMonth: fields.dayOfMonth.hasLastChar,
    dayOfMonthWildcard: fields.dayOfMonth.isWildcard,
    daysOfWeek: new Set(numbers(dow.values).map((v) => v % 7)),
    lastWeekdaysOfMonth: new Set(
      dow.values
        .filter((v) => typeof v === 'string')
        .map((v) => Number.parseInt(String(v).charAt(0), 10) % 7)
        .filter((v) => !Number.isNaN(v)),
    ),
    nthWeekday: dow.nthDay,
    dayOfWeekWildcard: dow.isWildcard,
    everyHour: fields.hour.values.length === 24,
  };
  if (compiled.size >= 10_000) compiled.clear();
  compiled.set(expression, result);
  return result;
}

const compiled = new Map<string, CompiledCron>();

const DAYS_IN_MONTH = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const DAY_MS = 86_400_000;

// Both by arithmetic, not a Date per call: the search steps day by day, and a tick of a thousand
// weekly or monthly tasks takes tens of thousands of steps (docs/performance.md).
function daysInMonth(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 && leap ? 29 : DAYS_IN_MONTH[month]!;
}

/** 0 = Sunday; 1970-01-01 was a Thursday. */
function weekdayOf(year: number, month: number, day: number): number {
  return (((Math.floor(Date.UTC(year, month - 1, day) / DAY_MS) + 4) % 7) + 7) % 7;
}

function dayMatches(c: CompiledCron, year: number, month: number, day: number, dim: number): boolean {
  const weekday = weekdayOf(year, month, day);
  const byDom = c.daysOfMonth.has(day) || (c.lastDayOfMonth && day === dim);
  const byDow =
    (c.daysOfWeek.has(weekday) && (c.nthWeekday <= 0 || Math.ceil(day / 7) === c.nthWeekday)) ||
    (c.lastWeekdaysOfMonth.has(weekday) && day + 7 > dim);
  if (!c.dayOfMonthWildcard && !c.dayOfWeekWildcard) return byDom || byDow;
  if (!c.dayOfMonthWildcard) return byDom;
  if (!c.dayOfWeekWildcard) return byDow;
  return true;
}

/**
 * The first floating local time strictly after `after` (floating ms) whose fields match, on a
 * whole second; null when none within CRON_HORIZON_YEARS.
 */
export function nextLocalMatch(c: CompiledCron, after: number): number | null {
  const start = new Date(Math.floor(after / 1000) * 1000 + 1000);
  let year = start.getUTCFullYear();
  let month = start.getUTCMonth() + 1;
  let day = start.getUTCDate();
  let hour = start.getUTCHours();
  let minute = start.getUTCMinutes();
  let second = start.getUTCSeconds();
  const lastYear = year + CRON_HORIZON_YEARS;
  while (year <= lastYear) {
    const m = c.nextMonth[month]!;
    if (m === -1) {
      year += 1;
      month = 1;
      day = 1;
      hour = minute = second = 0;
      continue;
    }
    if (m !== month) {
      month = m;
      day = 1;
      hour = minute = second = 0;
    }
    const dim = daysInMonth(year, month);
    if (day > dim) {
      month += 1;
      if (month > 12) {
        month = 1;
        year += 1;
      }
      day = 1;
      hour = minute = second = 0;
      continue;
    }
    if (!dayMatches(c, year, month, day, dim)) {
      day += 1;
      hour = minute = second = 0;
      continue;
    }
    const h = c.nextHour[hour]!;
    if (h === -1) {
      day += 1;
      hour = minute = second = 0;
      continue;
    }
    if (h !== hour) {
      hour = h;
      minute = second = 0;
    }
    const mi = c.nextMinute[minute]!;
    if (mi === -1) {
      hour += 1;
      minute = second = 0;
      if (hour > 23) {
        hour = 0;
        day += 1;
      }
      continue;
    }
    if (mi !== minute) {
      minute = mi;
      second = 0;
    }
    const s = c.nextSecond[second]!;
    if (s === -1) {
      minute += 1;
      second = 0;
      if (minute > 59) {
        minute = 0;
        hour += 1;
        if (hour > 23) {
          hour = 0;
          day += 1;
        }
      }
      continue;
    }
    return Date.UTC(year, month - 1, day, hour, minute, s);
  }
  return null;
}
