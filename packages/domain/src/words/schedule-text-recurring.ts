import { intervalIssues } from '../calendar/interval.ts';
import {
  countOf,
  MONTHS,
  ordinalOf,
  refuse,
  type Token,
  UNIT_MS,
  unitOf,
  type WallTime,
  wallTimeOf,
  weekdayOf,
} from './schedule-text-words.ts';

// The grammar of recurring schedules in words (docs/scheduling.md#schedules-in-words). A phrase
// is a run of clauses in any order, each at most once:
//
//   every ...        every 15 minutes | every 2 hours and 30 minutes | every hour | every half hour
//                    every day | every weekday | every weekend | every monday and friday
//                    every monday to friday | every month | every year | every december 24
//   hourly | daily | weekly | monthly | yearly | annually
//   at ...           at 9:00 | at 9am, 1pm and 5pm | at noon | at :15 (minutes past the hour)
//   on ...           on weekdays | on mondays | on the 1st and 15th | on the last day
//                    on the first monday | on the last friday | on december 24 | on 24 december
//   of ...           of every month | of each month | of the month | of january and july
//   in ...           in january, april, july and october
//   weekdays | weekends | mondays ...   (a plural day name alone is a day clause)
//
// and it becomes a cron expression when cron says it exactly, an interval otherwise. What cron
// cannot say exactly ("every 3 days at 9:00": its day step restarts every month) and what the
// words leave open ("at 9": 09:00 or 21:00?) is refused, naming the word: never guessed.

export type RecurringResult = { type: 'cron'; expression: string } | { type: 'interval'; every: string };

const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

type MonthDays =
  | { kind: 'days'; days: number[]; token: Token }
  | { kind: 'last'; token: Token }
  | { kind: 'nth'; n: number; weekday: number; token: Token }
  | { kind: 'lastWeekday'; weekday: number; token: Token };

interface Clauses {
  step?: { parts: { n: number; unit: string }[]; token: Token };
  days?: { days: number[]; token: Token };
  period?: { kind: 'day' | 'week' | 'month' | 'year'; token: Token };
  times?: { times: WallTime[]; token: Token };
  minuteOfHour?: { minute: number; token: Token };
  monthDays?: MonthDays;
  months?: { months: number[]; token: Token };
  yearDate?: { month: number; day: number; token: Token };
}

class Cursor {
  i = 0;
  readonly tokens: Token[];
  constructor(tokens: Token[]) {
    this.tokens = tokens;
  }
  peek(offset = 0): Token | undefined {
    return this.tokens[this.i + offset];
  }
  word(offset = 0): string | undefined {
    return this.tokens[this.i + offset]?.word;
  }
  next(): Token | undefined {
    return this.tokens[this.i++];
  }
  /** Consumes the word if it is one of `words`. */
  accept(...words: string[]): Token | null {
    const t = this.peek();
    if (t && words.includes(t.word)) {
      this.i += 1;
      return t;
    }
    return null;
  }
  expect(words: string[], issue: string): Token {
    return this.accept(...words) ?? refuse(this.peek(), issue);
  }
  get done(): boolean {
    return this.i >= this.tokens.length;
  }
  /**
   * Steps over a list separator (",", "and" or ", and") when the word after it is another item of
   * the list; false when the list ends here.
   */
  nextItem(isItem: (word: string) => boolean): boolean {
    const sep =
      this.word() === ',' && this.word(1) === 'and'
        ? 2
        : this.word() === ',' || this.word() === 'and'
          ? 1
          : 0;
    if (sep === 0 || !isItem(this.word(sep) ?? '')) return false;
    this.i += sep;
    return true;
  }
}

/** Whether a phrase speaks of a recurrence (otherwise it names one time: schedule-text-once.ts). */
export function isRecurring(tokens: Token[]): boolean {
  return (
    tokens.some(
      (t) =>
        [
          'every',
          'each',
          'hourly',
          'daily',
          'weekly',
          'monthly',
          'yearly',
          'annually',
          'weekdays',
          'weekends',
        ].includes(t.word) ||
        t.word === 'month' ||
        weekdayOf(t.word)?.plural === true,
    ) || tokens.filter((t) => MONTHS[t.word] !== undefined).length > 1
  );
}

function set<K extends keyof Clauses>(
  c: Clauses,
  key: K,
  value: NonNullable<Clauses[K]>,
  token: Token,
): void {
  if (c[key] !== undefined) refuse(token, 'says a second time what an earlier word already said');
  c[key] = value;
}

/** Day names joined by commas, "and", or ranges ("monday to friday"): at least one. */
function parseDayList(cur: Cursor): number[] {
  const days = new Set<number>();
  for (;;) {
    const t = cur.next();
    const d = t && weekdayOf(t.word);
    if (!d) refuse(t, 'expected a day name (monday ... sunday)');
    if (cur.accept('to', 'through', 'thru', '-')) {
      const endToken = cur.next();
      const end = endToken && weekdayOf(endToken.word);
      if (!end) refuse(endToken, 'expected the day name that ends the range');
      for (let x = d.day; ; x = (x + 1) % 7) {
        days.add(x);
        if (x === end.day) break;
      }
    } else days.add(d.day);
    if (!cur.nextItem((w) => weekdayOf(w) !== null)) return [...days].sort((a, b) => a - b);
  }
}

/** "day", "weekday", "weekend" (day), a day list: the days of the week, or null when none of these. */
function parseDayWords(cur: Cursor): number[] | null {
  const t = cur.peek();
  if (!t) return null;
  if (['weekday', 'weekdays'].includes(t.word)) {
    cur.next();
    return [1, 2, 3, 4, 5];
  }
  if (['weekend', 'weekends'].includes(t.word)) {
    cur.next();
    cur.accept('day', 'days');
    return [0, 6];
  }
  if (['business', 'working', 'work'].includes(t.word)) {
    refuse(t, 'business days depend on holidays: say "every weekday" and add a calendar with holidays');
  }
  if (weekdayOf(t.word)) return parseDayList(cur);
  return null;
}

/** Month names joined by commas or "and". */
function parseMonthList(cur: Cursor): number[] {
  const months = new Set<number>();
  for (;;) {
    const t = cur.next();
    const m = t ? MONTHS[t.word] : undefined;
    if (m === undefined) refuse(t, 'expected a month name (january ... december)');
    months.add(m);
    if (!cur.nextItem((w) => MONTHS[w] !== undefined)) return [...months].sort((a, b) => a - b);
  }
}

/** After "the" (or "every"): "1st and 15th", "last day", "first monday", "last friday". */
function parseMonthDays(cur: Cursor): MonthDays {
  const first = cur.peek();
  if (!first) refuse(null, 'expected a day of the month (1st, 15th, last day, first monday)');
  if (first.word === 'last') {
    cur.next();
    const t = cur.next();
    if (t?.word === 'day') return { kind: 'last', token: first };
    const d = t && weekdayOf(t.word);
    if (d && !d.plural) return { kind: 'lastWeekday', weekday: d.day, token: first };
    if (t?.word === 'weekday') {
      refuse(t, '"the last weekday of the month" is not supported: name the day ("the last friday")');
    }
    refuse(t, 'expected "day" or a day name after "last"');
  }
  const n = ordinalOf(first.word);
  if (n === null) refuse(first, 'expected a day of the month (1st, 15th, last day, first monday)');
  const afterOrdinal = cur.peek(1);
  const weekday = afterOrdinal && weekdayOf(afterOrdinal.word);
  if (weekday && !weekday.plural) {
    cur.i += 2;
    if (n > 5) refuse(first, 'a month has at most five of each day');
    return { kind: 'nth', n, weekday: weekday.day, token: first };
  }
  if (afterOrdinal?.word === 'weekday') {
    refuse(
      afterOrdinal,
      '"the first weekday of the month" is not supported: name the day ("the first monday")',
    );
  }
  const days = new Set<number>();
  for (;;) {
    const t = cur.next();
    const d = t && ordinalOf(t.word, false);
    if (!d || d < 1 || d > 31) refuse(t, 'expected a day of the month, 1st to 31st');
    days.add(d);
    if (!cur.nextItem((w) => ordinalOf(w, false) !== null)) break;
  }
  cur.accept('day', 'days');
  return { kind: 'days', days: [...days].sort((a, b) => a - b), token: first };
}

/** "of every month", "of each month", "of the month", "of january and july", "of every january". */
function parseOf(cur: Cursor, c: Clauses): void {
  const of = cur.expect(['of'], 'expected "of"');
  if (cur.accept('every', 'each', 'the')) {
    if (cur.accept('month')) return;
    if (MONTHS[cur.word() ?? ''] !== undefined) {
      set(c, 'months', { months: parseMonthList(cur), token: of }, of);
      return;
    }
    refuse(cur.peek(), 'expected "month" or a month name');
  }
  set(c, 'months', { months: parseMonthList(cur), token: of }, of);
}

/** "24", "24th" as a day of a month; null when the word is neither. */
function dayNumberOf(word: string | undefined): number | null {
  if (word === undefined) return null;
  const d = /^\d{1,2}$/.test(word) ? Number(word) : ordinalOf(word, false);
  return d !== null && d >= 1 && d <= 31 ? d : null;
}

/** "december 24", "december 24th", "24 december", "the 24th of december". */
function parseYearDate(cur: Cursor, c: Clauses, token: Token): void {
  let month = MONTHS[cur.word() ?? ''];
  let day: number | null;
  if (month !== undefined) {
    cur.next();
    cur.accept('the');
    day = dayNumberOf(cur.word());
    if (day === null) refuse(cur.peek(), 'expected the day of the month after the month name');
    cur.next();
  } else {
    day = dayNumberOf(cur.word());
    if (day === null) refuse(cur.peek(), 'expected a date such as "december 24"');
    cur.next();
    cur.accept('of');
    month = MONTHS[cur.word() ?? ''];
    if (month === undefined) refuse(cur.peek(), 'expected a month name after the day');
    cur.next();
  }
  const longest = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
  if (day > longest) refuse(token, `${MONTH_NAMES[month - 1]} has no day ${day}`);
  set(c, 'yearDate', { month, day, token }, token);
}

function parseStep(cur: Cursor, c: Clauses, token: Token): void {
  const parts: { n: number; unit: string }[] = [];
  for (;;) {
    let n = 1;
    const countToken = cur.peek();
    const count = countToken ? countOf(countToken.word) : null;
    if (count !== null) {
      if (unitOf(cur.word(1) ?? '') === null)
        refuse(cur.peek(1), 'expected a unit: seconds, minutes or hours');
      n = count;
      cur.next();
    }
    const unitToken = cur.next();
    const unit = unitToken && unitOf(unitToken.word);
    if (!unit) refuse(unitToken, 'expected a unit: seconds, minutes or hours');
    if (n === 0) refuse(countToken, 'a step of zero never moves');
    if (unit === 'day' || unit === 'week') {
      refuse(
        countToken,
        `"every ${n} ${unit}s" cannot be said exactly: cron's day step starts again each month, and an interval drifts from the wall clock with daylight saving; use an interval schedule with startAt`,
      );
    }
    parts.push({ n, unit });
    if (cur.word() === 'and' && countOf(cur.word(1) ?? '') !== null && unitOf(cur.word(2) ?? '') !== null) {
      cur.next();
      continue;
    }
    break;
  }
  set(c, 'step', { parts, token }, token);
}

function parseEvery(cur: Cursor, c: Clauses): void {
  const every = cur.next()!;
  const t = cur.peek();
  if (!t) refuse(null, 'expected what repeats after "every" (15 minutes, day, monday, month...)');
  if (t.word === 'other') {
    refuse(t, '"every other" cannot be said exactly by cron; use an interval schedule with startAt');
  }
  if (t.word === 'half' && cur.word(1) === 'hour') {
    cur.i += 2;
    set(c, 'step', { parts: [{ n: 30, unit: 'minute' }], token: every }, every);
    return;
  }
  if (t.word === 'day' || (t.word === '1' && cur.word(1) === 'day')) {
    cur.i += t.word === '1' ? 2 : 1;
    set(c, 'period', { kind: 'day', token: every }, every);
    return;
  }
  if (t.word === 'week' || t.word === 'month' || t.word === 'year') {
    cur.next();
    set(c, 'period', { kind: t.word, token: every }, every);
    return;
  }
  const days = parseDayWords(cur);
  if (days) {
    set(c, 'days', { days, token: every }, every);
    return;
  }
  if (
    MONTHS[t.word] !== undefined ||
    (dayNumberOf(t.word) !== null && MONTHS[cur.word(1) ?? ''] !== undefined)
  ) {
    parseYearDate(cur, c, every);
    return;
  }
  const unitFirst = unitOf(t.word) !== null && !weekdayOf(cur.word(1) ?? '');
  if (!unitFirst && (t.word === 'last' || ordinalOf(t.word) !== null)) {
    if (ordinalOf(t.word) !== null && unitOf(cur.word(1) ?? '') !== null) {
      refuse(t, 'write the step as a number: "every 2 hours"');
    }
    set(c, 'monthDays', parseMonthDays(cur), every);
    if (cur.word() === 'of') parseOf(cur, c);
    return;
  }
  parseStep(cur, c, every);
}

function parseOn(cur: Cursor, c: Clauses): void {
  const on = cur.next()!;
  const t = cur.peek();
  if (!t) refuse(null, 'expected a day after "on"');
  if (t.word === 'the') {
    cur.next();
    // "the 24th of december" is a day of the month and a month: the same cron as a date.
    set(c, 'monthDays', parseMonthDays(cur), on);
    if (cur.word() === 'of') parseOf(cur, c);
    return;
  }
  const days = parseDayWords(cur);
  if (days) {
    set(c, 'days', { days, token: on }, on);
    return;
  }
  if (
    MONTHS[t.word] !== undefined ||
    (dayNumberOf(t.word) !== null && MONTHS[cur.word(1) ?? ''] !== undefined)
  ) {
    parseYearDate(cur, c, on);
    return;
  }
  if (/^\d{4}-\d{2}-\d{2}/.test(t.word)) {
    refuse(t, 'a date happens once: write it without "every" ("at 2026-12-24 18:00")');
  }
  refuse(t, 'expected a day after "on" (weekdays, mondays, the 1st, the last day, december 24)');
}

function parseTimes(cur: Cursor, c: Clauses): void {
  const at = cur.accept('at') ?? cur.peek()!;
  const first = cur.peek();
  if (first && /^:\d{2}$/.test(first.word)) {
    cur.next();
    const minute = Number(first.word.slice(1));
    if (minute > 59) refuse(first, 'minutes past the hour run from :00 to :59');
    set(c, 'minuteOfHour', { minute, token: first }, at);
    return;
  }
  if (
    first &&
    /^\d{1,2}$/.test(first.word) &&
    ['minutes', 'minute', 'min', 'mins'].includes(cur.word(1) ?? '')
  ) {
    const minute = Number(first.word);
    cur.i += 2;
    cur.expect(['past'], 'expected "past" ("15 minutes past the hour")');
    if (cur.accept('the')) cur.expect(['hour'], 'expected "hour" ("15 minutes past the hour")');
    if (minute > 59) refuse(first, 'minutes past the hour run from 0 to 59');
    set(c, 'minuteOfHour', { minute, token: first }, at);
    return;
  }
  const times: WallTime[] = [];
  for (;;) {
    const t = cur.next();
    const time = t && wallTimeOf(t.word);
    if (!time) {
      if (t && /^\d{1,2}$/.test(t.word)) {
        refuse(
          t,
          `"${t.raw}" could be morning or evening: write ${t.word}:00 (24-hour clock) or ${t.word}am / ${t.word}pm`,
        );
      }
      refuse(t, 'expected a time of day (09:00, 9am, 5:30pm, noon, midnight)');
    }
    times.push(time);
    if (!cur.nextItem((w) => wallTimeOf(w) !== null)) break;
  }
  set(c, 'times', { times, token: at }, at);
}

function parseClauses(tokens: Token[]): Clauses {
  const cur = new Cursor(tokens);
  const c: Clauses = {};
  while (!cur.done) {
    const t = cur.peek()!;
    const w = t.word;
    if (w === ',' || (w === 'and' && cur.i > 0)) {
      cur.next();
      continue;
    }
    if (w === 'every' || w === 'each') parseEvery(cur, c);
    else if (w === 'hourly') {
      cur.next();
      set(c, 'step', { parts: [{ n: 1, unit: 'hour' }], token: t }, t);
    } else if (w === 'daily') {
      cur.next();
      set(c, 'period', { kind: 'day', token: t }, t);
    } else if (w === 'weekly' || w === 'monthly' || w === 'yearly' || w === 'annually') {
      cur.next();
      const kind = w === 'weekly' ? 'week' : w === 'monthly' ? 'month' : 'year';
      set(c, 'period', { kind, token: t }, t);
    } else if (w === 'at' || wallTimeOf(w) || /^:\d{2}$/.test(w)) parseTimes(cur, c);
    else if (w === 'on') parseOn(cur, c);
    else if (w === 'of') parseOf(cur, c);
    else if (w === 'in' && MONTHS[cur.word(1) ?? ''] !== undefined) {
      cur.next();
      set(c, 'months', { months: parseMonthList(cur), token: t }, t);
    } else if (weekdayOf(w)?.plural || w === 'weekdays' || w === 'weekends') {
      set(c, 'days', { days: parseDayWords(cur)!, token: t }, t);
    } else if (/^\d{1,2}$/.test(w)) {
      refuse(t, `"${t.raw}" could be morning or evening: write ${w}:00 (24-hour clock) or ${w}am / ${w}pm`);
    } else {
      refuse(t, 'is not understood here: expected every, at, on, of, in, or a day name');
    }
  }
  return c;
}

function dowField(days: number[]): string {
  const key = days.join(',');
  if (key === '1,2,3,4,5') return '1-5';
  if (key === '0,1,2,3,4,5,6') return '*';
  return key;
}

/** The cron hour, minute and second fields of a list of times, or a refusal when cron cannot. */
function timeFields(times: WallTime[], token: Token): { second: string; minute: string; hour: string } {
  const hours = [...new Set(times.map((t) => t.hour))].sort((a, b) => a - b);
  const minutes = [...new Set(times.map((t) => t.minute))].sort((a, b) => a - b);
  const seconds = [...new Set(times.map((t) => t.second))].sort((a, b) => a - b);
  const pairs = new Set(times.map((t) => `${t.hour}:${t.minute}:${t.second}`));
  if (pairs.size !== hours.length * minutes.length * seconds.length) {
    refuse(
      token,
      'these times cannot be one cron expression (it fires at every hour and minute listed): use one task per time, or times with the same minutes',
    );
  }
  return { second: seconds.join(','), minute: minutes.join(','), hour: hours.join(',') };
}

function dayFields(c: Clauses): { dom: string; month: string; dow: string } {
  let dom = '*';
  let dow = '*';
  let month = c.months ? c.months.months.join(',') : '*';
  if (c.days) dow = dowField(c.days.days);
  const md = c.monthDays;
  if (md) {
    if (c.days)
      refuse(c.days.token, 'cron fires on a day of the month OR a day of the week, not both: say one');
    if (md.kind === 'days') dom = md.days.join(',');
    else if (md.kind === 'last') dom = 'L';
    else if (md.kind === 'nth') dow = `${md.weekday}#${md.n}`;
    else dow = `${md.weekday}L`;
  }
  if (c.yearDate) {
    if (c.days || md)
      refuse(c.yearDate.token, 'a date of the year is already a day: drop the other day words');
    if (c.months) refuse(c.months.token, 'the date already names its month');
    dom = String(c.yearDate.day);
    month = String(c.yearDate.month);
  }
  return { dom, month, dow };
}

function durationText(parts: { n: number; unit: string }[]): string {
  let ms = 0;
  for (const p of parts) ms += p.n * UNIT_MS[p.unit]!;
  // One unit as said ("90m"); several in the largest units ("2h30m").
  if (parts.length === 1) {
    const u = parts[0]!;
    return `${u.n}${{ second: 's', sec: 's', minute: 'm', min: 'm', hour: 'h', hr: 'h' }[u.unit] ?? 's'}`;
  }
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  return `${h ? `${h}h` : ''}${m ? `${m}m` : ''}${s ? `${s}s` : ''}`;
}

function fromStep(c: Clauses, step: NonNullable<Clauses['step']>): RecurringResult {
  if (c.times) refuse(c.times.token, 'a step repeats all day; "at" names a time of day. Drop one of them');
  if (c.period && c.period.kind !== 'day') refuse(c.period.token, 'a step already says how often');
  let ms = 0;
  for (const p of step.parts) ms += p.n * UNIT_MS[p.unit]!;
  const only = step.parts.length === 1 ? step.parts[0]! : null;
  const { dom, month, dow } = dayFields(c);
  const restricted = dom !== '*' || month !== '*' || dow !== '*';
  const minuteOfHour = c.minuteOfHour?.minute;
  let expression: string | null = null;
  if (ms % 3_600_000 === 0 && 24 % (ms / 3_600_000) === 0 && ms < 86_400_000) {
    const n = ms / 3_600_000;
    expression = `${minuteOfHour ?? 0} ${n === 1 ? '*' : `*/${n}`} ${dom} ${month} ${dow}`;
  } else if (c.minuteOfHour) {
    refuse(c.minuteOfHour.token, 'minutes past the hour go with "every hour" or "every N hours"');
  } else if (ms % 60_000 === 0 && ms < 3_600_000 && 60 % (ms / 60_000) === 0) {
    const n = ms / 60_000;
    expression = `${n === 1 ? '*' : `*/${n}`} * ${dom} ${month} ${dow}`;
  } else if (ms < 60_000 && 60 % (ms / 1000) === 0 && ms % 1000 === 0) {
    const n = ms / 1000;
    expression = `${n === 1 ? '*' : `*/${n}`} * * ${dom} ${month} ${dow}`;
  }
  if (expression !== null) return { type: 'cron', expression };
  if (restricted) {
    refuse(
      step.token,
      'this step does not divide the hour or the day, so cron cannot say it, and an interval has no days: drop the days, or add a calendar to an interval schedule',
    );
  }
  const every = durationText(step.parts);
  const [issue] = intervalIssues({ every });
  if (issue) refuse(only ? step.token : step.token, `the step ${issue.issue}`);
  return { type: 'interval', every };
}

/** Parses a recurring phrase (its zone already taken off) into a cron expression or an interval. */
export function parseRecurring(tokens: Token[]): RecurringResult {
  const c = parseClauses(tokens);
  if (c.step) return fromStep(c, c.step);
  if (c.minuteOfHour) refuse(c.minuteOfHour.token, 'minutes past the hour go with "every hour"');
  const period = c.period?.kind;
  const last = tokens[tokens.length - 1] ?? null;
  if (!c.times) {
    refuse(null, `does not say at what time: add one, e.g. "${tokens.map((t) => t.raw).join(' ')} at 09:00"`);
  }
  if (period === 'week' && !c.days)
    refuse(c.period!.token, 'say on which day: "every week on monday at 9:00"');
  if (period === 'month' && !c.monthDays) {
    refuse(c.period!.token, 'say on which day of the month: "every month on the 1st at 6:00"');
  }
  if (period === 'year' && !c.yearDate && !(c.monthDays && c.months)) {
    refuse(c.period!.token, 'say on which date: "every year on december 24 at 18:00"');
  }
  if (c.monthDays && !c.months && period !== 'month' && !tokens.some((t) => t.word === 'month')) {
    refuse(c.monthDays.token, 'say of which month: "of every month" or a month name');
  }
  if (period === 'day' && (c.days || c.monthDays || c.yearDate)) {
    refuse(c.period!.token, '"every day" and a day of the week or month contradict each other: drop one');
  }
  if (!period && !c.days && !c.monthDays && !c.yearDate && !c.months) {
    refuse(last, 'does not say how often: "every day", "every monday", "on the 1st of every month"...');
  }
  const { second, minute, hour } = timeFields(c.times.times, c.times.token);
  const { dom, month, dow } = dayFields(c);
  const fields = `${minute} ${hour} ${dom} ${month} ${dow}`;
  return { type: 'cron', expression: second === '0' ? fields : `${second} ${fields}` };
}
