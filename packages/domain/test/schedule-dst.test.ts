import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nextFireAfter } from '../src/calendar/schedule.ts';
import type { DstPolicy, Schedule } from '../src/model.ts';

// Property: next-fire computation agrees with a minute-by-minute oracle across real transitions.
// The oracle shares no code with src/: it formats every minute of the window with its own Intl
// formatter, matches the wall clock against its own reading of the minute and hour fields, and
// applies the DST policy by counting how often each wall-clock minute occurs.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Real transitions of 2024 (UTC instants, from the tz database), each with its direction. */
const TRANSITIONS: { zone: string; at: string; kind: 'spring' | 'fall' }[] = [
  { zone: 'Europe/Berlin', at: '2024-03-31T01:00:00Z', kind: 'spring' },
  { zone: 'Europe/Berlin', at: '2024-10-27T01:00:00Z', kind: 'fall' },
  { zone: 'America/New_York', at: '2024-03-10T07:00:00Z', kind: 'spring' },
  { zone: 'America/New_York', at: '2024-11-03T06:00:00Z', kind: 'fall' },
  { zone: 'Australia/Lord_Howe', at: '2024-04-06T15:00:00Z', kind: 'fall' },
  { zone: 'Australia/Lord_Howe', at: '2024-10-05T15:30:00Z', kind: 'spring' },
  { zone: 'Pacific/Chatham', at: '2024-04-06T14:00:00Z', kind: 'fall' },
  { zone: 'Pacific/Chatham', at: '2024-09-28T14:00:00Z', kind: 'spring' },
];

const formatters = new Map<string, Intl.DateTimeFormat>();
function wallClock(zone: string, instant: number): { key: number; hour: number; minute: number } {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    formatters.set(zone, f);
  }
  const p = Object.fromEntries(f.formatToParts(instant).map((x) => [x.type, x.value]));
  const hour = Number(p.hour);
  const minute = Number(p.minute);
  return { key: Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), hour, minute), hour, minute };
}

/** The oracle's own reading of a cron field: `*`, `*\/n`, `a`, `a-b`, `a-b/n`, and lists. */
function fieldValues(field: string, max: number): Set<number> {
  const out = new Set<number>();
  for (const part of field.split(',')) {
    const [range, stepText] = part.split('/');
    const step = stepText ? Number(stepText) : 1;
    let lo: number;
    let hi: number;
    if (range === '*') [lo, hi] = [0, max];
    else if (range!.includes('-')) [lo, hi] = range!.split('-').map(Number) as [number, number];
    else [lo, hi] = [Number(range), stepText ? max : Number(range)];
    for (let v = lo; v <= hi; v += step) out.add(v);
  }
  return out;
}

function oracle(
  minuteField: string,
  hourField: string,
  zone: string,
  dst: DstPolicy,
  w0: number,
  w1: number,
) {
  const minutes = fieldValues(minuteField, 59);
  const hours = fieldValues(hourField, 23);
  const matches = (k: number) =>
    minutes.has(new Date(k).getUTCMinutes()) && hours.has(new Date(k).getUTCHours());
  const byLocal = new Map<number, number[]>();
  const ordered: { t: number; key: number }[] = [];
  for (let t = w0 - 4 * HOUR; t <= w1 + 4 * HOUR; t += MINUTE) {
    const { key } = wallClock(zone, t);
    byLocal.set(key, [...(byLocal.get(key) ?? []), t]);
    ordered.push({ t, key });
  }
  const fires = new Set<number>();
  if (hours.size === 24) {
    // Interval-like: every instant whose wall clock matches.
    for (const { t, key } of ordered) if (matches(key)) fires.add(t);
  } else {
    const first = wallClock(zone, w0 - 3 * HOUR).key;
    const last = wallClock(zone, w1 + 3 * HOUR).key;
    for (let k = first; k <= last; k += MINUTE) {
      if (!matches(k)) continue;
      const instants = byLocal.get(k) ?? [];
      if (instants.length === 1) fires.add(instants[0]!);
      else if (instants.length === 2) {
        if (dst.repeated !== 'last') fires.add(instants[0]!);
        if (dst.repeated !== 'first') fires.add(instants[1]!);
      } else if (instants.length === 0 && dst.skipped === 'shift') {
        // A wall time that never occurs: the first instant whose wall clock is past it.
        const after = ordered.find((o) => o.key > k);
        if (after) fires.add(after.t);
      }
    }
  }
  return [...fires].filter((t) => t >= w0 && t <= w1).sort((a, b) => a - b);
}

function computed(schedule: Schedule, w0: number, w1: number): number[] {
  const out: number[] = [];
  let t = nextFireAfter(schedule, new Date(w0 - 1));
  while (t !== null && t.getTime() <= w1) {
    out.push(t.getTime());
    t = nextFireAfter(schedule, t);
  }
  return out;
}

describe('next fire across real daylight-saving transitions', () => {
  it.each(TRANSITIONS)('the oracle sees an offset change in $zone at $at', ({ zone, at }) => {
    const t = Date.parse(at);
    const before = wallClock(zone, t - HOUR).key - (t - HOUR);
    const after = wallClock(zone, t + HOUR).key - (t + HOUR);
    expect(before).not.toBe(after);
  });

  it('agrees with the minute-by-minute oracle for any fields, zone and policy', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...TRANSITIONS),
        fc.constantFrom('0', '30', '45', '*/15', '*/7', '0,45', '10-50/20', '*', '59', '15-20'),
        fc.constantFrom('*', '1', '2', '3', '1-3', '*/2', '2,3', '0-4', '1,2', '*/3', '22-23,0-3'),
        fc.record({
          repeated: fc.constantFrom('first' as const, 'last' as const, 'both' as const),
          skipped: fc.constantFrom('shift' as const, 'skip' as const),
        }),
        fc.integer({ min: -3 * 60, max: 3 * 60 }),
        (transition, minuteField, hourField, dst, shiftMinutes) => {
          const center = Date.parse(transition.at) + shiftMinutes * MINUTE;
          const w0 = center - 3 * HOUR;
          const w1 = center + 3 * HOUR;
          const schedule: Schedule = {
            type: 'cron',
            expression: `${minuteField} ${hourField} * * *`,
            timezone: transition.zone,
            dst,
          };
          const got = computed(schedule, w0, w1).map((t) => new Date(t).toISOString());
          const want = oracle(minuteField, hourField, transition.zone, dst, w0, w1).map((t) =>
            new Date(t).toISOString(),
          );
          expect(got).toEqual(want);
        },
      ),
      { numRuns: 400 },
    );
  });
});
