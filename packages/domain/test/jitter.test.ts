import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jitteredRunAt, jitterOffsetMs, MAX_JITTER_S } from '../src/calendar/jitter.ts';
import { newId } from '../src/ids.ts';
import { createTaskSchema } from '../src/index.ts';

// Jitter is a hash of (task id, nominal time), spread uniformly over [t, t + jitterS): in its
// window, the same for every replica and after every restart, and uniform enough that a 09:00
// peak of windowed tasks spreads evenly over the window.

const task = fc.uuid({ version: 7 });
const nominal = fc.date({
  min: new Date('2000-01-01T00:00:00Z'),
  max: new Date('2040-01-01T00:00:00Z'),
  noInvalidDate: true,
});
const window = fc.integer({ min: 1, max: MAX_JITTER_S });

describe('jitter', () => {
  it('stays in [t, t + jitterS), on a whole millisecond', () => {
    fc.assert(
      fc.property(task, nominal, window, (id, at, jitterS) => {
        const runAt = jitteredRunAt(id, at, jitterS).getTime();
        expect(runAt).toBeGreaterThanOrEqual(at.getTime());
        expect(runAt).toBeLessThan(at.getTime() + jitterS * 1000);
        expect(Number.isInteger(runAt)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('is none without a window', () => {
    fc.assert(
      fc.property(task, nominal, (id, at) => {
        expect(jitteredRunAt(id, at, 0).getTime()).toBe(at.getTime());
      }),
    );
  });

  it('is the same on every call for the same task and occurrence', () => {
    fc.assert(
      fc.property(task, nominal, window, (id, at, jitterS) => {
        expect(jitterOffsetMs(id, new Date(at.getTime()), jitterS)).toBe(jitterOffsetMs(id, at, jitterS));
      }),
    );
  });

  it('is the same in another process (a second scheduler replica, or this one restarted)', () => {
    const inputs = Array.from({ length: 50 }, (_, i) => ({
      id: newId(Date.UTC(2024, 0, 1) + i),
      at: Date.UTC(2024, 4, 1, 9) + i * 60_000,
      jitterS: 1 + i * 37,
    }));
    const here = inputs.map((x) => jitterOffsetMs(x.id, new Date(x.at), x.jitterS));
    const module = new URL('../src/calendar/jitter.ts', import.meta.url).href;
    const script = `const { jitterOffsetMs } = await import(${JSON.stringify(module)});
      const inputs = ${JSON.stringify(inputs)};
      console.log(JSON.stringify(inputs.map((x) => jitterOffsetMs(x.id, new Date(x.at), x.jitterS))));`;
    const there = JSON.parse(
      execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }),
    );
    expect(there).toEqual(here);
    // Not all the same either: the offsets depend on their inputs.
    expect(new Set(here).size).toBeGreaterThan(45);
  });

  it('spreads 10,000 occurrences uniformly over the window (χ², 20 bins)', () => {
    // 100 tasks of a 09:00 peak, each over 100 days: 10,000 occurrences in a 30 s window.
    const jitterS = 30;
    const bins = new Array<number>(20).fill(0);
    for (let t = 0; t < 100; t++) {
      const id = newId(Date.UTC(2024, 0, 1) + t * 1000);
      for (let day = 0; day < 100; day++) {
        const offset = jitterOffsetMs(id, new Date(Date.UTC(2024, 0, 1 + day, 9)), jitterS);
        bins[Math.floor((offset / (jitterS * 1000)) * bins.length)]! += 1;
      }
    }
    const expected = 10_000 / bins.length;
    const chi2 = bins.reduce((sum, n) => sum + (n - expected) ** 2 / expected, 0);
    // 19 degrees of freedom: P(χ² > 43.82) = 0.001 for a uniform spread.
    expect(chi2).toBeLessThan(43.82);
    expect(bins.reduce((a, b) => a + b, 0)).toBe(10_000);
  });

  it('a negative or fractional window is refused naming jitterS', () => {
    for (const jitterS of [-1, 1.5, MAX_JITTER_S + 1]) {
      const parsed = createTaskSchema.safeParse({
        name: 'x',
        schedule: { type: 'cron', expression: '0 9 * * *' },
        target: { url: 'https://example.com/' },
        jitterS,
      });
      expect(parsed.error?.issues.map((i) => i.path.join('.'))).toEqual(['jitterS']);
    }
  });
});
