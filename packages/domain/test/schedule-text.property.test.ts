import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ScheduleCalendar } from '../src/calendar/excluded-days.ts';
import { previewOccurrences } from '../src/calendar/occurrence-preview.ts';
import type { Schedule } from '../src/model.ts';
import { describeSchedule } from '../src/words/schedule-description.ts';
import { parseScheduleText } from '../src/words/schedule-text.ts';

// Properties of schedules in words and their sentences: a phrase built from the grammar's parts
// parses to a schedule whose preview is the preview of the cron expression the parts say (zones
// and daylight-saving transitions included); and a sentence is written for any schedule, however
// odd, without throwing.

const ZONES = [
  'UTC',
  'Europe/Berlin',
  'America/New_York',
  'Australia/Lord_Howe',
  'Asia/Kolkata',
  'Pacific/Chatham',
];
const DAY_NAMES = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const MONTH_NAMES = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth'];

function ordinal(n: number): string {
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/** A time of day written one of several ways. */
const timeArb = fc
  .record({
    hour: fc.integer({ min: 0, max: 23 }),
    minute: fc.integer({ min: 0, max: 59 }),
    style: fc.integer({ min: 0, max: 2 }),
  })
  .map(({ hour, minute, style }) => {
    const hh = String(hour).padStart(2, '0');
    const mm = String(minute).padStart(2, '0');
    const h12 = hour % 12 === 0 ? 12 : hour % 12;
    const ampm = hour < 12 ? 'am' : 'pm';
    const text =
      style === 0
        ? `${hh}:${mm}`
        : style === 1
          ? `${hour}:${mm}`
          : minute === 0
            ? `${h12}${ampm}`
            : `${h12}:${mm}${ampm}`;
    return { text, hour, minute };
  });

/** The day part of a phrase and the cron fields it says (dom, month, dow). */
const daysArb = fc.oneof(
  fc.constant({ text: 'every day', dom: '*', month: '*', dow: '*' }),
  fc.constant({ text: 'every weekday', dom: '*', month: '*', dow: '1-5' }),
  fc.constant({ text: 'on weekends', dom: '*', month: '*', dow: '0,6' }),
  fc
    .integer({ min: 0, max: 6 })
    .map((d) => ({ text: `every ${DAY_NAMES[d]}`, dom: '*', month: '*', dow: String(d) })),
  fc.uniqueArray(fc.integer({ min: 0, max: 6 }), { minLength: 2, maxLength: 4 }).map((ds) => {
    const sorted = [...ds].sort((a, b) => a - b);
    const names = ds.map((d) => `${DAY_NAMES[d]}s`);
    return {
      text: `on ${names.slice(0, -1).join(', ')} and ${names.at(-1)}`,
      dom: '*',
      month: '*',
      dow: sorted.join(','),
    };
  }),
  fc
    .integer({ min: 1, max: 28 })
    .map((d) => ({ text: `on the ${ordinal(d)} of every month`, dom: String(d), month: '*', dow: '*' })),
  fc.constant({ text: 'on the last day of every month', dom: 'L', month: '*', dow: '*' }),
  fc.record({ n: fc.integer({ min: 1, max: 4 }), d: fc.integer({ min: 0, max: 6 }) }).map(({ n, d }) => ({
    text: `on the ${ORDINALS[n - 1]} ${DAY_NAMES[d]} of every month`,
    dom: '*',
    month: '*',
    dow: `${d}#${n}`,
  })),
  fc.record({ m: fc.integer({ min: 1, max: 12 }), d: fc.integer({ min: 1, max: 28 }) }).map(({ m, d }) => ({
    text: `every year on ${MONTH_NAMES[m - 1]} ${d}`,
    dom: String(d),
    month: String(m),
    dow: '*',
  })),
);

/** A phrase and the cron expression it must mean. */
const phraseArb = fc.oneof(
  fc
    .record({ days: daysArb, time: timeArb, zone: fc.constantFrom(...ZONES), timeFirst: fc.boolean() })
    .map(({ days, time, zone, timeFirst }) => ({
      text: `${timeFirst ? `at ${time.text} ${days.text}` : `${days.text} at ${time.text}`} in ${zone}`,
      expression: `${time.minute} ${time.hour} ${days.dom} ${days.month} ${days.dow}`,
      zone,
    })),
  fc
    .record({ n: fc.constantFrom(1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30), zone: fc.constantFrom(...ZONES) })
    .map(({ n, zone }) => ({
      text: `every ${n} minutes in ${zone}`,
      expression: `${n === 1 ? '*' : `*/${n}`} * * * *`,
      zone,
    })),
  fc
    .record({
      n: fc.constantFrom(1, 2, 3, 4, 6, 8, 12),
      minute: fc.integer({ min: 0, max: 59 }),
      zone: fc.constantFrom(...ZONES),
    })
    .map(({ n, minute, zone }) => ({
      text: `every ${n} hours at :${String(minute).padStart(2, '0')} in ${zone}`,
      expression: `${minute} ${n === 1 ? '*' : `*/${n}`} * * *`,
      zone,
    })),
);

/** Instants around the 2026 transitions of the zones above, and plain ones. */
const fromArb = fc.oneof(
  fc.constantFrom(
    '2026-03-08T06:00:00Z',
    '2026-03-28T20:00:00Z',
    '2026-04-04T12:00:00Z',
    '2026-09-26T12:00:00Z',
    '2026-10-24T22:00:00Z',
    '2026-11-01T04:00:00Z',
  ),
  fc
    .date({
      min: new Date('2026-01-01T00:00:00Z'),
      max: new Date('2028-12-31T00:00:00Z'),
      noInvalidDate: true,
    })
    .map((d) => d.toISOString()),
);

describe('schedules in words, as properties', () => {
  it('parse(text) then preview equals the cron expression’s own preview', () => {
    fc.assert(
      fc.property(phraseArb, fromArb, ({ text, expression, zone }, fromText) => {
        const from = new Date(fromText);
        const parsed = parseScheduleText(text, { now: from });
        const own: Schedule = {
          type: 'cron',
          expression,
          timezone: zone,
          dst: { repeated: 'first', skipped: 'shift' },
        };
        expect(parsed.type).toBe('cron');
        expect(previewOccurrences(parsed, from, 12)).toEqual(previewOccurrences(own, from, 12));
      }),
      { numRuns: 300 },
    );
  });

  it('writes a sentence for any schedule and never throws', () => {
    const calendarArb: fc.Arbitrary<ScheduleCalendar> = fc.record(
      {
        holidays: fc.constantFrom('DE-BE', 'US', 'GB-ENG', 'FR', 'JP', 'XX', 'de-by-a', ''),
        weekends: fc.boolean(),
        dates: fc.array(fc.string(), { maxLength: 5 }),
        onExcluded: fc.constantFrom(
          'skip',
          'next_business_day',
          'previous_business_day',
          'sideways' as never,
        ),
        timezone: fc.constantFrom('UTC', 'Europe/Berlin', 'Not/AZone'),
      },
      { requiredKeys: ['onExcluded'] },
    );
    const cronArb = fc.oneof(
      fc.string(),
      phraseArb.map((p) => p.expression),
      fc.constantFrom(
        '@daily',
        '0 9 * * 1-5',
        '*/5 * * * * *',
        '0 0 L * *',
        '0 9 * * 5L',
        'H 9 * * *',
        '99 99 99 99 99',
      ),
    );
    const scheduleArb: fc.Arbitrary<Schedule> = fc.oneof(
      fc.record({
        type: fc.constant('once' as const),
        at: fc.date(),
        timezone: fc.option(fc.constantFrom(...ZONES, 'Bad/Zone'), { nil: undefined }),
      }) as fc.Arbitrary<Schedule>,
      fc.record(
        {
          type: fc.constant('cron' as const),
          expression: cronArb,
          timezone: fc.constantFrom(...ZONES, 'Bad/Zone'),
          dst: fc.record({
            repeated: fc.constantFrom('first', 'last', 'both'),
            skipped: fc.constantFrom('shift', 'skip'),
          }),
          calendar: fc.option(calendarArb, { nil: undefined }),
        },
        { requiredKeys: ['type', 'expression', 'timezone', 'dst'] },
      ) as fc.Arbitrary<Schedule>,
      fc.record(
        {
          type: fc.constant('interval' as const),
          every: fc.oneof(fc.string(), fc.constantFrom('90m', '1h30m', '7d', '1s', '1d2h3m4s')),
          offset: fc.option(fc.string(), { nil: undefined }),
          startAt: fc.option(fc.date(), { nil: undefined }),
          calendar: fc.option(calendarArb, { nil: undefined }),
        },
        { requiredKeys: ['type', 'every'] },
      ) as fc.Arbitrary<Schedule>,
    );
    fc.assert(
      fc.property(scheduleArb, fc.integer({ min: -5, max: 100_000 }), (schedule, jitterS) => {
        const sentence = describeSchedule(schedule, { jitterS });
        expect(typeof sentence).toBe('string');
        expect(sentence.length).toBeGreaterThan(0);
      }),
      { numRuns: 2000 },
    );
  });
});
