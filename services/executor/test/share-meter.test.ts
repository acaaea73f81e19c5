import { describe, expect, it } from 'vitest';
import { type ClassShares, ShareMeter } from '../src/core/share-meter.ts';

describe('ShareMeter', () => {
  it('ranks tenants into bounded classes and reports dispatch share beside weight share', () => {
    let now = 0;
    const reports: ClassShares[] = [];
    const meter = new ShareMeter(
      10_000,
      () => now,
      (s) => reports.push(s),
    );
    for (let i = 0; i < 90; i++) meter.record('flood', 1);
    for (let q = 0; q < 9; q++) for (let i = 0; i < 1; i++) meter.record(`quiet${q}`, 1);
    expect(meter.classOf('flood')).toBe('other');
    now = 10_000;
    meter.record('flood', 1);
    expect(meter.classOf('flood')).toBe('top1');
    expect(meter.classOf('quiet8')).toBe('other');
    const [r] = reports;
    expect(r!.dispatch.top1).toBeCloseTo(90 / 99);
    expect(r!.weight.top1).toBeCloseTo(1 / 10);
    expect(r!.dispatch.top5 + r!.dispatch.other).toBeCloseTo(9 / 99);
    expect(r!.weight.other).toBeCloseTo(5 / 10);
  });
});
