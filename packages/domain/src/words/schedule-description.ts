import cronstrue from 'cronstrue';
import { holidayRegion, type ScheduleCalendar } from '../calendar/excluded-days.ts';
import { DURATION_PATTERN } from '../calendar/interval.ts';
import type { Schedule } from '../model.ts';

// A schedule in one English sentence (docs/api.md, docs/scheduling.md#schedules-in-words): what every response carries
// as `description`. cronstrue reads cron expressions; the rest (intervals, once, the zone, a
// daylight-saving policy other than the default, a calendar, jitter) is written here into the same
// sentence. Pure, and it never throws: a part it cannot read is quoted as given.

const UNITS = ['day', 'hour', 'minute', 'second'] as const;

/** "90m" → "90 minutes", "1h30m" → "1 hour 30 minutes", "1h" → "1 hour". */
export function durationInWords(text: string): string {
  const m = DURATION_PATTERN.exec(text);
  if (!m || text.length === 0) return text;
  const parts: string[] = [];
  for (let i = 0; i < UNITS.length; i++) {
    const v = m[i + 1];
    if (v === undefined) continue;
    const n = Number(v);
    parts.push(`${n} ${UNITS[i]}${n === 1 ? '' : 's'}`);
  }
  return parts.length > 0 ? parts.join(' ') : text;
}

function cronInWords(expression: string): string {
  try {
    return cronstrue.toString(expression, { use24HourTimeFormat: true, throwExceptionOnParseError: true });
  } catch {
    return `On cron "${expression}"`;
  }
}

/** "2026-12-24 18:00" (seconds when not zero) of an instant in a zone. */
export function wallClockIn(at: Date, zone: string): string {
  try {
    const parts = new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    }).formatToParts(at);
    const f = (t: string) => parts.find((p) => p.type === t)?.value ?? '';
    const seconds = f('second') === '00' ? '' : `:${f('second')}`;
    return `${f('year')}-${f('month')}-${f('day')} ${f('hour')}:${f('minute')}${seconds}`;
  } catch {
    return at.toISOString();
  }
}

function list(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

const MOVES: Record<ScheduleCalendar['onExcluded'], string> = {
  skip: 'a run that falls on an excluded day is skipped',
  next_business_day: 'a run that falls on an excluded day moves to the next business day',
  previous_business_day: 'a run that falls on an excluded day moves to the previous business day',
};

/** ", except on Saturdays and Sundays and public holidays in Berlin, Germany (DE-BE); ..." */
export function calendarInWords(c: ScheduleCalendar): string {
  const excluded: string[] = [];
  if (c.weekends) excluded.push('Saturdays and Sundays');
  if (c.holidays !== undefined) {
    const region = holidayRegion(c.holidays);
    excluded.push(
      region ? `public holidays in ${region.name} (${region.code})` : `public holidays in ${c.holidays}`,
    );
  }
  const dates = c.dates ?? [];
  if (dates.length > 0) {
    const shown = [...dates].sort().slice(0, 3).join(', ');
    excluded.push(dates.length > 3 ? `${dates.length} listed dates (${shown}, …)` : shown);
  }
  const zone = c.timezone !== undefined ? ` (days in ${c.timezone})` : '';
  return `, except on ${list(excluded)}${zone}; ${MOVES[c.onExcluded] ?? MOVES.skip}`;
}

function dstInWords(s: Extract<Schedule, { type: 'cron' }>): string {
  if (s.timezone === 'UTC' || !s.dst) return '';
  const parts: string[] = [];
  if (s.dst.repeated === 'last')
    parts.push('a time that occurs twice (clocks go back) fires on its second pass');
  if (s.dst.repeated === 'both') parts.push('a time that occurs twice (clocks go back) fires on both passes');
  if (s.dst.skipped === 'skip') parts.push('a time that does not exist (clocks go forward) is skipped');
  return parts.length > 0 ? `; ${parts.join('; ')}` : '';
}

function jitterInWords(jitterS: number): string {
  if (!(jitterS > 0)) return '';
  const window = jitterS % 60 === 0 ? durationInWords(`${jitterS / 60}m`) : `${jitterS} seconds`;
  return `; each run starts at a fixed point within ${window.replace(/^1 (\w+)$/, 'one $1')} after its time (jitter)`;
}

function baseInWords(s: Schedule): string {
  switch (s.type) {
    case 'once': {
      const zone = s.timezone ?? 'UTC';
      const utc = zone === 'UTC' ? '' : ` (${wallClockIn(s.at, 'UTC')} UTC)`;
      return `Once, at ${wallClockIn(s.at, zone)}, ${zone}${utc}`;
    }
    case 'interval': {
      const every = durationInWords(s.every);
      const offset = s.offset !== undefined ? `, offset ${durationInWords(s.offset)}` : '';
      const anchor =
        s.startAt !== undefined
          ? `from ${wallClockIn(s.startAt, 'UTC')} UTC`
          : 'counted from 1970-01-01 00:00 UTC';
      return `Every ${every.replace(/^1 /, '')}${offset} (elapsed time, ${anchor})`;
    }
    case 'cron':
      return `${cronInWords(s.expression)}, ${s.timezone}${dstInWords(s)}`;
    default:
      return 'An unknown schedule';
  }
}

/**
 * The sentence of a schedule: "At 09:00, Monday through Friday, Europe/Berlin". `jitterS` is the
 * task's window, which belongs in the same sentence.
 */
export function describeSchedule(schedule: Schedule, options: { jitterS?: number } = {}): string {
  try {
    const calendar = schedule.type !== 'once' && schedule.calendar ? calendarInWords(schedule.calendar) : '';
    return `${baseInWords(schedule)}${calendar}${jitterInWords(options.jitterS ?? 0)}`;
  } catch {
    return `A ${String((schedule as { type?: unknown })?.type ?? 'unknown')} schedule`;
  }
}
