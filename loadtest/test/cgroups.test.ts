import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CpuGroup, cgroupsAvailable, cpuBetween } from '../src/harness/cgroups.ts';
import { middleThroughput } from '../src/scenarios/shard-linearity.ts';

// shard-linearity's two instruments: a CPU cgroup (v1) that holds a process to its quota and
// accounts what it spent, and the drain's throughput over the middle 80% of the arrivals.

describe('middleThroughput', () => {
  it('counts the calls between the 10th and 90th percentile of arrivals over that span', () => {
    // 1,000 calls, one a millisecond: 800 calls over 800 ms, whatever the stragglers at both ends.
    const arrivals = Array.from({ length: 1000 }, (_, i) => 10_000 + i);
    arrivals[0] = 0;
    arrivals[999] = 1e9;
    const { perS, spanMs } = middleThroughput(arrivals);
    expect(spanMs).toBe(800);
    expect(perS).toBeCloseTo(1000, 0);
  });

  it('is 0 with too few calls to say', () => {
    expect(middleThroughput([1, 2, 3]).perS).toBe(0);
  });
});

describe.skipIf(!cgroupsAvailable() || process.getuid?.() !== 0)('CpuGroup', () => {
  it('holds a busy process to its quota and accounts its CPU', async () => {
    const group = CpuGroup.create(`dsched-test-${process.pid}`, 20);
    const busy = spawn(process.execPath, [
      '-e',
      'const end = Date.now() + 1500; while (Date.now() < end) {}',
    ]);
    try {
      group.add([busy.pid!]);
      expect(group.pids()).toContain(busy.pid);
      const before = group.read();
      const started = Date.now();
      await new Promise((resolve) => busy.on('exit', resolve));
      const spent = cpuBetween(before, group.read());
      const elapsed = Date.now() - started;
      // 2% of a core (below a fair share even on a busy machine): about 20 ms of CPU a second,
      // throttled in most periods. Unlimited, it would have spent up to its 1.5 s of wall time.
      expect(spent.usageMs).toBeLessThan(elapsed * 0.05);
      expect(spent.throttledPeriods).toBeGreaterThan(0);
    } finally {
      busy.kill('SIGKILL');
      group.remove();
    }
  }, 60_000);
});
