import { UsageError } from './exit-codes.ts';
import { parseCount, parsePairs, parseTags, parseTime, readDocument, readJsonArgument } from './input.ts';
import type { Io } from './runtime.ts';

// The body of `task create` and `task update`, from -f task.yaml|json and flags (flags win,
// field by field inside schedule, target and retry). Nothing is checked here that the API
// checks itself: its answer names the field, and the CLI prints that.

export interface TaskFlags {
  file?: string;
  name?: string;
  key?: string;
  cron?: string;
  when?: string;
  at?: string;
  in?: string;
  timezone?: string;
  dstRepeated?: string;
  dstSkipped?: string;
  holidays?: string;
  weekends?: boolean;
  excludeDates?: string;
  onExcluded?: string;
  url?: string;
  method?: string;
  header?: string[];
  body?: string;
  timeoutMs?: string;
  priority?: string;
  lane?: string;
  maxAttempts?: string;
  misfire?: string;
  overlap?: string;
  metadata?: string;
  /** key:value, repeated: the task's tags (replacing them on update). */
  tag?: string[];
}

type Doc = Record<string, unknown>;

function merge(base: unknown, over: Doc): Doc | undefined {
  if (Object.keys(over).length === 0) return base as Doc | undefined;
  return { ...((base as Doc | undefined) ?? {}), ...over };
}

/** The fields the flags give, merged over `base` (the file, or the task being edited). */
export async function taskBody(flags: TaskFlags, io: Io, now: number, current?: Doc): Promise<Doc> {
  const file = flags.file ? await readDocument(flags.file, io, '--file') : {};
  const doc: Doc = { ...file };
  const base = (field: string) => {
    if (field !== 'schedule' || doc.schedule !== undefined) return doc[field] ?? current?.[field];
    // A task's schedule as the API shows it, less what it shows beside the schedule.
    const shown = current?.schedule as Doc | undefined;
    if (!shown) return undefined;
    const { description: _d, text: _t, ...schedule } = shown;
    return schedule;
  };

  if (flags.name !== undefined) doc.name = flags.name;
  if (flags.key !== undefined) doc.key = flags.key;

  const whenFlags = [flags.cron, flags.when, flags.at, flags.in].filter((v) => v !== undefined).length;
  if (whenFlags > 1) throw new UsageError('give one of --cron, --when, --at or --in', '--cron');
  const schedule: Doc = {};
  if (flags.cron !== undefined) Object.assign(schedule, { type: 'cron', expression: flags.cron });
  if (flags.when !== undefined) {
    // Words: the API reads them (and names the word it does not understand).
    doc.schedule = {
      type: 'text',
      text: flags.when,
      ...(flags.timezone ? { timezone: flags.timezone } : {}),
    };
  }
  if (flags.at !== undefined)
    Object.assign(schedule, { type: 'once', at: parseTime(flags.at, '--at', now, 'future') });
  if (flags.in !== undefined)
    Object.assign(schedule, { type: 'once', at: parseTime(flags.in, '--in', now, 'future') });
  if (flags.timezone !== undefined) schedule.timezone = flags.timezone;
  if (flags.dstRepeated !== undefined || flags.dstSkipped !== undefined) {
    const dst = { ...(((base('schedule') as Doc | undefined)?.dst as Doc | undefined) ?? {}) };
    if (flags.dstRepeated !== undefined) dst.repeated = flags.dstRepeated;
    if (flags.dstSkipped !== undefined) dst.skipped = flags.dstSkipped;
    schedule.dst = dst;
  }
  if (flags.when !== undefined) {
    if (flags.dstRepeated !== undefined || flags.dstSkipped !== undefined) {
      throw new UsageError('words take the default DST policy; use --cron to set one', '--dst-repeated');
    }
  } else if (schedule.type === 'once') {
    const merged = { type: 'once', at: schedule.at };
    doc.schedule = merged;
  } else if (Object.keys(schedule).length > 0) {
    const prior = base('schedule') as Doc | undefined;
    doc.schedule =
      prior?.type === 'cron' || schedule.type === 'cron'
        ? merge(prior?.type === 'cron' ? prior : {}, schedule)
        : schedule;
  }

  const calendar = calendarFlags(flags);
  if (calendar) {
    const prior = (doc.schedule ?? base('schedule')) as Doc | undefined;
    if (!prior)
      throw new UsageError('a calendar goes with a schedule: give --cron or --when', '--on-excluded');
    doc.schedule = { ...prior, calendar: { ...((prior.calendar as Doc | undefined) ?? {}), ...calendar } };
  }

  const target: Doc = {};
  if (flags.url !== undefined) target.url = flags.url;
  if (flags.method !== undefined) target.method = flags.method.toUpperCase();
  if (flags.header !== undefined) target.headers = parsePairs(flags.header, '--header');
  if (flags.body !== undefined) {
    target.body =
      flags.body.startsWith('@') || /^[[{"]/.test(flags.body)
        ? await readJsonArgument(flags.body, io, '--body')
        : flags.body;
  }
  if (flags.timeoutMs !== undefined) target.timeoutMs = parseCount(flags.timeoutMs, '--timeout-ms');
  if (Object.keys(target).length > 0) doc.target = merge(base('target'), target);

  if (flags.maxAttempts !== undefined) {
    doc.retry = merge(base('retry'), { maxAttempts: parseCount(flags.maxAttempts, '--max-attempts') });
  }
  if (flags.priority !== undefined) doc.priority = flags.priority;
  if (flags.lane !== undefined) doc.lane = flags.lane;
  if (flags.misfire !== undefined) doc.misfirePolicy = flags.misfire;
  if (flags.overlap !== undefined) doc.overlapPolicy = flags.overlap;
  if (flags.metadata !== undefined) doc.metadata = await readJsonArgument(flags.metadata, io, '--metadata');
  if (flags.tag !== undefined) doc.tags = parseTags(flags.tag, '--tag');
  return doc;
}

/** The calendar the flags give (--holidays, --weekends, --exclude-dates, --on-excluded), if any. */
function calendarFlags(flags: TaskFlags): Doc | undefined {
  const c: Doc = {};
  if (flags.holidays !== undefined) c.holidays = flags.holidays;
  if (flags.weekends) c.weekends = true;
  if (flags.excludeDates !== undefined) c.dates = flags.excludeDates.split(',').map((d) => d.trim());
  if (flags.onExcluded !== undefined) c.onExcluded = flags.onExcluded;
  if (Object.keys(c).length === 0) return undefined;
  return { onExcluded: 'skip', ...c };
}

/** Whether an update's flags touch a field that must be merged with the task as it is. */
export function needsCurrent(flags: TaskFlags): boolean {
  return [
    flags.timezone,
    flags.holidays,
    flags.weekends,
    flags.excludeDates,
    flags.onExcluded,
    flags.dstRepeated,
    flags.dstSkipped,
    flags.url,
    flags.method,
    flags.header,
    flags.body,
    flags.timeoutMs,
    flags.maxAttempts,
  ].some((v) => v !== undefined);
}
