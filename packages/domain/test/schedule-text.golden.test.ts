import { describe, expect, it } from 'vitest';
import { fireTimesBetween } from '../src/calendar/schedule.ts';
import { DschedError } from '../src/errors.ts';
import type { Schedule } from '../src/model.ts';
import { parseScheduleText } from '../src/words/schedule-text.ts';

// Golden phrases of schedules in words (docs/scheduling.md#schedules-in-words): each phrase and
// the schedule it must give, then the phrases that must be refused and the word each refusal
// must name. `now` is Saturday 2026-03-28 10:00 UTC unless a case says otherwise: the day before
// Europe's spring forward, so one-off times and next fires meet daylight saving.

const NOW = '2026-03-28T10:00:00Z';

/** A schedule in a compact form: "cron <expr> @<zone>", "interval <every>", "once <instant> [@zone]". */
function compact(s: Schedule): string {
  if (s.type === 'cron') return `cron ${s.expression} @${s.timezone}`;
  if (s.type === 'interval') return `interval ${s.every}`;
  return `once ${s.at.toISOString()}${s.timezone ? ` @${s.timezone}` : ''}`;
}

type Case = [text: string, expected: string, options?: { timezone?: string; now?: string; next?: string[] }];

const RECURRING: Case[] = [
  // The phrases docs/api.md and docs/scheduling.md name.
  ['every 15 minutes', 'cron */15 * * * * @UTC'],
  ['every 90 minutes', 'interval 90m'],
  ['every day at 9:00', 'cron 0 9 * * * @UTC'],
  ['every weekday at 9am', 'cron 0 9 * * 1-5 @UTC'],
  ['every monday at 08:30', 'cron 30 8 * * 1 @UTC'],
  ['on the 1st of every month at 06:00', 'cron 0 6 1 * * @UTC'],
  ['on the last day of every month at 23:00', 'cron 0 23 L * * @UTC'],
  // Steps.
  ['every minute', 'cron * * * * * @UTC'],
  ['every 1 minute', 'cron * * * * * @UTC'],
  ['every 5 minutes', 'cron */5 * * * * @UTC'],
  ['every 30 minutes', 'cron */30 * * * * @UTC'],
  ['every half hour', 'cron */30 * * * * @UTC'],
  ['every 60 minutes', 'cron 0 * * * * @UTC'],
  ['every 45 minutes', 'interval 45m'],
  ['every 7 minutes', 'interval 7m'],
  ['every hour', 'cron 0 * * * * @UTC'],
  ['hourly', 'cron 0 * * * * @UTC'],
  ['every 2 hours', 'cron 0 */2 * * * @UTC'],
  ['every 3 hrs', 'cron 0 */3 * * * @UTC'],
  ['every 12 hours', 'cron 0 */12 * * * @UTC'],
  ['every 5 hours', 'interval 5h'],
  ['every 24 hours', 'interval 24h'],
  ['every 36 hours', 'interval 36h'],
  ['every 2 hours and 30 minutes', 'interval 2h30m'],
  ['every 1 hour and 30 minutes', 'interval 1h30m'],
  ['every second', 'cron * * * * * * @UTC'],
  ['every 10 seconds', 'cron */10 * * * * * @UTC'],
  ['every 30 secs', 'cron */30 * * * * * @UTC'],
  ['every 7 seconds', 'interval 7s'],
  ['every 90 seconds', 'interval 90s'],
  ['every hour at :15', 'cron 15 * * * * @UTC'],
  ['every hour at 45 minutes past the hour', 'cron 45 * * * * @UTC'],
  ['every 2 hours at :30', 'cron 30 */2 * * * @UTC'],
  ['every 15 minutes on weekdays', 'cron */15 * * * 1-5 @UTC'],
  ['every hour on saturdays and sundays', 'cron 0 * * * 0,6 @UTC'],
  ['every 10 minutes in january', 'cron */10 * * 1 * @UTC'],
  // Days of the week.
  ['daily at noon', 'cron 0 12 * * * @UTC'],
  ['daily at midnight', 'cron 0 0 * * * @UTC'],
  ['every day at 9:00 and 17:00', 'cron 0 9,17 * * * @UTC'],
  ['every day at 9:00, 13:00 and 17:00', 'cron 0 9,13,17 * * * @UTC'],
  ['every day at 9:00 and 9:30', 'cron 0,30 9 * * * @UTC'],
  ['every day at 12am', 'cron 0 0 * * * @UTC'],
  ['every day at 12pm', 'cron 0 12 * * * @UTC'],
  ['every day at 11:59pm', 'cron 59 23 * * * @UTC'],
  ['every day at 9 am', 'cron 0 9 * * * @UTC'],
  ['every day at 06:00:30', 'cron 30 0 6 * * * @UTC'],
  ['at 9:00 every day', 'cron 0 9 * * * @UTC'],
  ['at 07:45 on weekdays', 'cron 45 7 * * 1-5 @UTC'],
  ['weekdays at 9am', 'cron 0 9 * * 1-5 @UTC'],
  ['on weekdays at 18:00', 'cron 0 18 * * 1-5 @UTC'],
  ['every weekend at 10:00', 'cron 0 10 * * 0,6 @UTC'],
  ['every weekend day at 10:00', 'cron 0 10 * * 0,6 @UTC'],
  ['on weekends at 8am', 'cron 0 8 * * 0,6 @UTC'],
  ['every monday and friday at 8:30', 'cron 30 8 * * 1,5 @UTC'],
  ['every mon, wed and fri at 8pm', 'cron 0 20 * * 1,3,5 @UTC'],
  ['every tuesday, thursday at 7:15am', 'cron 15 7 * * 2,4 @UTC'],
  ['every monday to friday at 9:00', 'cron 0 9 * * 1-5 @UTC'],
  ['every friday through monday at 22:00', 'cron 0 22 * * 0,1,5,6 @UTC'],
  ['on mondays at 9:00', 'cron 0 9 * * 1 @UTC'],
  ['mondays and thursdays at 6pm', 'cron 0 18 * * 1,4 @UTC'],
  ['every sunday at 3:00', 'cron 0 3 * * 0 @UTC'],
  ['every week on monday at 9:00', 'cron 0 9 * * 1 @UTC'],
  ['weekly on friday at 16:00', 'cron 0 16 * * 5 @UTC'],
  ['every saturday at 10:00 in june, july and august', 'cron 0 10 * 6,7,8 6 @UTC'],
  // Days of the month.
  ['on the 15th of every month at 12:00', 'cron 0 12 15 * * @UTC'],
  ['on the 1st and 15th of every month at 9:00', 'cron 0 9 1,15 * * @UTC'],
  ['on the 1st, 10th and 20th of each month at 8:00', 'cron 0 8 1,10,20 * * @UTC'],
  ['on the 31st of every month at 9:00', 'cron 0 9 31 * * @UTC'],
  ['monthly on the 15th at 12:00', 'cron 0 12 15 * * @UTC'],
  ['every month on the 2nd at 3am', 'cron 0 3 2 * * @UTC'],
  ['on the last day of the month at 18:00', 'cron 0 18 L * * @UTC'],
  ['on the first monday of every month at 9:00', 'cron 0 9 * * 1#1 @UTC'],
  ['every second monday of the month at 9:00', 'cron 0 9 * * 1#2 @UTC'],
  ['on the 3rd wednesday of every month at 14:00', 'cron 0 14 * * 3#3 @UTC'],
  ['on the last friday of every month at 17:00', 'cron 0 17 * * 5L @UTC'],
  ['on the 1st of january, april, july and october at 9:00', 'cron 0 9 1 1,4,7,10 * @UTC'],
  ['on the 1st of every month at 06:00 in january and july', 'cron 0 6 1 1,7 * @UTC'],
  // Dates of the year.
  ['every year on december 24 at 18:00', 'cron 0 18 24 12 * @UTC'],
  ['every december 24 at 18:00', 'cron 0 18 24 12 * @UTC'],
  ['every 24 december at 18:00', 'cron 0 18 24 12 * @UTC'],
  ['yearly on january 1st at 00:00', 'cron 0 0 1 1 * @UTC'],
  ['annually on 1 july at 9:00', 'cron 0 9 1 7 * @UTC'],
  ['on the 24th of december every year at 18:00', 'cron 0 18 24 12 * @UTC'],
  ['every year on february 29 at 9:00', 'cron 0 9 29 2 * @UTC'],
  // Zones: in the words, or given beside them, canonicalised.
  ['every weekday at 9am in Europe/Berlin', 'cron 0 9 * * 1-5 @Europe/Berlin'],
  ['every weekday at 9am Europe/Berlin', 'cron 0 9 * * 1-5 @Europe/Berlin'],
  ['every day at 7:00 (Asia/Tokyo)', 'cron 0 7 * * * @Asia/Tokyo'],
  ['every day at 7:00 asia/tokyo time', 'cron 0 7 * * * @Asia/Tokyo'],
  ['every day at 9:00 in UTC', 'cron 0 9 * * * @UTC'],
  ['every day at 9:00', 'cron 0 9 * * * @America/New_York', { timezone: 'America/New_York' }],
  [
    'every day at 9:00 in America/New_York',
    'cron 0 9 * * * @America/New_York',
    { timezone: 'america/new_york' },
  ],
  ['Every Weekday At 9AM.', 'cron 0 9 * * 1-5 @UTC'],
  // Across daylight saving: the next fires are the cron's own, DST policy applied.
  [
    'every day at 2:30 in Europe/Berlin',
    'cron 30 2 * * * @Europe/Berlin',
    { next: ['2026-03-29T01:00:00.000Z', '2026-03-30T00:30:00.000Z'] },
  ],
  [
    'every 30 minutes in Europe/Berlin',
    'cron */30 * * * * @Europe/Berlin',
    { now: '2026-03-29T00:40:00Z', next: ['2026-03-29T01:00:00.000Z', '2026-03-29T01:30:00.000Z'] },
  ],
  [
    'every day at 1:30 in America/New_York',
    'cron 30 1 * * * @America/New_York',
    { now: '2026-10-31T12:00:00Z', next: ['2026-11-01T05:30:00.000Z', '2026-11-02T06:30:00.000Z'] },
  ],
  [
    'every day at 2:15 in Australia/Lord_Howe',
    'cron 15 2 * * * @Australia/Lord_Howe',
    { now: '2026-10-03T00:00:00Z', next: ['2026-10-03T15:30:00.000Z', '2026-10-04T15:15:00.000Z'] },
  ],
  ['every sunday at 3:00 in Pacific/Chatham', 'cron 0 3 * * 0 @Pacific/Chatham'],
];

const ONCE: Case[] = [
  ['in 3 hours', 'once 2026-03-28T13:00:00.000Z'],
  ['in 90 minutes', 'once 2026-03-28T11:30:00.000Z'],
  ['in 1 hour and 30 minutes', 'once 2026-03-28T11:30:00.000Z'],
  ['in 2 days', 'once 2026-03-30T10:00:00.000Z'],
  ['in 45 seconds', 'once 2026-03-28T10:00:45.000Z'],
  ['in an hour', 'once 2026-03-28T11:00:00.000Z'],
  // "in" is elapsed time: 24 hours across spring forward in Berlin is 25:00 on the wall.
  ['in 1 day in Europe/Berlin', 'once 2026-03-29T10:00:00.000Z @Europe/Berlin'],
  ['tomorrow at 5pm', 'once 2026-03-29T17:00:00.000Z'],
  ['tomorrow at 17:00', 'once 2026-03-29T17:00:00.000Z'],
  ['tomorrow at noon', 'once 2026-03-29T12:00:00.000Z'],
  ['today at 23:00', 'once 2026-03-28T23:00:00.000Z'],
  ['at 2026-12-24 18:00', 'once 2026-12-24T18:00:00.000Z'],
  ['2026-12-24 18:00', 'once 2026-12-24T18:00:00.000Z'],
  ['on 2026-12-24 at 18:00', 'once 2026-12-24T18:00:00.000Z'],
  ['at 2026-12-24 18:00:30', 'once 2026-12-24T18:00:30.000Z'],
  ['2026-12-24T18:00:00Z', 'once 2026-12-24T18:00:00.000Z'],
  ['2026-12-24T18:00:00+01:00', 'once 2026-12-24T17:00:00.000Z'],
  ['december 24 at 18:00', 'once 2026-12-24T18:00:00.000Z'],
  ['on december 24, 2027 at 6pm', 'once 2027-12-24T18:00:00.000Z'],
  ['on monday at 9am', 'once 2026-03-30T09:00:00.000Z'],
  ['friday 2026-12-25 at 9:00', 'once 2026-12-25T09:00:00.000Z'],
  // In a zone: its wall clock, its "tomorrow".
  ['at 2026-12-24 18:00 in Europe/Berlin', 'once 2026-12-24T17:00:00.000Z @Europe/Berlin'],
  ['at 2026-07-01 09:00 in Europe/Berlin', 'once 2026-07-01T07:00:00.000Z @Europe/Berlin'],
  ['tomorrow at 3:00 in Europe/Berlin', 'once 2026-03-29T01:00:00.000Z @Europe/Berlin'],
  ['tomorrow at 9am', 'once 2026-03-29T13:00:00.000Z @America/New_York', { timezone: 'America/New_York' }],
  // It is already 23:00 on Saturday in Auckland: its "tomorrow" is Sunday, 08:00 of which is
  // still Saturday in UTC.
  ['tomorrow at 8:00 in Pacific/Auckland', 'once 2026-03-28T19:00:00.000Z @Pacific/Auckland'],
  // Lord Howe's clocks go back half an hour on 5 April 2026 at 02:00: 01:45 on the 4th is plain.
  [
    'tomorrow at 1:45 in Australia/Lord_Howe',
    'once 2026-04-03T14:45:00.000Z @Australia/Lord_Howe',
    { now: '2026-04-03T12:00:00Z' },
  ],
];

const REFUSED: [
  text: string,
  word: string | null,
  issue: RegExp,
  options?: { timezone?: string; now?: string },
][] = [
  ['every day', null, /at what time/],
  ['every weekday', null, /at what time/],
  ['every day at 9', '9', /morning or evening/],
  ['tomorrow at 5', '5', /morning or evening/],
  ['every day at 25:00', '25:00', /time of day/],
  ['every day at 9:60', '9:60', /time of day/],
  ['every day at 13pm', '13pm', /time of day/],
  ['every blorp', 'blorp', /unit/],
  ['every 15 blorps', 'blorps', /unit/],
  ['every 3 days at 9:00', '3', /cannot be said exactly/],
  ['every 2 weeks on monday at 9:00', '2', /cannot be said exactly/],
  ['every other monday at 9:00', 'other', /every other/],
  ['every business day at 9:00', 'business', /holidays/],
  ['every day at 9:15 and 17:45', 'at', /one cron expression/],
  ['every 90 minutes on weekdays', 'every', /interval has no days/],
  ['every 15 minutes at 9:00', 'at', /step repeats all day/],
  ['every month at 9:00', 'every', /which day of the month/],
  ['every year at 9:00', 'every', /which date/],
  ['every week at 9:00', 'every', /which day/],
  ['every day on mondays at 9:00', 'every', /contradict/],
  ['on the 1st of every month on mondays at 9:00', 'on', /OR a day of the week/],
  ['every year on february 30 at 9:00', 'on', /February has no day 30/],
  ['on the 0th of every month at 9:00', '0th', /day of the month/],
  ['on the 32nd of every month at 9:00', '32nd', /1st to 31st/],
  ['on the 1th of every month at 9:00', '1th', /day of the month/],
  ['on the sixth monday of every month at 9:00', 'sixth', /day of the month/],
  ['on the last weekday of every month at 9:00', 'weekday', /not supported/],
  ['every weekday at 9am in Europe/Berln', 'Europe/Berln', /not a known IANA time zone/],
  ['every weekday at 9am in Europe/Berlin', 'Europe/Berlin', /timezone given is UTC/, { timezone: 'UTC' }],
  ['every monday at 9:00 and then some', 'then', /not understood/],
  ['every monday at 9:00 sharp', 'sharp', /not understood/],
  ['every monday at 9:00 at 10:00', 'at', /second time/],
  ['next monday at 9am', 'next', /ambiguous/],
  ['this friday at 9am', 'this', /ambiguous/],
  ['tomorrow morning', 'morning', /not a time/],
  ['tonight', 'tonight', /not a time/],
  ['tomorrow', 'tomorrow', /at what time/],
  ['at 5pm', 'at', /which day/],
  ['at 2026-04-05 01:45 in Australia/Lord_Howe', '01:45', /happens twice/],
  ['today at 9:00', '9:00', /in the past/],
  ['at 2020-01-01 09:00', '09:00', /in the past/],
  ['in 3 months', 'months', /no fixed length/],
  ['in three blorps', 'blorps', /unit/],
  ['in 3 hours and', null, /ends after "and"/],
  ['in', null, /duration/],
  ['thursday 2026-12-25 at 9:00', 'thursday', /is a Friday/],
  ['tomorrow at 2:30 in Europe/Berlin', '2:30', /does not exist in Europe\/Berlin/],
  ['at 2026-10-25 02:30 in Europe/Berlin', '02:30', /happens twice in Europe\/Berlin/],
  ['at 2026-03-08 02:30 in America/New_York', '02:30', /does not exist/],
  ['at 2026-11-01 01:30 in America/New_York', '01:30', /happens twice/],
  ['tomorrow at 5pm EST', 'est', /not understood|abbreviation/],
  ['12/24/2026 18:00', '12/24/2026', /not understood/],
  ['', null, /empty/],
  ['Europe/Berlin', 'Europe/Berlin', /zone alone/],
  ['blorp', 'blorp', /not understood/],
];

function parse(text: string, options: { timezone?: string; now?: string } = {}): Schedule {
  return parseScheduleText(text, { timezone: options.timezone, now: new Date(options.now ?? NOW) });
}

describe('schedules in words: recurrences', () => {
  it.each(RECURRING)('"%s" is %s', (text, expected, options) => {
    const s = parse(text, options);
    expect(compact(s)).toBe(expected);
    expect(s.text).toBe(text.trim());
    if (options?.next) {
      const from = new Date(options.now ?? NOW);
      const times = fireTimesBetween(
        s,
        from,
        new Date(from.getTime() + 10 * 86_400_000),
        options.next.length,
      );
      expect(times.times.map((t) => t.toISOString())).toEqual(options.next);
    }
  });
});

describe('schedules in words: one-off times', () => {
  it.each(ONCE)('"%s" is %s', (text, expected, options) => {
    expect(compact(parse(text, options))).toBe(expected);
  });
});

describe('schedules in words: refused, naming the word', () => {
  it.each(REFUSED)('"%s" is refused at %s', (text, word, issue, options) => {
    let error: unknown;
    try {
      parse(text, options);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(DschedError);
    const detail = (error as DschedError).details[0]!;
    expect(detail.field).toBe('text');
    expect(detail.issue).toMatch(issue);
    if (word === null) expect(detail.issue).toMatch(/^(the phrase ends too soon|is empty|")/);
    else expect(detail.issue.toLowerCase()).toContain(`"${word.toLowerCase()}"`);
  });

  it('names the field it was asked to', () => {
    expect(() => parseScheduleText('every blorp', { now: new Date(NOW), field: 'schedule.text' })).toThrow(
      expect.objectContaining({ details: [expect.objectContaining({ field: 'schedule.text' })] }),
    );
  });

  it('has at least 80 phrases and 30 refusals', () => {
    expect(RECURRING.length + ONCE.length).toBeGreaterThanOrEqual(80);
    expect(REFUSED.length).toBeGreaterThanOrEqual(30);
  });
});
