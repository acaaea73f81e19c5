import { describe, expect, it } from 'vitest';
import { auditOccurrences, impliedOccurrences } from '../src/decisions/audit.ts';
import type { Schedule } from '../src/model.ts';

const hourly: Schedule = {
  type: 'cron',
  expression: '0 * * * *',
  timezone: 'UTC',
  dst: { repeated: 'first', skipped: 'shift' },
};
const at = (h: number) => new Date(Date.UTC(2026, 10, 30, h));

describe('implied occurrences', () => {
  it('lists fire times in [from, to), not before the task existed', () => {
    const got = impliedOccurrences(hourly, { from: at(0), to: at(5) }, at(2));
    expect(got).toEqual([at(2), at(3), at(4)]);
  });

  it('refuses a range with more occurrences than the cap', () => {
    expect(impliedOccurrences(hourly, { from: at(0), to: at(20) }, at(0), 5)).toBeNull();
  });
});

describe('classifying occurrences', () => {
  it('tells run, skipped, not yet reached and missing apart', () => {
    const entries = auditOccurrences({
      occurrences: [at(1), at(2), at(3), at(4), at(5), at(6)],
      jobs: [
        { id: 'a', scheduledFor: at(1), state: 'succeeded', kind: 'scheduled' },
        { id: 'b', scheduledFor: at(2), state: 'dead', kind: 'scheduled' },
        { id: 'bf', scheduledFor: at(2), state: 'succeeded', kind: 'backfill' },
        { id: 't', scheduledFor: at(3), state: 'succeeded', kind: 'trigger' },
      ],
      skips: [{ from: at(4), to: at(4), reason: 'overlap' }],
      nextFireAt: at(6),
      now: at(5),
    });
    expect(entries.map((e) => [e.status, e.jobId ?? e.reason ?? null])).toEqual([
      ['succeeded', 'a'],
      ['dead', 'b'], // the scheduled job speaks for its occurrence, not the backfill
      ['missing', null], // a trigger-now run is not the schedule's occurrence
      ['skipped', 'overlap'],
      ['missing', null],
      ['pending', null], // the scheduler has not reached it yet
    ]);
  });

  it('lets the job that ran speak for an instant over one an edit cancelled', () => {
    const jobs = [
      { id: 'old', scheduledFor: at(1), state: 'cancelled' as const, kind: 'scheduled' },
      { id: 'new', scheduledFor: at(1), state: 'succeeded' as const, kind: 'scheduled' },
    ];
    for (const order of [jobs, [...jobs].reverse()]) {
      const [entry] = auditOccurrences({
        occurrences: [at(1)],
        jobs: order,
        skips: [],
        nextFireAt: at(2),
        now: at(2),
      });
      expect(entry).toMatchObject({ status: 'succeeded', jobId: 'new' });
    }
  });
});
