import { DEFAULT_DST_POLICY, validateCron } from '../calendar/schedule.ts';
import { isKnownTimeZone } from '../calendar/time-zone.ts';
import { invalidArgument } from '../errors.ts';
import type { Schedule } from '../model.ts';
import { parseOnce } from './schedule-text-once.ts';
import { isRecurring, parseRecurring } from './schedule-text-recurring.ts';
import { refuse, TextError, type Token, tokenize } from './schedule-text-words.ts';

// Schedules in words (docs/api.md, docs/scheduling.md#schedules-in-words): a phrase becomes the
// schedule it says, exactly, or a 400 naming the word that was not understood. Recurrences go
// through dsched's own grammar (schedule-text-recurring.ts) to a cron expression or an interval;
// one-off times ("in 3 hours", "tomorrow at 5pm") through schedule-text-once.ts. The schedule keeps
// its `text`, so a task shows what it was given beside what it runs.

/** The longest phrase read. */
export const MAX_SCHEDULE_TEXT = 200;

const ZONE_WORD = /^\(?([A-Za-z_]+(?:\/[A-Za-z0-9_+-]+){1,2}|utc|gmt)\)?$/i;

/** The canonical name of a zone ("europe/berlin" → "Europe/Berlin"), or null when unknown. */
export function canonicalZone(name: string): string | null {
  if (!isKnownTimeZone(name)) return null;
  const resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  return resolved === 'Etc/UTC' || resolved === 'Etc/GMT' ? 'UTC' : resolved;
}

/** Takes a zone off the end of the words ("... in Europe/Berlin", "... (UTC)", "... Asia/Tokyo time"). */
function takeZone(tokens: Token[]): { tokens: Token[]; zone: string | null; token: Token | null } {
  let end = tokens.length;
  if (tokens[end - 1]?.word === 'time' && end >= 2 && ZONE_WORD.test(tokens[end - 2]!.raw)) end -= 1;
  const last = tokens[end - 1];
  if (!last || !ZONE_WORD.test(last.raw) || (end === 1 && !last.raw.includes('/'))) {
    return { tokens, zone: null, token: null };
  }
  const name = ZONE_WORD.exec(last.raw)![1]!;
  const zone = canonicalZone(name);
  if (!zone) refuse(last, `"${name}" is not a known IANA time zone`);
  let start = end - 1;
  if (tokens[start - 1]?.word === 'in' || tokens[start - 1]?.word === ',') start -= 1;
  return { tokens: tokens.slice(0, start), zone, token: last };
}

function message(err: TextError, tokens: Token[]): string {
  if (!err.token) return `the phrase ends too soon: ${err.message}`;
  const { raw, position } = err.token;
  return `"${raw}" (word ${position} of ${tokens.length}): ${err.message}`;
}

export interface ScheduleTextOptions {
  /** The zone of a phrase that names none; UTC when absent. */
  timezone?: string | undefined;
  /** The instant "in 3 hours" and "tomorrow" count from (the database clock). */
  now: Date;
  /** The field a refusal names: `text` for the parse route, `schedule.text` for a task. */
  field?: string;
}

/**
 * The schedule a phrase says, or invalid_argument naming the field and the word not understood.
 * Pure: `now` is a parameter.
 */
export function parseScheduleText(text: string, options: ScheduleTextOptions): Schedule {
  const field = options.field ?? 'text';
  const trimmed = text.trim();
  if (trimmed.length === 0) throw invalidArgument(field, 'is empty: say when, e.g. "every weekday at 9am"');
  if (trimmed.length > MAX_SCHEDULE_TEXT) {
    throw invalidArgument(field, `at most ${MAX_SCHEDULE_TEXT} characters`);
  }
  const given = options.timezone === undefined ? null : canonicalZone(options.timezone);
  if (options.timezone !== undefined && !given) {
    const prefix = field.includes('.') ? field.slice(0, field.lastIndexOf('.') + 1) : '';
    throw invalidArgument(`${prefix}timezone`, `unknown IANA time zone "${options.timezone}"`);
  }
  const all = tokenize(trimmed);
  try {
    const { tokens, zone: named, token } = takeZone(all);
    if (tokens.length === 0) refuse(token, 'a zone alone is no schedule: say when');
    if (named && given && named !== given) {
      refuse(token, `names ${named} but the timezone given is ${given}: drop one`);
    }
    const zone = named ?? given ?? 'UTC';
    if (isRecurring(tokens)) {
      const r = parseRecurring(tokens);
      if (r.type === 'interval') return { type: 'interval', every: r.every, text: trimmed };
      try {
        validateCron(r.expression, zone);
      } catch {
        refuse(all[all.length - 1], `never happens (cron "${r.expression}" has no fire time)`);
      }
      return {
        type: 'cron',
        expression: r.expression,
        timezone: zone,
        dst: { ...DEFAULT_DST_POLICY },
        text: trimmed,
      };
    }
    // The phrase without its zone, as written, for chrono.
    const cut = token
      ? trimmed.slice(0, trimmed.toLowerCase().lastIndexOf(token.raw.toLowerCase()))
      : trimmed;
    const phrase = cut.replace(/[\s,]*(\bin\b)?[\s,]*$/i, '').trim();
    const at = parseOnce(phrase, tokens, zone, options.now);
    return { type: 'once', at, ...(zone !== 'UTC' ? { timezone: zone } : {}), text: trimmed };
  } catch (err) {
    if (err instanceof TextError) throw invalidArgument(field, message(err, all));
    throw err;
  }
}
