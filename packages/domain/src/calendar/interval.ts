import type { ScheduleCalendar } from './calendar-types.ts';

// Fixed-rate interval schedules (`{type: "interval", every: "90m", offset?: "15m", startAt?}`):
// what cron cannot say, every 90 minutes or every 7 days from a start. Elapsed time, so daylight
// saving has no effect and there is no time zone. Pure: every function takes the instant to
// compute from (docs/scheduling.md#intervals).
//
// The fire times are anchor + offset + k * every for every whole k >= 0, where the anchor is
// `startAt`, or the Unix epoch when there is none. Epoch-anchored intervals are phase-aligned the
// same way on every replica and after every restart, like Temporal's interval with a phase: an
// hourly interval fires on the hour, `offset: "15m"` at a quarter past.

/** A duration as the API writes it: units of days, hours, minutes and seconds, largest first. */
export const DURATION_PATTERN = /^(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/;

/**
 * The same, non-empty, as the request schemas state it (OpenAPI `pattern`): a client learns the
 * syntax from the document; the range (1s to 366d, offset shorter than every) is checked after.
 */
export const DURATION_TEXT =
  /^(?:\d+d(?:\d+h)?(?:\d+m)?(?:\d+s)?|\d+h(?:\d+m)?(?:\d+s)?|\d+m(?:\d+s)?|\d+s)$/;

const UNIT_MS = [86_400_000, 3_600_000, 60_000, 1000] as const;

/** The shortest and the longest `every`. */
export const MIN_INTERVAL_MS = 1000;
export const MAX_INTERVAL_MS = 366 * 86_400_000;

/** Milliseconds of a duration such as `90m` or `1h30m`; null when it is not one. */
export function parseDuration(text: string): number | null {
  if (text.length === 0 || text.length > 32) return null;
  const m = DURATION_PATTERN.exec(text);
  if (!m) return null;
  let ms = 0;
  for (let i = 0; i < UNIT_MS.length; i++) {
    const part = m[i + 1];
    if (part !== undefined) ms += Number(part) * UNIT_MS[i]!;
  }
  return Number.isSafeInteger(ms) ? ms : null;
}

export interface IntervalSchedule {
  type: 'interval';
  every: string;
  offset?: string;
  startAt?: Date;
  calendar?: ScheduleCalendar;
  text?: string;
}

/** Why an interval's fields are wrong, as (field, issue) pairs; empty when it is valid. */
export function intervalIssues(s: { every: string; offset?: string | undefined }): {
  field: 'every' | 'offset';
  issue: string;
}[] {
  const every = parseDuration(s.every);
  if (every === null) return [{ field: 'every', issue: 'expected a duration such as "90m" or "1h30m"' }];
  if (every < MIN_INTERVAL_MS) return [{ field: 'every', issue: 'must be at least 1s' }];
  if (every > MAX_INTERVAL_MS) return [{ field: 'every', issue: 'must be at most 366d' }];
  if (s.offset === undefined) return [];
  const offset = parseDuration(s.offset);
  if (offset === null) return [{ field: 'offset', issue: 'expected a duration such as "15m"' }];
  if (offset >= every) return [{ field: 'offset', issue: 'must be shorter than every' }];
  return [];
}

function firstAndPeriod(s: IntervalSchedule): { first: number; every: number } {
  const every = parseDuration(s.every);
  const offset = s.offset === undefined ? 0 : parseDuration(s.offset);
  // Stored schedules were validated on the way in; a bad one here is a bug, not bad input.
  if (every === null || every <= 0 || offset === null) throw new Error(`invalid interval "${s.every}"`);
  return { first: (s.startAt?.getTime() ?? 0) + offset, every };
}

/** The first fire time of an interval schedule strictly after the instant `after` (ms). */
export function nextIntervalFireMs(s: IntervalSchedule, after: number): number {
  const { first, every } = firstAndPeriod(s);
  if (after < first) return first;
  return first + (Math.floor((after - first) / every) + 1) * every;
}

/** The last fire time of an interval schedule strictly before `before` (ms), or null. */
export function lastIntervalFireBeforeMs(s: IntervalSchedule, before: number): number | null {
  const { first, every } = firstAndPeriod(s);
  if (before <= first) return null;
  return first + Math.floor((before - 1 - first) / every) * every;
}
