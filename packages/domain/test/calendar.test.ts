import { describe, expect, it } from 'vitest';
import { excludedOccurrences } from '../src/calendar/calendar-views.ts';
import { calendarIssues, type ScheduleCalendar } from '../src/calendar/excluded-days.ts';
import { previewOccurrences } from '../src/calendar/occurrence-preview.ts';
import { fireTimesBetween, lastFireBefore, nextFireAfter } from '../src/calendar/schedule.ts';
import { planOccurrences } from '../src/decisions/occurrence-plan.ts';
import type { Schedule } from '../src/model.ts';
import { describeSchedule } from '../src/words/schedule-description.ts';

// Business calendars on schedules (docs/scheduling.md#calendars): holidays from date-holidays,
// weekends and dates excluded; an excluded occurrence skipped or moved to a business day, once.

const cron = (expression: string, calendar: ScheduleCalendar, timezone = 'Europe/Berlin'): Schedule => ({
  type: 'cron',
  expression,
  timezone,
  dst: { repeated: 'first', skipped: 'shift' },
  calendar,
});

const NEW_YORK = new Intl.DateTimeFormat('en-US', {
  timeZone: 'America/New_York',
  weekday: 'short',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});
const iso = (times: Date[]) => times.map((t) => t.toISOString());
const between = (s: Schedule, from: string, to: string, cap = 5000) =>
  iso(fireTimesBetween(s, new Date(from), new Date(to), cap).times);

/** Berlin's public holidays of 2026 and 2027 (Gesetz über die Sonn- und Feiertage, Berlin). */
const BERLIN_HOLIDAYS = [
  '2026-01-01',
  '2026-03-08',
  '2026-04-03',
  '2026-04-06',
  '2026-05-01',
  '2026-05-14',
  '2026-05-25',
  '2026-10-03',
  '2026-12-25',
  '2026-12-26',
  '2027-01-01',
  '2027-03-08',
  '2027-03-26',
  '2027-03-29',
  '2027-05-01',
  '2027-05-06',
  '2027-05-17',
  '2027-10-03',
  '2027-12-25',
  '2027-12-26',
];

describe('calendars', () => {
  it('skips Berlin’s 2026–2027 public holidays and nothing else', () => {
    const s = cron('0 9 * * *', { holidays: 'DE-BE', onExcluded: 'skip' });
    const fired = new Set(
      between(s, '2026-01-01T00:00:00Z', '2028-01-01T00:00:00Z').map((t) => t.slice(0, 10)),
    );
    const days: string[] = [];
    for (let d = Date.UTC(2026, 0, 1); d < Date.UTC(2028, 0, 1); d += 86_400_000)
      days.push(new Date(d).toISOString().slice(0, 10));
    expect(days.filter((d) => !fired.has(d))).toEqual(BERLIN_HOLIDAYS);
    // The audit lists each as excluded, with the holiday's name.
    const excluded = excludedOccurrences(
      s,
      { from: new Date('2026-01-01T00:00:00Z'), to: new Date('2028-01-01T00:00:00Z') },
      new Date('2025-01-01T00:00:00Z'),
    );
    expect(excluded.map((e) => e.scheduledFor.slice(0, 10))).toEqual(BERLIN_HOLIDAYS);
    expect(excluded.every((e) => e.status === 'excluded' && e.movedTo === undefined)).toBe(true);
    expect(excluded[0]!.reason).toBe("public holiday New Year's Day (DE-BE)");
  });

  it('moves 1 January 2027 (a holiday, then a weekend) to Monday 4 January', () => {
    const s = cron('0 9 1 * *', { holidays: 'DE-BE', weekends: true, onExcluded: 'next_business_day' });
    expect(between(s, '2026-12-01T00:00:00Z', '2027-02-02T00:00:00Z')).toEqual([
      '2026-12-01T08:00:00.000Z',
      '2027-01-04T08:00:00.000Z',
      '2027-02-01T08:00:00.000Z',
    ]);
    const [excluded] = excludedOccurrences(
      s,
      { from: new Date('2027-01-01T00:00:00Z'), to: new Date('2027-01-02T00:00:00Z') },
      new Date('2026-01-01T00:00:00Z'),
    );
    expect(excluded).toEqual({
      scheduledFor: '2027-01-01T08:00:00.000Z',
      status: 'excluded',
      reason: "public holiday New Year's Day (DE-BE)",
      movedTo: '2027-01-04T08:00:00.000Z',
    });
  });

  it('moves a month-end run that falls on a Sunday back to the Friday', () => {
    const s = cron('0 23 L * *', { weekends: true, onExcluded: 'previous_business_day' });
    // 31 May 2026 and 31 January 2027 are Sundays; 28 February 2027 too.
    expect(between(s, '2026-05-01T00:00:00Z', '2026-07-01T00:00:00Z')).toEqual([
      '2026-05-29T21:00:00.000Z',
      '2026-06-30T21:00:00.000Z',
    ]);
    expect(between(s, '2027-01-15T00:00:00Z', '2027-03-01T00:00:00Z')).toEqual([
      '2027-01-29T22:00:00.000Z',
      '2027-02-26T22:00:00.000Z',
    ]);
  });

  it('runs once when several occurrences move to the same time of one day', () => {
    // Good Friday, Saturday, Sunday and Easter Monday 2026 all move to Tuesday 7 April 09:00.
    const s = cron('0 9 * * *', { holidays: 'DE-BE', weekends: true, onExcluded: 'next_business_day' });
    expect(between(s, '2026-04-02T00:00:00Z', '2026-04-09T00:00:00Z')).toEqual([
      '2026-04-02T07:00:00.000Z',
      '2026-04-07T07:00:00.000Z',
      '2026-04-08T07:00:00.000Z',
    ]);
    const preview = previewOccurrences(s, new Date('2026-04-02T00:00:00Z'), 3);
    expect(preview.filter((e) => e.fires).map((e) => e.at)).toEqual([
      '2026-04-02T07:00:00.000Z',
      '2026-04-07T07:00:00.000Z',
      '2026-04-08T07:00:00.000Z',
    ]);
    const tuesday = preview.find((e) => e.at === '2026-04-07T07:00:00.000Z')!;
    expect(tuesday.calendar).toBeUndefined(); // a time of its own, which the moved ones join
    expect(tuesday.movedFrom).toEqual([
      '2026-04-03T07:00:00.000Z',
      '2026-04-04T07:00:00.000Z',
      '2026-04-05T07:00:00.000Z',
      '2026-04-06T07:00:00.000Z',
    ]);
    expect(preview.filter((e) => e.calendar === 'excluded').map((e) => [e.at, e.fires, e.movedTo])).toEqual([
      ['2026-04-03T07:00:00.000Z', false, '2026-04-07T07:00:00.000Z'],
      ['2026-04-04T07:00:00.000Z', false, '2026-04-07T07:00:00.000Z'],
      ['2026-04-05T07:00:00.000Z', false, '2026-04-07T07:00:00.000Z'],
      ['2026-04-06T07:00:00.000Z', false, '2026-04-07T07:00:00.000Z'],
    ]);
  });

  it('marks a moved time that is no time of the rule’s own as moved in the preview', () => {
    const s = cron('0 10 * * 6', { weekends: true, onExcluded: 'next_business_day' }); // Saturdays
    const preview = previewOccurrences(s, new Date('2026-05-01T00:00:00Z'), 1);
    expect(preview.map((e) => [e.at, e.fires, e.calendar])).toEqual([
      ['2026-05-02T08:00:00.000Z', false, 'excluded'],
      ['2026-05-04T08:00:00.000Z', true, 'moved'],
    ]);
    expect(preview[1]!.note).toContain('Saturday');
  });

  it('keeps daylight-saving rules on the day a run moves to', () => {
    // 28 March 2026 is listed; its 02:30 moves to Sunday, when 02:30 does not exist in Berlin:
    // it fires at the end of the gap, with Sunday's own 02:30 shifted there too: one occurrence.
    const s = cron('30 2 * * *', { dates: ['2026-03-28'], onExcluded: 'next_business_day' });
    expect(between(s, '2026-03-27T00:00:00Z', '2026-03-31T00:00:00Z')).toEqual([
      '2026-03-27T01:30:00.000Z',
      '2026-03-29T01:00:00.000Z',
      '2026-03-30T00:30:00.000Z',
    ]);
  });

  it('judges an interval schedule’s days in calendar.timezone', () => {
    const s: Schedule = {
      type: 'interval',
      every: '12h',
      calendar: { weekends: true, onExcluded: 'skip', timezone: 'Pacific/Auckland' },
    };
    // 00:00 and 12:00 UTC are 13:00 and 01:00 the next day in Auckland (NZDT, +13).
    const times = between(s, '2026-03-06T00:00:00Z', '2026-03-10T00:00:00Z');
    expect(times).toEqual([
      '2026-03-06T00:00:00.000Z', // Fri 13:00
      '2026-03-08T12:00:00.000Z', // Mon 01:00
      '2026-03-09T00:00:00.000Z', // Mon 13:00
      '2026-03-09T12:00:00.000Z', // Tue 01:00
    ]);
  });

  it('honours the calendar in misfire catch-up and in the backward search', () => {
    const s = cron('0 9 * * *', { weekends: true, onExcluded: 'next_business_day' });
    // Down from Friday 1 May 10:00 until Monday 4 May 12:00: Saturday's and Sunday's runs moved
    // to Monday 09:00, which was missed too. fire_once runs Monday 09:00, once.
    const plan = planOccurrences(
      {
        schedule: s,
        nextFireAt: new Date('2026-05-04T07:00:00Z'),
        misfirePolicy: 'fire_once',
        overlapPolicy: 'allow',
      },
      {
        now: new Date('2026-05-04T10:00:00Z'),
        dueBefore: new Date('2026-05-04T10:00:10Z'),
        previousRunLive: false,
      },
      { misfireThresholdMs: 60_000, maxCatchUp: 100, maxPerPass: 100 },
    );
    expect(iso(plan.fireTimes)).toEqual(['2026-05-04T07:00:00.000Z']);
    expect(plan.nextFireAt?.toISOString()).toBe('2026-05-05T07:00:00.000Z');
    expect(
      lastFireBefore(s, new Date('2026-04-01T00:00:00Z'), new Date('2026-05-04T06:00:00Z'))?.toISOString(),
    ).toBe('2026-05-01T07:00:00.000Z');
  });

  it('never fires on an excluded day, for any mode, over two years', () => {
    for (const onExcluded of ['skip', 'next_business_day', 'previous_business_day'] as const) {
      const s = cron(
        '15 */6 * * *',
        { holidays: 'US', weekends: true, dates: ['2026-07-06'], onExcluded },
        'America/New_York',
      );
      const times = between(s, '2026-01-01T00:00:00Z', '2028-01-01T00:00:00Z', 10_000);
      const days = times.map((t) => NEW_YORK.format(new Date(t)));
      expect(
        days.filter((d) => /Sat|Sun|07\/06\/2026|07\/03\/2026|12\/25\/2026|01\/01\/2027/.test(d)),
      ).toEqual([]);
      expect(times).toEqual([...new Set(times)].sort());
      for (const t of times.filter((_, i) => i % 7 === 0)) {
        expect(nextFireAfter(s, new Date(Date.parse(t) - 1))?.toISOString()).toBe(t);
      }
    }
  });

  it('names calendar.holidays for a region date-holidays does not know', () => {
    expect(calendarIssues({ holidays: 'DE-ZZ', onExcluded: 'skip' }, 'cron')).toEqual([
      { field: 'holidays', issue: expect.stringContaining('unknown holiday region "DE-ZZ"') },
    ]);
    expect(calendarIssues({ holidays: 'XX', onExcluded: 'skip' }, 'cron')[0]!.field).toBe('holidays');
    expect(calendarIssues({ holidays: 'de-be', onExcluded: 'skip' }, 'cron')).toEqual([]);
    expect(calendarIssues({ holidays: 'DE-BY-A', onExcluded: 'skip' }, 'cron')).toEqual([]);
    expect(calendarIssues({ dates: ['2026-02-30'], onExcluded: 'skip' }, 'cron')[0]!.field).toBe('dates.0');
    expect(calendarIssues({ onExcluded: 'skip' }, 'interval')[0]!.issue).toMatch(/excludes something/);
    expect(calendarIssues({ weekends: true, onExcluded: 'skip', timezone: 'UTC' }, 'cron')[0]!.field).toBe(
      'timezone',
    );
    expect(calendarIssues({ weekends: true, onExcluded: 'skip' }, 'once')[0]!.field).toBe('calendar');
  });

  it('is written into the schedule’s sentence', () => {
    expect(
      describeSchedule(
        cron('0 9 * * 1-5', { holidays: 'DE-BE', weekends: true, onExcluded: 'next_business_day' }),
        {
          jitterS: 30,
        },
      ),
    ).toBe(
      'At 09:00, Monday through Friday, Europe/Berlin, except on Saturdays and Sundays and public holidays in ' +
        'Berlin, Germany (DE-BE); a run that falls on an excluded day moves to the next business day; each run ' +
        'starts at a fixed point within 30 seconds after its time (jitter)',
    );
  });
});
