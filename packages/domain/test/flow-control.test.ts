import { describe, expect, it } from 'vitest';
import {
  admitFlowControlled,
  type FlowCandidate,
  type FlowKeyState,
  rateSpacingMs,
} from '../src/decisions/flow-control.ts';

const jobs = (n: number, c: Partial<FlowCandidate> = {}): FlowCandidate[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `j${i}`,
    key: 'k',
    parallelism: null,
    ratePerSecond: null,
    ...c,
  }));
const state = (s: Partial<FlowKeyState> = {}) =>
  new Map([['k', { locked: true, running: 0, tatMs: null, ...s }]]);

describe('admitFlowControlled', () => {
  it('admits up to parallelism minus what is in flight, and defers the rest', () => {
    const d = admitFlowControlled(jobs(5, { parallelism: 3 }), state({ running: 1 }), 1000, 100);
    expect([...d.admitted]).toEqual(['j0', 'j1']);
    expect([...d.deferredUntil.values()]).toEqual([1100, 1100, 1100]);
  });

  it('spaces a rate-limited key’s starts: one now, the next at its earliest next start', () => {
    const d = admitFlowControlled(jobs(3, { ratePerSecond: 10 }), state(), 5000, 100);
    expect([...d.admitted]).toEqual(['j0']);
    expect(d.tats.get('k')).toBe(5000 + rateSpacingMs(10));
    expect(d.deferredUntil.get('j1')).toBe(5110);
    const later = admitFlowControlled(jobs(1, { ratePerSecond: 10 }), state({ tatMs: 5110 }), 5050, 100);
    expect(later.admitted.size).toBe(0);
  });

  it('never admits more than the rate in any second over a simulated run', () => {
    let tatMs: number | null = null;
    const starts: number[] = [];
    for (let now = 0; now < 10_000; now += 7) {
      const d = admitFlowControlled(jobs(4, { ratePerSecond: 10 }), state({ tatMs }), now, 50);
      if (d.admitted.size > 0) starts.push(now);
      tatMs = d.tats.get('k') ?? tatMs;
    }
    for (const s of starts)
      expect(starts.filter((t) => t >= s && t < s + 1000).length).toBeLessThanOrEqual(10);
    expect(starts.length).toBeGreaterThan(80);
  });

  it('admits nothing for a key another claimer holds', () => {
    const d = admitFlowControlled(jobs(2, { parallelism: 5 }), state({ locked: false }), 0, 100);
    expect(d.admitted.size).toBe(0);
  });
});
