import { z } from 'zod';
import type { Schedule } from '../model.ts';
import { refineSchedule, scheduleSchema } from '../wire/task-spec.ts';
import { calendarMarks, describeExcluded } from './calendar-views.ts';
import { compileCron, nextLocalMatch } from './cron.ts';
import { fireTimesBetween, nextCronFireMs, nextFireAfter } from './schedule.ts';
import { zoneOffsets } from './time-zone.ts';

// The fire-time preview (GET /v1/tasks/{id}/occurrences, POST /v1/schedules/preview): the next
// fire times of a schedule as the scheduler will compute them, each with its wall clock and UTC
// offset, and the daylight-saving cases marked. Pure: the caller passes the instant to start from.
//
// The fire times come from nextCronFireMs itself, so the preview cannot disagree with the
// scheduler. The marks are read off the zone around each fire time:
// - `shifted`: the wall time the expression names does not exist (spring forward) and the
//   policy `dst.skipped: shift` fires at the first instant after the gap;
// - `repeated`: the wall time occurs twice (fall back) and this is one of the two;
// - `skipped`: an entry that does not fire, listed so the reader sees the hole: the other
//   pass of a repeated wall time under `dst.repeated: first|last`, or a wall time inside a gap
//   under `dst.skipped: skip`.
// Interval-like schedules (every hour matches) follow elapsed time: they are never shifted or
// skipped, but their fires inside a repeated hour are marked `repeated`.

const DAY_MS = 86_400_000;

export const DEFAULT_PREVIEW_COUNT = 10;
export const MAX_PREVIEW_COUNT = 1000;

export const DST_MARKS = ['shifted', 'repeated', 'skipped'] as const;
export type DstMark = (typeof DST_MARKS)[number];

export interface PreviewedOccurrence {
  /** The instant (RFC 3339 UTC); for a `skipped` entry, the instant it would have had. */
  at: string;
  /** The wall clock in the schedule's zone, without offset: `2026-03-29T03:00:00`. */
  localTime: string;
  /** The zone's UTC offset at `at`: `+02:00`. */
  utcOffset: string;
  /** False only for `skipped` entries. */
  fires: boolean;
  dst?: DstMark;
  /** Why the entry is marked, in words. */
  note?: string;
  /** Set by a calendar: this occurrence is on an excluded day, or was moved here from one. */
  calendar?: CalendarMark;
  /** An excluded occurrence moved: the fire time it moved to. */
  movedTo?: string;
  /** The occurrences on excluded days that fire at this time instead. */
  movedFrom?: string[];
}

export const CALENDAR_MARKS = ['excluded', 'moved'] as const;
export type CalendarMark = (typeof CALENDAR_MARKS)[number];

function wallTime(floating: number): string {
  return new Date(floating).toISOString().slice(0, 19);
}

function formatOffset(offsetMs: number): string {
  const sign = offsetMs < 0 ? '-' : '+';
  const minutes = Math.abs(offsetMs) / 60_000;
  const hh = String(Math.floor(minutes / 60)).padStart(2, '0');
  const mm = String(minutes % 60).padStart(2, '0');
  return `${sign}${hh}:${mm}`;
}

function entry(
  instant: number,
  offsetMs: number,
  extra: Partial<PreviewedOccurrence> = {},
): PreviewedOccurrence {
  return {
    at: new Date(instant).toISOString(),
    localTime: wallTime(instant + offsetMs),
    utcOffset: formatOffset(offsetMs),
    fires: true,
    ...extra,
  };
}

/**
 * The next `count` fire times at or after `from`, oldest first, with the `skipped` entries that
 * fall between them (not counted). A once schedule previews its one time if it is not past.
 */
export function previewOccurrences(schedule: Schedule, from: Date, count: number): PreviewedOccurrence[] {
  if (schedule.type !== 'once' && schedule.calendar) return previewWithCalendar(schedule, from, count);
  if (schedule.type === 'once') {
    return schedule.at.getTime() >= from.getTime() ? [entry(schedule.at.getTime(), 0)] : [];
  }
  if (schedule.type === 'interval') {
    // Elapsed time in UTC: no wall clock, so nothing for daylight saving to move.
    const out: PreviewedOccurrence[] = [];
    let t = nextFireAfter(schedule, new Date(from.getTime() - 1));
    while (t !== null && out.length < count) {
      out.push(entry(t.getTime(), 0));
      t = nextFireAfter(schedule, t);
    }
    return out;
  }
  const { expression, timezone, dst } = schedule;
  const cron = compileCron(expression);
  const zone = zoneOffsets(timezone);
  const fixedTime = !cron.everyHour;
  const out: PreviewedOccurrence[] = [];
  let prev = from.getTime() - 1;
  for (let fired = 0; fired < count; fired++) {
    const next = nextCronFireMs(expression, timezone, dst, prev);
    if (fixedTime && next !== null) out.push(...skippedBetween(prev, next));
    if (next === null) break;
    out.push(markFire(next));
    prev = next;
  }
  return out.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));

  function matches(floating: number): boolean {
    return nextLocalMatch(cron, floating - 1000) === floating;
  }

  function markFire(instant: number): PreviewedOccurrence {
    const offset = zone.offsetAt(instant);
    const local = instant + offset;
    if (!matches(local)) {
      // Only a shift out of a spring-forward gap fires at a wall time the expression does not name.
      const before = zone.offsetAt(instant - 1);
      const named = nextLocalMatch(cron, instant + before - 1000);
      return entry(instant, offset, {
        dst: 'shifted',
        note:
          `${named === null ? 'the named time' : wallTime(named).slice(11)} does not exist on ` +
          `${wallTime(local).slice(0, 10)} (clocks go forward); shifted to the first instant after ` +
          'the gap (dst.skipped: shift)',
      });
    }
    const instants = zone.instantsOf(local);
    if (instants.length > 1) {
      const pass = instant === instants[0] ? 'first' : 'second';
      return entry(instant, offset, {
        dst: 'repeated',
        note:
          `${wallTime(local).slice(11)} occurs twice (clocks go back); this is the ${pass} pass` +
          (fixedTime ? ` (dst.repeated: ${dst.repeated})` : ' (interval schedules fire in both)'),
      });
    }
    return entry(instant, offset);
  }

  /** The entries a fixed-time schedule does not fire in (prev, next), by its DST policy. */
  function skippedBetween(prev: number, next: number): PreviewedOccurrence[] {
    const found: PreviewedOccurrence[] = [];
    let cursor = prev;
    for (;;) {
      const transition = zone.nextTransitionAfter(cursor, Math.ceil((next - cursor) / DAY_MS) + 1);
      if (transition === null || transition > next + DAY_MS) break;
      cursor = transition;
      const oldOffset = zone.offsetAt(transition - 1);
      const newOffset = zone.offsetAt(transition);
      // Wall times in [lo, hi) are missing (gap) or occur twice (overlap).
      const lo = transition + Math.min(oldOffset, newOffset);
      const hi = transition + Math.max(oldOffset, newOffset);
      for (let local = nextLocalMatch(cron, lo - 1000); local !== null && local < hi; ) {
        if (newOffset > oldOffset) {
          if (dst.skipped === 'skip' && transition > prev && transition < next) {
            found.push(
              entry(transition, newOffset, {
                localTime: wallTime(local),
                utcOffset: formatOffset(oldOffset),
                fires: false,
                dst: 'skipped',
                note: `${wallTime(local).slice(11)} does not exist on ${wallTime(local).slice(0, 10)} (clocks go forward); skipped (dst.skipped: skip)`,
              }),
            );
          }
        } else if (dst.repeated !== 'both') {
          const first = local - oldOffset;
          const second = local - newOffset;
          const [notFired, offset] = dst.repeated === 'first' ? [second, newOffset] : [first, oldOffset];
          if (notFired > prev && notFired < next) {
            found.push(
              entry(notFired, offset, {
                fires: false,
                dst: 'skipped',
                note:
                  `${wallTime(local).slice(11)} occurs twice (clocks go back); the ` +
                  `${dst.repeated === 'first' ? 'second' : 'first'} pass does not fire (dst.repeated: ${dst.repeated})`,
              }),
            );
          }
        }
        local = nextLocalMatch(cron, local);
      }
      if (transition > next) break;
    }
    return found;
  }
}

/**
 * The preview of a schedule with a calendar: its own rule's preview (DST marks and all), with the
 * entries on excluded days turned into `excluded` ones (fires: false) and the fire times moved onto
 * business days added (`moved`), cut at `count` fires.
 */
function previewWithCalendar(
  schedule: Exclude<Schedule, { type: 'once' }>,
  from: Date,
  count: number,
): PreviewedOccurrence[] {
  const fires = fireTimesBetween(schedule, from, new Date(8.64e15), count).times;
  if (fires.length === 0) return [];
  const end = fires[fires.length - 1]!.getTime();
  const { calendar: _calendar, ...base } = schedule;
  const baseCount = fireTimesBetween(base, from, new Date(end + 1), MAX_PREVIEW_COUNT * 10).times.length;
  const marks = calendarMarks(schedule, from.getTime(), end);
  const excluded = new Map(marks.excluded.map((e) => [e.at, e]));
  const offsetOf = (t: number) => (schedule.type === 'cron' ? zoneOffsets(schedule.timezone).offsetAt(t) : 0);
  const out: PreviewedOccurrence[] = [];
  const seen = new Set<number>();
  for (const e of baseCount > 0 ? previewOccurrences(base, from, baseCount) : []) {
    const t = Date.parse(e.at);
    const x = excluded.get(t);
    if (x && e.fires) {
      out.push({
        ...e,
        fires: false,
        calendar: 'excluded',
        note: `${describeExcluded(schedule, t, x.reason)}: ${x.movedTo === undefined ? 'skipped' : 'moved'}`,
        ...(x.movedTo !== undefined ? { movedTo: new Date(x.movedTo).toISOString() } : {}),
      });
      continue;
    }
    if (e.fires) seen.add(t);
    const movedFrom = marks.movedInto.get(t);
    out.push(movedFrom ? { ...e, movedFrom: movedFrom.map((m) => new Date(m).toISOString()) } : e);
  }
  for (const [t, movedFrom] of marks.movedInto) {
    if (seen.has(t)) continue;
    out.push(
      entry(t, offsetOf(t), {
        calendar: 'moved',
        movedFrom: movedFrom.map((m) => new Date(m).toISOString()),
        note: `moved from ${movedFrom.map((m) => describeExcluded(schedule, m, excluded.get(m)?.reason ?? 'excluded')).join(', ')}`,
      }),
    );
  }
  out.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  // Entries past the last of the `count` fires belong to the next page.
  return out.filter((e) => Date.parse(e.at) <= end);
}

// The request and response shapes of the two preview routes.

const time = z.iso.datetime({ offset: true }).describe('RFC 3339 time');
const countShape = z
  .number()
  .int()
  .min(1)
  .max(MAX_PREVIEW_COUNT)
  .default(DEFAULT_PREVIEW_COUNT)
  .describe(`how many fire times, at most ${MAX_PREVIEW_COUNT}`);

/** GET /v1/tasks/{id}/occurrences */
export const occurrencesQuerySchema = z.object({
  count: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_PREVIEW_COUNT)
    .default(DEFAULT_PREVIEW_COUNT)
    .describe(`how many fire times, at most ${MAX_PREVIEW_COUNT}`),
  from: time.optional().describe('the first fire time may be this instant or later (default: now)'),
});

/** POST /v1/schedules/preview: a schedule not yet saved. */
export const schedulePreviewSchema = z
  .object({
    schedule: scheduleSchema,
    count: countShape,
    from: time.optional().describe('the first fire time may be this instant or later (default: now)'),
  })
  .superRefine((body, ctx) => refineSchedule(body.schedule, ctx));

export const previewedOccurrenceSchema = z
  .object({
    at: z.string().describe('the instant, RFC 3339 UTC (for a skipped entry: the instant it would have had)'),
    localTime: z.string().describe('the wall clock in the schedule’s zone, e.g. 2026-03-29T03:00:00'),
    utcOffset: z.string().describe('the zone’s UTC offset at that instant, e.g. +02:00'),
    fires: z.boolean().describe('false for a skipped entry'),
    dst: z.enum(DST_MARKS).optional().describe('set when daylight saving moved, repeated or skipped it'),
    calendar: z
      .enum(CALENDAR_MARKS)
      .optional()
      .describe(
        'set by a calendar: `excluded` (an occurrence on an excluded day, fires: false) or `moved` (fires here instead)',
      ),
    movedTo: z.string().optional().describe('an excluded occurrence that moved: where it fires'),
    movedFrom: z
      .array(z.string())
      .optional()
      .describe('the excluded occurrences that fire at this time instead'),
    note: z.string().optional(),
  })
  .meta({ id: 'Occurrence' });

export const occurrencePreviewSchema = z
  .object({
    timezone: z.string(),
    description: z.string().describe('the schedule in one sentence'),
    from: z.string().describe('the instant the preview started from'),
    occurrences: z.array(previewedOccurrenceSchema),
  })
  .meta({ id: 'OccurrencePreview' });
