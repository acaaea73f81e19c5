import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { intervalIssues, MAX_INTERVAL_MS, parseDuration } from '../src/calendar/interval.ts';
import { fireTimesBetween, firstFireAt, lastFireBefore, nextFireAfter } from '../src/calendar/schedule.ts';
import { impliedOccurrences } from '../src/decisions/audit.ts';
import { planOccurrences } from '../src/decisions/occurrence-plan.ts';
import { createTaskSchema } from '../src/index.ts';
import type { Schedule } from '../src/model.ts';

// Fixed-rate intervals: elapsed time from an anchor, so every fire is on the grid
// anchor + offset + k * every, consecutive fires are exactly `every` apart (daylight saving has
// no say), and the planner's misfire and overlap policies treat them as they treat cron.

const HOUR = 3_600_000;
const interval = (every: string, offset?: string, startAt?: string): Schedule => ({
  type: 'interval',
  every,
  ...(offset !== undefined ? { offset } : {}),
  ...(startAt !== undefined ? { startAt: new Date(startAt) } : {}),
});

const durationArb = fc
  .record({
    d: fc.integer({ min: 0, max: 8 }),
    h: fc.integer({ min: 0, max: 30 }),
    m: fc.integer({ min: 0, max: 200 }),
    s: fc.integer({ min: 0, max: 90 }),
  })
  .filter(({ d, h, m, s }) => d + h + m + s > 0)
  .map(({ d, h, m, s }) => ({
    text: `${d ? `${d}d` : ''}${h ? `${h}h` : ''}${m ? `${m}m` : ''}${s ? `${s}s` : ''}`,
    ms: (((d * 24 + h) * 60 + m) * 60 + s) * 1000,
  }));

const instant = fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2040, 0, 1) });

/** An interval schedule with its grid: every (ms), first fire (ms). */
const scheduleArb = fc
  .tuple(durationArb, fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), fc.option(instant))
  .map(([every, phase, start]) => {
    const offsetMs = Math.floor((phase * every.ms) / 1000) * 1000;
    const offset = `${offsetMs / 1000}s`;
    const schedule: Schedule = {
      type: 'interval',
      every: every.text,
      offset,
      ...(start !== null ? { startAt: new Date(start) } : {}),
    };
    return { schedule, everyMs: every.ms, first: (start ?? 0) + offsetMs };
  });

describe('durations', () => {
  it('read days, hours, minutes and seconds, largest first', () => {
    expect(parseDuration('90m')).toBe(90 * 60_000);
    expect(parseDuration('1h30m')).toBe(90 * 60_000);
    expect(parseDuration('7d')).toBe(7 * 24 * HOUR);
    expect(parseDuration('1d2h3m4s')).toBe(((26 * 60 + 3) * 60 + 4) * 1000);
    for (const bad of ['', '90', 'm', '1m1h', '1.5h', '-1m', '1 h', '1w'])
      expect(parseDuration(bad)).toBeNull();
  });

  it('any duration written in units reads back as its milliseconds', () => {
    fc.assert(
      fc.property(durationArb, ({ text, ms }) => {
        expect(parseDuration(text)).toBe(ms);
      }),
    );
  });

  it.each([
    ['0m', undefined, 'every'],
    ['0s', undefined, 'every'],
    ['ninety', undefined, 'every'],
    ['367d', undefined, 'every'],
    ['1h', '1h', 'offset'],
    ['1h', '90m', 'offset'],
    ['1h', 'soon', 'offset'],
  ])('rejects every %s offset %s naming %s', (every, offset, field) => {
    expect(intervalIssues({ every, offset }).map((i) => i.field)).toEqual([field]);
  });

  it('a request with a bad interval fails naming the schedule field', () => {
    const parsed = createTaskSchema.safeParse({
      name: 'x',
      schedule: { type: 'interval', every: '0m' },
      target: { url: 'https://example.com/' },
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => i.path.join('.'))).toEqual(['schedule.every']);
    expect(MAX_INTERVAL_MS).toBe(366 * 24 * HOUR);
  });
});

describe('interval fire times', () => {
  it('are epoch-aligned with their offset: every 90m at 15 past', () => {
    const s = interval('90m', '15m');
    const fires = fireTimesBetween(s, new Date('2024-05-01T00:00:00Z'), new Date('2024-05-01T06:00:00Z'), 10);
    // 2024-05-01T00:00Z is 19,844 days after the epoch: 952,512 periods of 90 minutes exactly.
    expect(fires.times.map((t) => t.toISOString().slice(11, 16))).toEqual([
      '00:15',
      '01:45',
      '03:15',
      '04:45',
    ]);
  });

  it('count from startAt when given, and never fire before it', () => {
    const s = interval('7d', undefined, '2024-03-04T10:00:00Z');
    expect(firstFireAt(s, new Date('2024-01-01T00:00:00Z'))?.toISOString()).toBe('2024-03-04T10:00:00.000Z');
    expect(nextFireAfter(s, new Date('2024-03-04T10:00:00Z'))?.toISOString()).toBe(
      '2024-03-11T10:00:00.000Z',
    );
    expect(lastFireBefore(s, new Date(0), new Date('2024-03-04T10:00:00Z'))).toBeNull();
  });

  it('ignore daylight saving: every 24h across Berlin’s fall-back stays 24 hours apart', () => {
    const s = interval('24h', undefined, '2024-10-26T07:00:00Z');
    const fires = fireTimesBetween(s, new Date('2024-10-26T00:00:00Z'), new Date('2024-10-29T00:00:00Z'), 5);
    expect(fires.times.map((t) => t.toISOString())).toEqual([
      '2024-10-26T07:00:00.000Z',
      '2024-10-27T07:00:00.000Z',
      '2024-10-28T07:00:00.000Z',
    ]);
  });

  it('the next fire is on the grid, after the instant, and the first such', () => {
    fc.assert(
      fc.property(scheduleArb, instant, ({ schedule, everyMs, first }, after) => {
        const next = nextFireAfter(schedule, new Date(after))!.getTime();
        expect(next).toBeGreaterThan(after);
        expect(next).toBeGreaterThanOrEqual(first);
        expect((next - first) % everyMs).toBe(0);
        // Nothing on the grid lies between: the fire before it is at or before `after`, or before the start.
        expect(next - everyMs <= after || next - everyMs < first).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('consecutive fires are exactly `every` apart, and the last before agrees with the next after', () => {
    fc.assert(
      fc.property(scheduleArb, instant, ({ schedule, everyMs }, from) => {
        const { times } = fireTimesBetween(schedule, new Date(from), new Date(from + 20 * everyMs), 30);
        for (let i = 1; i < times.length; i++)
          expect(times[i]!.getTime() - times[i - 1]!.getTime()).toBe(everyMs);
        const end = from + 20 * everyMs;
        const last = lastFireBefore(schedule, new Date(from), new Date(end));
        expect(last?.getTime() ?? null).toBe(times.length > 0 ? times[times.length - 1]!.getTime() : null);
      }),
      { numRuns: 300 },
    );
  });

  it('the audit implies exactly the planned fire times', () => {
    fc.assert(
      fc.property(scheduleArb, instant, ({ schedule, everyMs, first }, from) => {
        const range = { from: new Date(from), to: new Date(from + 10 * everyMs) };
        const implied = impliedOccurrences(schedule, range, new Date(0))!;
        expect(implied).toEqual(fireTimesBetween(schedule, range.from, range.to, 100).times);
        // Ten periods hold ten fires once the schedule has started.
        if (first <= from) expect(implied).toHaveLength(10);
      }),
      { numRuns: 200 },
    );
  });
});

describe('planning an interval task', () => {
  const limits = { misfireThresholdMs: 60_000, maxCatchUp: 1000, maxPerPass: 1000 };
  const base = { misfirePolicy: 'fire_once' as const, overlapPolicy: 'allow' as const };

  it('after downtime: once for what it missed, all of it, or none, and resumes on the grid', () => {
    fc.assert(
      fc.property(
        scheduleArb.filter((s) => s.everyMs <= 6 * HOUR),
        instant,
        fc.integer({ min: 2, max: 40 }),
        fc.constantFrom('fire_once', 'fire_all', 'skip'),
        ({ schedule, everyMs }, t, missed, misfirePolicy) => {
          const nextFireAt = firstFireAt(schedule, new Date(t))!;
          const now = new Date(nextFireAt.getTime() + missed * everyMs + limits.misfireThresholdMs + 1);
          const plan = planOccurrences(
            { ...base, misfirePolicy, schedule, nextFireAt },
            { now, dueBefore: now, previousRunLive: false },
            limits,
          );
          const missedBefore = now.getTime() - limits.misfireThresholdMs;
          const onGrid = (d: Date) => (d.getTime() - nextFireAt.getTime()) % everyMs === 0;
          expect(plan.fireTimes.every(onGrid)).toBe(true);
          expect(plan.nextFireAt!.getTime()).toBeGreaterThan(now.getTime());
          expect(onGrid(plan.nextFireAt!)).toBe(true);
          const catchUp = plan.fireTimes.filter((d) => d.getTime() < missedBefore);
          const missedCount = Math.ceil((missedBefore - nextFireAt.getTime()) / everyMs);
          expect(catchUp.length).toBe(
            misfirePolicy === 'fire_all' ? missedCount : misfirePolicy === 'fire_once' ? 1 : 0,
          );
          if (misfirePolicy === 'fire_once') {
            expect(catchUp[0]!.getTime()).toBe(
              lastFireBefore(schedule, nextFireAt, new Date(missedBefore))!.getTime(),
            );
          }
          if (misfirePolicy !== 'fire_all') expect(plan.skipped.map((s) => s.reason)).toEqual(['misfire']);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('forbids overlap as for cron: nothing while the previous run is live', () => {
    const schedule = interval('90s');
    const nextFireAt = firstFireAt(schedule, new Date('2024-05-01T12:00:00Z'))!;
    const now = new Date(nextFireAt.getTime() + 1000);
    const plan = planOccurrences(
      { ...base, overlapPolicy: 'forbid', schedule, nextFireAt },
      { now, dueBefore: new Date(now.getTime() + 600_000), previousRunLive: true },
      limits,
    );
    expect(plan.fireTimes).toEqual([]);
    expect(plan.skipped.map((s) => s.reason)).toEqual(['overlap']);
    expect(plan.nextFireAt!.getTime()).toBe(nextFireAt.getTime() + 90_000);
  });
});
