import { CronExpressionParser } from 'cron-parser';
import { invalidArgument } from './errors.ts';
import type { Schedule } from './model.ts';

// Next-fire computation. Pure: every function takes the instant to compute from.

export function isKnownTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * Checks a cron schedule and throws invalid_argument naming the field: a malformed expression,
 * an expression that can never fire (`0 0 30 2 *`), or an unknown IANA zone.
 */
export function validateCron(expression: string, timezone: string, fieldPrefix = 'schedule'): void {
  if (!isKnownTimeZone(timezone)) {
    throw invalidArgument(`${fieldPrefix}.timezone`, `unknown IANA time zone "${timezone}"`);
  }
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== 5 && fields.length !== 6) {
    throw invalidArgument(`${fieldPrefix}.expression`, 'expected five fields, or six with seconds first');
  }
  let next: Date | null;
  try {
    next = nextCronFire(expression, timezone, new Date(0));
  } catch (err) {
    throw invalidArgument(`${fieldPrefix}.expression`, (err as Error).message);
  }
  if (next === null) throw invalidArgument(`${fieldPrefix}.expression`, 'the expression never fires');
}

export function nextCronFire(expression: string, timezone: string, after: Date): Date | null {
  const interval = CronExpressionParser.parse(expression, {
    currentDate: after,
    tz: timezone,
    strict: false,
  });
  try {
    return interval.next().toDate();
  } catch (err) {
    if (/out of the time span|loop limit/i.test((err as Error).message)) return null;
    throw err;
  }
}

/**
 * The first fire time strictly after `after`, or null when the schedule has no more.
 * A `once` schedule fires at its time, even when that is already past (it runs as soon as it can).
 */
export function nextFireAfter(schedule: Schedule, after: Date): Date | null {
  if (schedule.type === 'once') return schedule.at.getTime() > after.getTime() ? schedule.at : null;
  return nextCronFire(schedule.expression, schedule.timezone, after);
}

/** The fire time a new (or resumed) task starts from. */
export function firstFireAt(schedule: Schedule, now: Date): Date | null {
  if (schedule.type === 'once') return schedule.at;
  return nextCronFire(schedule.expression, schedule.timezone, new Date(now.getTime() - 1));
}
