import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nextFireAfter } from '../src/calendar/schedule.ts';
import { type DueTaskState, planOccurrences } from '../src/decisions/occurrence-plan.ts';
import type { Schedule } from '../src/model.ts';

// Properties of one scheduler pass over one due task, for any interval or cron schedule, policy,
// clock and limits: every occurrence from the task's next_fire_at up to the new one is either a
// job or in a skipped range (none vanishes; the audit's `missing` would count it), fire times are
// on the schedule, in order, within the horizon and the limits, and `forbid` never starts a
// second run.

const T0 = Date.UTC(2026, 2, 28, 0, 0); // the weekend Europe's clocks move
const schedules: fc.Arbitrary<Schedule> = fc.oneof(
  fc.record({ every: fc.integer({ min: 1, max: 7200 }), offset: fc.nat(600) }).map(({ every, offset }) => ({
    type: 'interval' as const,
    every: `${every}s`,
    ...(offset < every ? { offset: `${offset}s` } : {}),
  })),
  fc
    .constantFrom('* * * * *', '*/7 * * * *', '30 2 * * *', '0 */3 * * *', '15,45 * * * *')
    .chain((expression) =>
      fc.record({
        type: fc.constant('cron' as const),
        expression: fc.constant(expression),
        timezone: fc.constantFrom('UTC', 'Europe/Berlin', 'America/New_York'),
        dst: fc.record({
          repeated: fc.constantFrom('first' as const, 'last' as const, 'both' as const),
          skipped: fc.constantFrom('shift' as const, 'skip' as const),
        }),
      }),
    ),
);

const cases = schedules.chain((schedule) =>
  fc.record({
    schedule: fc.constant(schedule),
    /** The task's next_fire_at: a real fire time of the schedule after T0 + k. */
    start: fc.integer({ min: 0, max: 86_400_000 }),
    /** now, as an offset after that fire time (may be far past it: a misfire). */
    late: fc.integer({ min: -3_600_000, max: 2 * 86_400_000 }),
    lookahead: fc.integer({ min: 0, max: 3_600_000 }),
    misfirePolicy: fc.constantFrom('fire_once' as const, 'fire_all' as const, 'skip' as const),
    overlapPolicy: fc.constantFrom('allow' as const, 'forbid' as const),
    previousRunLive: fc.boolean(),
    limits: fc.record({
      misfireThresholdMs: fc.integer({ min: 1000, max: 3_600_000 }),
      maxCatchUp: fc.integer({ min: 1, max: 50 }),
      maxPerPass: fc.integer({ min: 1, max: 50 }),
    }),
  }),
);

describe('planOccurrences, for any schedule, policy and clock', () => {
  it('accounts for every occurrence up to the new next_fire_at, on the schedule, in order, within limits', () => {
    fc.assert(
      fc.property(cases, (c) => {
        const first = nextFireAfter(c.schedule, new Date(T0 + c.start));
        if (first === null) return;
        const task: DueTaskState = {
          schedule: c.schedule,
          nextFireAt: first,
          misfirePolicy: c.misfirePolicy,
          overlapPolicy: c.overlapPolicy,
        };
        const now = new Date(first.getTime() + c.late);
        const dueBefore = new Date(now.getTime() + c.lookahead);
        const plan = planOccurrences(task, { now, dueBefore, previousRunLive: c.previousRunLive }, c.limits);
        const fired = plan.fireTimes.map((d) => d.getTime());

        // In order, no repeat, each a fire time of the schedule.
        for (let i = 1; i < fired.length; i++) expect(fired[i]).toBeGreaterThan(fired[i - 1]!);
        for (const t of fired) expect(nextFireAfter(c.schedule, new Date(t - 1))?.getTime()).toBe(t);
        // Within the horizon and the limits.
        const horizon = c.overlapPolicy === 'forbid' ? now : dueBefore;
        for (const t of fired) expect(t).toBeLessThanOrEqual(horizon.getTime());
        const catchUp = c.misfirePolicy === 'fire_all' ? c.limits.maxCatchUp : 1;
        expect(fired.length).toBeLessThanOrEqual(c.limits.maxPerPass + catchUp);
        if (c.overlapPolicy === 'forbid') expect(fired.length).toBeLessThanOrEqual(c.previousRunLive ? 0 : 1);
        // next_fire_at never moves back, and is past everything planned.
        if (plan.nextFireAt !== null) {
          expect(plan.nextFireAt.getTime()).toBeGreaterThanOrEqual(first.getTime());
          for (const t of fired) expect(plan.nextFireAt.getTime()).toBeGreaterThan(t);
        }
        // Every occurrence in [first, next) is a job or skipped, and never both.
        const end = plan.nextFireAt?.getTime() ?? horizon.getTime() + 1;
        const inSkipped = (t: number) =>
          plan.skipped.some((r) => r.from.getTime() <= t && t < r.to.getTime());
        let walked = 0;
        for (let t: Date | null = first; t !== null && t.getTime() < end && walked < 5000; walked++) {
          const ms = t.getTime();
          const isFired = fired.includes(ms);
          expect(isFired !== inSkipped(ms), `occurrence ${t.toISOString()} fired=${isFired}`).toBe(true);
          t = nextFireAfter(c.schedule, t);
        }
      }),
      { numRuns: 300, seed: 18 },
    );
  });
});
