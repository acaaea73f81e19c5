import { CronExpressionParser } from 'cron-parser';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileCron, nextLocalMatch } from '../src/calendar/cron.ts';
import {
  fireTimesBetween,
  firstFireAt,
  lastFireBefore,
  nextFireAfter,
  validateCron,
} from '../src/calendar/schedule.ts';
import type { DstPolicy, Schedule } from '../src/model.ts';

const cron = (expression: string, timezone: string, dst: Partial<DstPolicy> = {}): Schedule => ({
  type: 'cron',
  expression,
  timezone,
  dst: { repeated: 'first', skipped: 'shift', ...dst },
});

function fires(schedule: Schedule, from: string, n: number): string[] {
  const out: string[] = [];
  let t: Date | null = new Date(from);
  while (out.length < n) {
    t = nextFireAfter(schedule, t!);
    if (t === null) break;
    out.push(t.toISOString());
  }
  return out;
}

describe('daylight-saving policy (Europe/Berlin, 2024)', () => {
  it('shifts a wall time inside the spring-forward gap to the first instant after it (default)', () => {
    // 02:30 does not exist on 31 March; 03:00 CEST is 01:00Z.
    expect(fires(cron('30 2 * * *', 'Europe/Berlin'), '2024-03-30T12:00:00Z', 2)).toEqual([
      '2024-03-31T01:00:00.000Z',
      '2024-04-01T00:30:00.000Z',
    ]);
  });

  it('skips a wall time inside the gap when asked to', () => {
    expect(
      fires(cron('30 2 * * *', 'Europe/Berlin', { skipped: 'skip' }), '2024-03-30T12:00:00Z', 1),
    ).toEqual(['2024-04-01T00:30:00.000Z']);
  });

  it.each([
    ['first', ['2024-10-27T00:30:00.000Z', '2024-10-28T01:30:00.000Z']],
    ['last', ['2024-10-27T01:30:00.000Z', '2024-10-28T01:30:00.000Z']],
    ['both', ['2024-10-27T00:30:00.000Z', '2024-10-27T01:30:00.000Z', '2024-10-28T01:30:00.000Z']],
  ] as const)('fires a repeated wall time on the %s pass of the fall-back overlap', (repeated, want) => {
    expect(
      fires(cron('30 2 * * *', 'Europe/Berlin', { repeated }), '2024-10-26T12:00:00Z', want.length),
    ).toEqual(want);
  });

  it('runs an interval-like schedule on elapsed time through both transitions, whatever the policy', () => {
    const policies: Partial<DstPolicy>[] = [{ repeated: 'first', skipped: 'skip' }, { repeated: 'last' }];
    for (const dst of policies) {
      expect(fires(cron('0 * * * *', 'Europe/Berlin', dst), '2024-10-26T23:30:00Z', 4)).toEqual([
        '2024-10-27T00:00:00.000Z',
        '2024-10-27T01:00:00.000Z',
        '2024-10-27T02:00:00.000Z',
        '2024-10-27T03:00:00.000Z',
      ]);
      expect(fires(cron('*/30 * * * *', 'Europe/Berlin', dst), '2024-03-31T00:15:00Z', 3)).toEqual([
        '2024-03-31T00:30:00.000Z',
        '2024-03-31T01:00:00.000Z',
        '2024-03-31T01:30:00.000Z',
      ]);
    }
  });

  it('keeps a seconds field through a transition', () => {
    expect(
      fires(cron('*/20 30 2 * * *', 'Europe/Berlin', { repeated: 'last' }), '2024-10-27T00:00:00Z', 3),
    ).toEqual(['2024-10-27T01:30:00.000Z', '2024-10-27T01:30:20.000Z', '2024-10-27T01:30:40.000Z']);
  });

  it('shifts a half-hour transition (Lord Howe) and a 02:45 one (Chatham)', () => {
    // Lord Howe springs from 02:00 to 02:30; Chatham from 02:45 to 03:45.
    expect(fires(cron('15 2 * * *', 'Australia/Lord_Howe'), '2024-10-05T00:00:00Z', 1)).toEqual([
      '2024-10-05T15:30:00.000Z',
    ]);
    expect(fires(cron('0 3 * * *', 'Pacific/Chatham'), '2024-09-28T00:00:00Z', 1)).toEqual([
      '2024-09-28T14:00:00.000Z',
    ]);
  });
});

describe('schedules', () => {
  it('starts a new task at the first fire at or after now', () => {
    const s = cron('0 9 * * *', 'UTC');
    expect(firstFireAt(s, new Date('2024-05-01T09:00:00Z'))?.toISOString()).toBe('2024-05-01T09:00:00.000Z');
    const once: Schedule = { type: 'once', at: new Date('2020-01-01T00:00:00Z') };
    expect(firstFireAt(once, new Date())?.toISOString()).toBe('2020-01-01T00:00:00.000Z');
    expect(nextFireAfter(once, once.at)).toBeNull();
  });

  it('lists fire times in a range, capped', () => {
    const s = cron('0 * * * *', 'UTC');
    const all = fireTimesBetween(s, new Date('2024-01-01T00:00:00Z'), new Date('2024-01-01T05:00:00Z'), 10);
    expect(all.times.map((t) => t.getUTCHours())).toEqual([0, 1, 2, 3, 4]);
    expect(all.more).toBe(false);
    const capped = fireTimesBetween(s, new Date('2024-01-01T00:00:00Z'), new Date('2024-01-02T00:00:00Z'), 3);
    expect(capped.times).toHaveLength(3);
    expect(capped.more).toBe(true);
  });

  it('finds the last fire before an instant, even a year of seconds away', () => {
    const s = cron('* * * * * *', 'UTC');
    const last = lastFireBefore(s, new Date('2023-01-01T00:00:00Z'), new Date('2024-01-01T00:00:00.500Z'));
    expect(last?.toISOString()).toBe('2024-01-01T00:00:00.000Z');
    const daily = cron('0 9 * * *', 'Europe/Berlin');
    expect(
      lastFireBefore(
        daily,
        new Date('2024-01-01T00:00:00Z'),
        new Date('2024-01-10T07:59:59Z'),
      )?.toISOString(),
    ).toBe('2024-01-09T08:00:00.000Z');
    expect(
      lastFireBefore(daily, new Date('2024-01-10T08:30:00Z'), new Date('2024-01-10T09:00:00Z')),
    ).toBeNull();
  });
});

describe('validation', () => {
  it.each([
    ['not a cron', 'UTC', 'schedule.expression'],
    ['0 0 30 2 *', 'UTC', 'schedule.expression'],
    ['* * * *', 'UTC', 'schedule.expression'],
    ['H * * * *', 'UTC', 'schedule.expression'],
    ['0 9 * * *', 'Mars/Olympus', 'schedule.timezone'],
  ])('rejects %s in %s naming %s', (expression, zone, field) => {
    try {
      validateCron(expression, zone);
      expect.unreachable();
    } catch (err) {
      expect((err as { details: { field: string }[] }).details[0]!.field).toBe(field);
    }
  });

  it('accepts five fields, six with seconds, names and specials', () => {
    for (const e of ['0 9 * * MON-FRI', '*/10 * * * * *', '0 0 L * *', '0 0 * * 5L', '0 0 * * 1#2', '@daily'])
      expect(() => validateCron(e, 'Europe/Berlin')).not.toThrow();
  });
});

describe('wall-clock matching agrees with cron-parser (UTC, no daylight saving)', () => {
  const field = (values: string[]) => fc.constantFrom(...values);
  it('for random expressions, the next 20 matches are the same', () => {
    fc.assert(
      fc.property(
        field(['0', '*/20', '5,35', '*']),
        field(['0', '*/7', '15-45/10', '59']),
        field(['*', '9', '0-6/3', '23']),
        field(['*', '1', '15', 'L', '29', '31', '1-7', '?']),
        field(['*', '2', '1-3', '*/4', 'FEB', '12']),
        field(['*', 'MON-FRI', '0', '5L', '1#2', '6', '7', '?']),
        fc.date({
          min: new Date('2000-01-01T00:00:00Z'),
          max: new Date('2030-01-01T00:00:00Z'),
          noInvalidDate: true,
        }),
        (sec, min, hour, dom, month, dow, from) => {
          const expression = `${sec} ${min} ${hour} ${dom} ${month} ${dow}`;
          let reference: ReturnType<typeof CronExpressionParser.parse>;
          try {
            reference = CronExpressionParser.parse(expression, { tz: 'UTC', currentDate: from });
          } catch {
            return; // an expression cron-parser rejects is not ours to iterate
          }
          const c = compileCron(expression);
          let t = from.getTime();
          for (let i = 0; i < 20; i++) {
            const want = reference.next().toDate().getTime();
            const got = nextLocalMatch(c, t);
            expect(got === null ? null : new Date(got).toISOString()).toBe(new Date(want).toISOString());
            t = got!;
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
