import { createRequire } from 'node:module';
import type Holidays from 'date-holidays';
import { invalidArgument } from '../errors.ts';
import type { OnExcluded, ScheduleCalendar } from './calendar-types.ts';
import { isKnownTimeZone, type ZoneOffsets, zoneOffsets } from './time-zone.ts';

// Business calendars on cron and interval schedules (docs/scheduling.md#calendars): days a
// schedule does not fire on (a country's or region's public holidays, weekends, explicit dates),
// and what becomes of an occurrence that falls on one: `skip` it, or move it to the same wall
// time on the next or the previous business day.
//
// The scheduler asks "is this day excluded?" for every occurrence it plans, so the answer is a
// lookup: each calendar is compiled once per (calendar, year) into a byte per day, and compiled
// calendars are cached by their text. date-holidays is called once per (region, year), never per
// occurrence. Days are numbered as days since 1970-01-01 of the calendar's zone (the schedule's
// zone for cron; `calendar.timezone`, UTC by default, for an interval, which has none).

export const ON_EXCLUDED = [
  'skip',
  'next_business_day',
  'previous_business_day',
] as const satisfies readonly OnExcluded[];
export type { OnExcluded, ScheduleCalendar };

/** The most explicit dates one calendar may list. */
export const MAX_CALENDAR_DATES = 1000;
/** How far a move looks for a business day; an occurrence with none that near is skipped. */
export const MAX_MOVE_DAYS = 31;

export const DAY_MS = 86_400_000;

/** Why a day is excluded: a bit set. */
export const EXCLUDED_WEEKEND = 1;
export const EXCLUDED_HOLIDAY = 2;
export const EXCLUDED_DATE = 4;

const DATE_TEXT = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The day number (days since 1970-01-01) of a `YYYY-MM-DD` date, or null when it is not a date. */
export function dayOfDate(text: string): number | null {
  const m = DATE_TEXT.exec(text);
  if (!m) return null;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  const d = new Date(ms);
  if (d.getUTCFullYear() !== Number(m[1]) || d.getUTCMonth() !== Number(m[2]) - 1) return null;
  return ms / DAY_MS;
}

export function dateOfDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** 0 = Sunday ... 6 = Saturday. 1970-01-01 was a Thursday. */
export function weekdayOfDay(day: number): number {
  return (((day + 4) % 7) + 7) % 7;
}

// ---------------------------------------------------------------------------------------------
// Holiday regions: date-holidays' codes, checked against its own lists.

// date-holidays and its data cost a process about 130 ms of CPU to load: every service imports
// the domain, few ever read a holiday, so it is loaded by the first calendar that names a region.
let HolidaysClass: typeof Holidays | undefined;
function holidaysClass(): typeof Holidays {
  HolidaysClass ??= createRequire(import.meta.url)('date-holidays') as typeof Holidays;
  return HolidaysClass;
}

let holidayDirectory: Holidays | undefined;
function directory(): Holidays {
  holidayDirectory ??= new (holidaysClass())();
  return holidayDirectory;
}

export interface HolidayRegion {
  /** The code as stored: upper case, `CC`, `CC-SS` or `CC-SS-RR`. */
  code: string;
  country: string;
  state?: string;
  region?: string;
  /** In English: "Berlin, Germany". */
  name: string;
}

const REGION_TEXT = /^([A-Za-z]{2})(?:-([A-Za-z0-9]{1,4}))?(?:-([A-Za-z0-9]{1,6}))?$/;
const regions = new Map<string, HolidayRegion | null>();

/** The region a holidays code names, or null when date-holidays does not know it. */
export function holidayRegion(code: string): HolidayRegion | null {
  const key = code.toUpperCase();
  const cached = regions.get(key);
  if (cached !== undefined) return cached;
  let found: HolidayRegion | null = null;
  const m = REGION_TEXT.exec(key);
  if (m) {
    const [, country, state, region] = m as unknown as [string, string, string?, string?];
    const countries = directory().getCountries('en') as Record<string, string>;
    const states = countries[country] ? (directory().getStates(country, 'en') as Record<string, string>) : {};
    const subregions =
      state && states?.[state]
        ? (directory().getRegions(country, state, 'en') as Record<string, string>)
        : {};
    if (countries[country] && (!state || states?.[state]) && (!region || subregions?.[region])) {
      const names = [region ? subregions![region] : null, state ? states![state] : null, countries[country]];
      found = {
        code: key,
        country,
        ...(state ? { state } : {}),
        ...(region ? { region } : {}),
        name: names.filter((n): n is string => !!n).join(', '),
      };
    }
  }
  regions.set(key, found);
  return found;
}

const holidayCalendars = new Map<string, Holidays>();

/** Public holidays of a region in a year, as day number → name. date-holidays runs here only. */
function publicHolidays(region: HolidayRegion, year: number): Map<number, string> {
  let hd = holidayCalendars.get(region.code);
  if (!hd) {
    hd = new (holidaysClass())(region.country, region.state ?? '', region.region ?? '', {
      types: ['public'],
      languages: 'en',
    });
    holidayCalendars.set(region.code, hd);
  }
  const out = new Map<number, string>();
  for (const h of hd.getHolidays(year, 'en')) {
    if (h.type !== 'public') continue;
    // `date` is the wall-clock start in the region: its day is the holiday (a holiday that starts
    // at noon excludes the whole day).
    const day = dayOfDate(h.date.slice(0, 10));
    if (day === null) continue;
    const name = out.get(day);
    out.set(day, name ? `${name} / ${h.name}` : h.name);
  }
  return out;
}

/** A calendar as stored: its fields in one order, the absent ones left out, the region upper case. */
export function toCalendar(c: ScheduleCalendar): ScheduleCalendar {
  return {
    ...(c.holidays !== undefined ? { holidays: c.holidays.toUpperCase() } : {}),
    ...(c.weekends !== undefined ? { weekends: c.weekends } : {}),
    ...(c.dates !== undefined && c.dates.length > 0 ? { dates: [...new Set(c.dates)].sort() } : {}),
    onExcluded: c.onExcluded,
    ...(c.timezone !== undefined ? { timezone: c.timezone } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// Validation: the issues of a calendar, as (field under `calendar`, issue) pairs.

export function calendarIssues(
  c: ScheduleCalendar,
  scheduleType: 'cron' | 'interval' | 'once',
): { field: string; issue: string }[] {
  const issues: { field: string; issue: string }[] = [];
  if (scheduleType === 'once') {
    return [{ field: 'calendar', issue: 'a once schedule has no calendar: pick its day' }];
  }
  if (c.holidays !== undefined && !holidayRegion(c.holidays)) {
    issues.push({
      field: 'holidays',
      issue: `unknown holiday region "${c.holidays}": a country code (DE), or country-state (DE-BE), as date-holidays knows them`,
    });
  }
  for (const [i, d] of (c.dates ?? []).entries()) {
    if (dayOfDate(d) === null)
      issues.push({ field: `dates.${i}`, issue: `"${d}" is not a date (YYYY-MM-DD)` });
  }
  if (c.holidays === undefined && !c.weekends && (c.dates ?? []).length === 0) {
    issues.push({
      field: 'holidays',
      issue: 'a calendar excludes something: give holidays, weekends or dates',
    });
  }
  if (c.timezone !== undefined) {
    if (scheduleType === 'cron') {
      issues.push({ field: 'timezone', issue: 'a cron schedule’s days are in its own timezone; drop this' });
    } else if (!isKnownTimeZone(c.timezone)) {
      issues.push({ field: 'timezone', issue: `unknown IANA time zone "${c.timezone}"` });
    }
  }
  return issues;
}

/** Throws invalid_argument naming the first bad field under `prefix` (e.g. `schedule.calendar`). */
export function validateCalendar(
  c: ScheduleCalendar,
  scheduleType: 'cron' | 'interval' | 'once',
  prefix = 'schedule.calendar',
): void {
  const [first] = calendarIssues(c, scheduleType);
  if (first)
    throw invalidArgument(first.field === 'calendar' ? prefix : `${prefix}.${first.field}`, first.issue);
}

// ---------------------------------------------------------------------------------------------
// Compiled calendars.

interface CalendarYear {
  /** Day number of 1 January. */
  start: number;
  /** Per day of the year: a set of EXCLUDED_* bits, 0 for a business day. */
  flags: Uint8Array;
  holidayNames: Map<number, string>;
}

/** The text a calendar is known by in caches: equal calendars have equal keys. */
export function calendarKey(c: ScheduleCalendar, zone: string): string {
  // Stored calendars list their dates sorted (toCalendar): sorted again only when they are not.
  const d = c.dates ?? [];
  const sorted = d.every((x, i) => i === 0 || d[i - 1]! <= x);
  const dates = d.length > 0 ? (sorted ? d : [...d].sort()).join(',') : '';
  return `${(c.holidays ?? '').toUpperCase()}|${c.weekends ? 'w' : ''}|${dates}|${c.onExcluded}|${zone}`;
}

export class CompiledCalendar {
  readonly key: string;
  readonly onExcluded: OnExcluded;
  readonly zone: ZoneOffsets;
  readonly #region: HolidayRegion | null;
  readonly #weekends: boolean;
  readonly #dates: ReadonlySet<number>;
  readonly #years = new Map<number, CalendarYear>();
  /** calendar-fires.ts's memory of the fire times of days that receive moved occurrences. */
  readonly fedDays = new Map<string, unknown>();
  /** The year last looked up: consecutive lookups are nearly always in the same year. */
  #last: CalendarYear | null = null;

  constructor(c: ScheduleCalendar, zone: string) {
    this.key = calendarKey(c, zone);
    this.onExcluded = c.onExcluded;
    this.zone = zoneOffsets(zone);
    this.#region = c.holidays === undefined ? null : holidayRegion(c.holidays);
    if (c.holidays !== undefined && !this.#region) throw new Error(`unknown holiday region ${c.holidays}`);
    this.#weekends = c.weekends === true;
    this.#dates = new Set((c.dates ?? []).map((d) => dayOfDate(d)).filter((d): d is number => d !== null));
  }

  /** The EXCLUDED_* bits of a day (0: a business day). */
  flagsOf(day: number): number {
    const y = this.#last;
    if (y !== null && day >= y.start && day < y.start + y.flags.length) return y.flags[day - y.start]!;
    const year = this.#yearOf(new Date(day * DAY_MS).getUTCFullYear());
    this.#last = year;
    return year.flags[day - year.start]!;
  }

  isExcluded(day: number): boolean {
    return this.flagsOf(day) !== 0;
  }

  /** The first business day after `day`, or null when none within MAX_MOVE_DAYS. */
  nextBusinessDay(day: number): number | null {
    for (let d = day + 1; d <= day + MAX_MOVE_DAYS; d++) if (!this.isExcluded(d)) return d;
    return null;
  }

  /** The last business day before `day`, or null when none within MAX_MOVE_DAYS. */
  previousBusinessDay(day: number): number | null {
    for (let d = day - 1; d >= day - MAX_MOVE_DAYS; d--) if (!this.isExcluded(d)) return d;
    return null;
  }

  /** Where an occurrence on an excluded day goes: its business day, or null (skipped). */
  targetDay(day: number): number | null {
    if (this.onExcluded === 'next_business_day') return this.nextBusinessDay(day);
    if (this.onExcluded === 'previous_business_day') return this.previousBusinessDay(day);
    return null;
  }

  /** Why a day is excluded, in words ("Saturday", "public holiday New Year's Day", "listed date"). */
  reasonOf(day: number): string {
    const flags = this.flagsOf(day);
    const parts: string[] = [];
    if (flags & EXCLUDED_HOLIDAY) {
      const name = this.#yearOf(new Date(day * DAY_MS).getUTCFullYear()).holidayNames.get(day);
      parts.push(`public holiday ${name ?? ''} (${this.#region?.code})`.replace('  ', ' '));
    }
    if (flags & EXCLUDED_WEEKEND) parts.push(weekdayOfDay(day) === 0 ? 'Sunday' : 'Saturday');
    if (flags & EXCLUDED_DATE) parts.push('listed date');
    return parts.join(', ');
  }

  #yearOf(year: number): CalendarYear {
    let y = this.#years.get(year);
    if (y) return y;
    const start = Date.UTC(year, 0, 1) / DAY_MS;
    const length = Date.UTC(year + 1, 0, 1) / DAY_MS - start;
    const flags = new Uint8Array(length);
    const holidayNames = this.#region ? publicHolidays(this.#region, year) : new Map<number, string>();
    for (let i = 0; i < length; i++) {
      const day = start + i;
      const weekday = weekdayOfDay(day);
      let f = 0;
      if (this.#weekends && (weekday === 0 || weekday === 6)) f |= EXCLUDED_WEEKEND;
      if (holidayNames.has(day)) f |= EXCLUDED_HOLIDAY;
      if (this.#dates.has(day)) f |= EXCLUDED_DATE;
      flags[i] = f;
    }
    y = { start, flags, holidayNames };
    if (this.#years.size >= 64) this.#years.clear();
    this.#years.set(year, y);
    return y;
  }
}

const compiledCalendars = new Map<string, CompiledCalendar>();

/** The shared compiled calendar (the calendar must be valid: see validateCalendar). */
export function compileCalendar(c: ScheduleCalendar, zone: string): CompiledCalendar {
  const key = calendarKey(c, zone);
  let compiled = compiledCalendars.get(key);
  if (!compiled) {
    compiled = new CompiledCalendar(c, zone);
    if (compiledCalendars.size >= 10_000) compiledCalendars.clear();
    compiledCalendars.set(key, compiled);
  }
  return compiled;
}
