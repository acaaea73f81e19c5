import { describe, expect, it } from 'vitest';
import { type DueTaskState, planOccurrences } from '../src/decisions/occurrence-plan.ts';
import type { Schedule } from '../src/model.ts';

const everyMinute: Schedule = {
  type: 'cron',
  expression: '* * * * *',
  timezone: 'UTC',
  dst: { repeated: 'first', skipped: 'shift' },
};
const limits = { misfireThresholdMs: 60_000, maxCatchUp: 100, maxPerPass: 100 };
const at = (hhmmss: string) => new Date(`2024-05-01T${hhmmss}.000Z`);
const iso = (ds: Date[]) => ds.map((d) => d.toISOString().slice(11, 19));

function task(overrides: Partial<DueTaskState> = {}): DueTaskState {
  return {
    schedule: everyMinute,
    nextFireAt: at('12:00:00'),
    misfirePolicy: 'fire_once',
    overlapPolicy: 'allow',
    ...overrides,
  };
}

describe('planning one due task', () => {
  it('fires what is due up to the lookahead and moves next_fire_at past it', () => {
    const plan = planOccurrences(
      task(),
      { now: at('12:00:30'), dueBefore: at('12:02:10'), previousRunLive: false },
      limits,
    );
    expect(iso(plan.fireTimes)).toEqual(['12:00:00', '12:01:00', '12:02:00']);
    expect(plan.nextFireAt?.toISOString()).toBe('2024-05-01T12:03:00.000Z');
    expect(plan.skipped).toEqual([]);
  });

  it('stops at the per-pass cap, leaving next_fire_at due for the next batch', () => {
    const plan = planOccurrences(
      task(),
      { now: at('12:00:30'), dueBefore: at('12:09:00'), previousRunLive: false },
      { ...limits, maxPerPass: 2 },
    );
    expect(iso(plan.fireTimes)).toEqual(['12:00:00', '12:01:00']);
    expect(plan.nextFireAt?.toISOString()).toBe('2024-05-01T12:02:00.000Z');
  });

  it('treats lateness within the threshold as late, not missed', () => {
    const plan = planOccurrences(
      task({ misfirePolicy: 'skip' }),
      { now: at('12:00:50'), dueBefore: at('12:00:50'), previousRunLive: false },
      limits,
    );
    expect(iso(plan.fireTimes)).toEqual(['12:00:00']);
  });

  it.each([
    // 12:09 is late by exactly the threshold: late, not missed.
    ['fire_once', ['12:08:00', '12:09:00', '12:10:00'], [['12:00:00', '12:08:00']]],
    ['skip', ['12:09:00', '12:10:00'], [['12:00:00', '12:09:00']]],
    ['fire_all', ['12:00:00', '12:01:00', '12:02:00', '12:09:00', '12:10:00'], [['12:03:00', '12:09:00']]],
  ] as const)('after downtime, %s fires %j and skips %j', (policy, fires, skips) => {
    const plan = planOccurrences(
      task({ misfirePolicy: policy }),
      { now: at('12:10:00'), dueBefore: at('12:10:00'), previousRunLive: false },
      { ...limits, maxCatchUp: 3 },
    );
    expect(iso(plan.fireTimes)).toEqual(fires);
    expect(plan.skipped.map((s) => [s.from, s.to].map((d) => d.toISOString().slice(11, 19)))).toEqual(skips);
    expect(plan.skipped.every((s) => s.reason === 'misfire')).toBe(true);
  });

  it('forbid: one run at most, none while the previous one is live, never ahead of time', () => {
    const due = { now: at('12:03:30'), dueBefore: at('12:05:00') };
    const lenient = { ...limits, misfireThresholdMs: 600_000 };
    const free = planOccurrences(
      task({ overlapPolicy: 'forbid' }),
      { ...due, previousRunLive: false },
      lenient,
    );
    expect(iso(free.fireTimes)).toEqual(['12:00:00']);
    expect(free.nextFireAt?.toISOString()).toBe('2024-05-01T12:04:00.000Z');
    expect(free.skipped).toMatchObject([{ from: at('12:01:00'), to: at('12:04:00'), reason: 'overlap' }]);
    const busy = planOccurrences(
      task({ overlapPolicy: 'forbid' }),
      { ...due, previousRunLive: true },
      lenient,
    );
    expect(busy.fireTimes).toEqual([]);
    expect(busy.skipped).toMatchObject([{ from: at('12:00:00'), to: at('12:04:00'), reason: 'overlap' }]);
  });

  it('exhausts a once schedule', () => {
    const once: Schedule = { type: 'once', at: at('12:00:00') };
    const plan = planOccurrences(
      task({ schedule: once }),
      { now: at('12:00:01'), dueBefore: at('12:00:11'), previousRunLive: false },
      limits,
    );
    expect(iso(plan.fireTimes)).toEqual(['12:00:00']);
    expect(plan.nextFireAt).toBeNull();
  });
});
