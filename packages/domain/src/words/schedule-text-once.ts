import { createRequire } from 'node:module';
import type * as Chrono from 'chrono-node';
import { zoneOffsets } from '../calendar/time-zone.ts';
import {
  countOf,
  DAY_NAMES,
  MONTHS,
  ordinalOf,
  refuse,
  type Token,
  UNIT_MS,
  unitOf,
  wallTimeOf,
  weekdayOf,
} from './schedule-text-words.ts';

// chrono-node costs a process about 130 ms of CPU to load, and only one-off times in words use it.
let chronoModule: typeof Chrono | undefined;
function chrono(): typeof Chrono {
  chronoModule ??= createRequire(import.meta.url)('chrono-node') as typeof Chrono;
  return chronoModule;
}

// One-off times in words: "in 3 hours", "tomorrow at 5pm", "at 2026-12-24 18:00", "on friday at
// 9:00", "december 24 at 18:00". "in ..." is elapsed time, read here. The rest is read by
// chrono-node, but only after every word has been checked against a short vocabulary, and only
// when chrono reads the whole phrase and the time of day is stated: chrono is generous ("tomorrow
// at 25:00" reads as "tomorrow"; "tomorrow morning" as 06:00) and dsched never guesses.
//
// chrono is given the wall clock of `now` in the schedule's zone as if it were UTC, so "tomorrow"
// is tomorrow in that zone; the wall time it returns is then mapped to an instant through the
// zone, refusing a time that does not exist (spring forward) or exists twice (fall back).

const ONE_OFF_WORDS = new Set(['at', 'on', 'the', ',', 'of', 'today', 'tomorrow']);
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}t\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(z|[+-]\d{2}:\d{2})?$/;

function checkWord(t: Token): void {
  const w = t.word;
  if (ONE_OFF_WORDS.has(w) || ISO_DATE.test(w) || ISO_DATE_TIME.test(w) || wallTimeOf(w)) return;
  if (MONTHS[w] !== undefined || ordinalOf(w, false) !== null || /^\d{4}$/.test(w)) return;
  const day = weekdayOf(w);
  if (day && !day.plural) return;
  if (/^\d{1,2}$/.test(w)) return; // a day of the month ("december 24"); a bare hour is refused below
  if (['next', 'this', 'last', 'coming'].includes(w)) {
    refuse(t, `"${t.raw}" is ambiguous: name the day ("on monday", the coming one) or the date`);
  }
  if (['morning', 'afternoon', 'evening', 'tonight', 'night', 'noonish'].includes(w)) {
    refuse(t, `"${t.raw}" is not a time: write one (09:00, 5pm)`);
  }
  refuse(t, 'is not understood here: expected a date, a day, a time, "today", "tomorrow" or "in 3 hours"');
}

/** "in 3 hours", "in 90 minutes", "in 1 hour and 30 minutes", "in a day": now plus elapsed time. */
function parseIn(tokens: Token[], now: Date): Date {
  let ms = 0;
  let i = 1;
  while (i < tokens.length) {
    const countToken = tokens[i]!;
    const n = countOf(countToken.word);
    if (n === null) refuse(countToken, 'expected a number ("in 3 hours")');
    const unitToken = tokens[i + 1];
    const unit = unitToken && unitOf(unitToken.word);
    if (!unit) {
      if (unitToken && /^(month|year)s?$/.test(unitToken.word)) {
        refuse(unitToken, 'months and years have no fixed length: write the date');
      }
      refuse(unitToken, 'expected a unit: seconds, minutes, hours, days or weeks');
    }
    ms += n * UNIT_MS[unit]!;
    i += 2;
    if (i < tokens.length) {
      const sep = tokens[i]!;
      if (sep.word !== 'and' && sep.word !== ',') refuse(sep, 'expected "and" or the end');
      i += 1;
      if (i === tokens.length) refuse(null, 'ends after "and": expected a number and a unit');
    }
  }
  if (ms === 0) refuse(tokens[1], 'is no time from now: give a duration');
  return new Date(now.getTime() + ms);
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/**
 * The instant a one-off phrase names, in `zone`, strictly after `now`. `text` is the phrase as
 * written (its zone taken off), `tokens` its words.
 */
export function parseOnce(text: string, tokens: Token[], zone: string, now: Date): Date {
  if (tokens[0]?.word === 'in') {
    if (tokens.length === 1) refuse(null, 'expected a duration after "in" ("in 3 hours")');
    return parseIn(tokens, now);
  }
  for (const t of tokens) checkWord(t);
  const offsets = zoneOffsets(zone);
  const floatingNow = new Date(now.getTime() + offsets.offsetAt(now.getTime()));
  const results = chrono().casual.parse(text, { instant: floatingNow, timezone: 0 }, { forwardDate: true });
  const [r] = results;
  const lead = r ? text.slice(0, r.index).trim().toLowerCase() : '';
  const covers = r && ['', 'at', 'on'].includes(lead) && r.index + r.text.length === text.trim().length;
  if (!r || results.length !== 1 || !covers) {
    // Name the first word chrono left out, when there is one.
    const read = r ? `${text.slice(0, r.index)} ${text.slice(r.index + r.text.length)}` : text;
    const unread = read
      .toLowerCase()
      .split(/\s+/)
      .find((w) => w && !['at', 'on'].includes(w));
    const token = tokens.find((t) => t.word === unread) ?? tokens[0];
    refuse(
      token,
      'is not understood here: expected a date and a time ("2026-12-24 18:00", "tomorrow at 5pm")',
    );
  }
  const start = r.start;
  if (!start.isCertain('hour')) {
    const bare = tokens.find((t) => /^\d{1,2}$/.test(t.word) && !MONTHS[tokens[t.position - 2]?.word ?? '']);
    refuse(bare ?? tokens[tokens.length - 1], 'does not say at what time: add one ("at 09:00", "at 5pm")');
  }
  const dayStated =
    start.isCertain('day') ||
    start.isCertain('weekday') ||
    tokens.some((t) => ['today', 'tomorrow'].includes(t.word));
  if (!dayStated) {
    refuse(tokens[0], 'does not say which day: "today at 5pm", "tomorrow at 5pm", "every day at 5pm"');
  }
  const bareHour = tokens.find((t, i) => /^\d{1,2}$/.test(t.word) && tokens[i - 1]?.word === 'at');
  if (bareHour) {
    refuse(
      bareHour,
      `"${bareHour.raw}" could be morning or evening: write ${bareHour.word}:00 or ${bareHour.word}am / ${bareHour.word}pm`,
    );
  }
  let at: number;
  if (start.isCertain('timezoneOffset')) {
    // A stated offset ("2026-12-24T18:00:00Z", "+01:00") is exact; an abbreviation is not.
    if (!tokens.some((t) => ISO_DATE_TIME.test(t.word))) {
      refuse(tokens[tokens.length - 1], 'name the zone with timezone (an IANA name), not an abbreviation');
    }
    at = start.date().getTime();
  } else {
    const [y, mo, d, h, mi, s] = (['year', 'month', 'day', 'hour', 'minute', 'second'] as const).map(
      (c) => start.get(c) ?? 0,
    ) as [number, number, number, number, number, number];
    const local = Date.UTC(y, mo - 1, d, h, mi, s);
    const wall = `${pad(y, 4)}-${pad(mo)}-${pad(d)} ${pad(h)}:${pad(mi)}`;
    if (start.isCertain('weekday')) {
      const weekday = new Date(local).getUTCDay();
      if (start.get('weekday') !== weekday) {
        const named = tokens.find((t) => weekdayOf(t.word)) ?? tokens[0];
        refuse(named, `${wall.slice(0, 10)} is a ${DAY_NAMES[weekday]}`);
      }
    }
    const instants = offsets.instantsOf(local);
    if (instants.length === 0) {
      refuse(tokens[tokens.length - 1], `${wall} does not exist in ${zone} (clocks go forward)`);
    }
    if (instants.length > 1) {
      refuse(
        tokens[tokens.length - 1],
        `${wall} happens twice in ${zone} (clocks go back): write the instant with its offset (RFC 3339)`,
      );
    }
    at = instants[0]!;
  }
  if (at <= now.getTime()) {
    refuse(tokens[tokens.length - 1], `${new Date(at).toISOString()} is in the past`);
  }
  return new Date(at);
}
