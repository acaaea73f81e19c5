import { describe, expect, it } from 'vitest';
import { previewOccurrences } from '../src/calendar/occurrence-preview.ts';
import { nextFireAfter } from '../src/calendar/schedule.ts';
import type { DstPolicy, Schedule } from '../src/model.ts';

// The fire-time preview: its fires are the scheduler's own fire times, and the DST cases are
// marked on the real 2026 transitions of Europe/Berlin (spring forward 29 March 01:00 UTC,
// 02:00 -> 03:00; fall back 25 October 01:00 UTC, 03:00 -> 02:00).

function cron(expression: string, dst: Partial<DstPolicy> = {}, timezone = 'Europe/Berlin'): Schedule {
  return { type: 'cron', expression, timezone, dst: { repeated: 'first', skipped: 'shift', ...dst } };
}

const brief = (o: ReturnType<typeof previewOccurrences>) =>
  o.map((e) => [e.at, e.localTime, e.utcOffset, e.fires, e.dst ?? '-']);

describe('previewOccurrences', () => {
  it('marks the spring-forward shift at the first instant after the gap', () => {
    const out = previewOccurrences(cron('30 2 * * *'), new Date('2026-03-27T00:00:00Z'), 4);
    expect(brief(out)).toEqual([
      ['2026-03-27T01:30:00.000Z', '2026-03-27T02:30:00', '+01:00', true, '-'],
      ['2026-03-28T01:30:00.000Z', '2026-03-28T02:30:00', '+01:00', true, '-'],
      ['2026-03-29T01:00:00.000Z', '2026-03-29T03:00:00', '+02:00', true, 'shifted'],
      ['2026-03-30T00:30:00.000Z', '2026-03-30T02:30:00', '+02:00', true, '-'],
    ]);
    expect(out[2]!.note).toContain('02:30:00 does not exist on 2026-03-29');
  });

  it('lists the wall time a skip policy leaves out, without counting it', () => {
    const out = previewOccurrences(
      cron('30 2 * * *', { skipped: 'skip' }),
      new Date('2026-03-28T00:00:00Z'),
      2,
    );
    expect(brief(out)).toEqual([
      ['2026-03-28T01:30:00.000Z', '2026-03-28T02:30:00', '+01:00', true, '-'],
      ['2026-03-29T01:00:00.000Z', '2026-03-29T02:30:00', '+01:00', false, 'skipped'],
      ['2026-03-30T00:30:00.000Z', '2026-03-30T02:30:00', '+02:00', true, '-'],
    ]);
  });

  it('marks the repeated wall time and the pass the policy does not fire', () => {
    const from = new Date('2026-10-24T12:00:00Z');
    expect(brief(previewOccurrences(cron('30 2 * * *'), from, 2))).toEqual([
      ['2026-10-25T00:30:00.000Z', '2026-10-25T02:30:00', '+02:00', true, 'repeated'],
      ['2026-10-25T01:30:00.000Z', '2026-10-25T02:30:00', '+01:00', false, 'skipped'],
      ['2026-10-26T01:30:00.000Z', '2026-10-26T02:30:00', '+01:00', true, '-'],
    ]);
    expect(brief(previewOccurrences(cron('30 2 * * *', { repeated: 'last' }), from, 2))).toEqual([
      ['2026-10-25T00:30:00.000Z', '2026-10-25T02:30:00', '+02:00', false, 'skipped'],
      ['2026-10-25T01:30:00.000Z', '2026-10-25T02:30:00', '+01:00', true, 'repeated'],
      ['2026-10-26T01:30:00.000Z', '2026-10-26T02:30:00', '+01:00', true, '-'],
    ]);
    expect(brief(previewOccurrences(cron('30 2 * * *', { repeated: 'both' }), from, 2))).toEqual([
      ['2026-10-25T00:30:00.000Z', '2026-10-25T02:30:00', '+02:00', true, 'repeated'],
      ['2026-10-25T01:30:00.000Z', '2026-10-25T02:30:00', '+01:00', true, 'repeated'],
    ]);
  });

  it('an interval schedule fires in both passes of the repeated hour and is never shifted', () => {
    const out = previewOccurrences(cron('*/30 * * * *'), new Date('2026-10-25T00:00:00Z'), 4);
    expect(brief(out)).toEqual([
      ['2026-10-25T00:00:00.000Z', '2026-10-25T02:00:00', '+02:00', true, 'repeated'],
      ['2026-10-25T00:30:00.000Z', '2026-10-25T02:30:00', '+02:00', true, 'repeated'],
      ['2026-10-25T01:00:00.000Z', '2026-10-25T02:00:00', '+01:00', true, 'repeated'],
      ['2026-10-25T01:30:00.000Z', '2026-10-25T02:30:00', '+01:00', true, 'repeated'],
    ]);
    const spring = previewOccurrences(cron('*/30 * * * *'), new Date('2026-03-29T00:30:00Z'), 3);
    expect(spring.map((e) => [e.localTime, e.dst ?? '-'])).toEqual([
      ['2026-03-29T01:30:00', '-'],
      ['2026-03-29T03:00:00', '-'],
      ['2026-03-29T03:30:00', '-'],
    ]);
  });

  it('its fires are exactly the scheduler’s fire times, through a year of transitions', () => {
    const schedules = [
      cron('30 2 * * *'),
      cron('30 2 * * *', { repeated: 'last', skipped: 'skip' }),
      cron('0 1,2,3 * * 0', { repeated: 'both' }),
      cron('15 1 * * *', {}, 'America/New_York'),
      cron('0 2 * * *', {}, 'Australia/Lord_Howe'),
    ];
    for (const s of schedules) {
      const from = new Date('2026-01-01T00:00:00Z');
      const fires = previewOccurrences(s, from, 400).filter((e) => e.fires);
      const expected: string[] = [];
      let t = nextFireAfter(s, new Date(from.getTime() - 1));
      while (t !== null && expected.length < 400) {
        expected.push(t.toISOString());
        t = nextFireAfter(s, t);
      }
      expect(fires.map((e) => e.at)).toEqual(expected);
    }
  });

  it('an interval schedule previews its grid in UTC, unmarked, as the scheduler fires it', () => {
    const every: Schedule = { type: 'interval', every: '15m' };
    const from = new Date('2026-10-25T00:50:00Z');
    const out = previewOccurrences(every, from, 3);
    const expected: string[] = [];
    let t = nextFireAfter(every, new Date(from.getTime() - 1));
    while (t !== null && expected.length < 3) {
      expected.push(t.toISOString());
      t = nextFireAfter(every, t);
    }
    expect(out.map((e) => e.at)).toEqual(expected);
    expect(out.every((e) => e.fires && e.dst === undefined && e.utcOffset === '+00:00')).toBe(true);
  });

  it('a once schedule previews its time unless it is past', () => {
    const once: Schedule = { type: 'once', at: new Date('2026-05-01T10:00:00Z') };
    expect(brief(previewOccurrences(once, new Date('2026-04-01T00:00:00Z'), 5))).toEqual([
      ['2026-05-01T10:00:00.000Z', '2026-05-01T10:00:00', '+00:00', true, '-'],
    ]);
    expect(previewOccurrences(once, new Date('2026-06-01T00:00:00Z'), 5)).toEqual([]);
  });
});
