import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CpuMeter, pidsMatching, processCpuMs } from '../src/harness/cpu.ts';

// The CPU accounting of peak-vs-bullmq: what /proc says a process spent, per kind.

function burner(cpuMs: number) {
  // Busy for cpuMs of its own CPU time (not wall time), then idle until killed.
  const code = `const s=process.cpuUsage();while((process.cpuUsage(s).user+process.cpuUsage(s).system)/1000<${cpuMs}){}process.stdout.write('done\\n');setInterval(()=>{},1000)`;
  const child = spawn(process.execPath, ['-e', code, '--', 'dsched-cpu-test-burner'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const done = new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  return { child, done };
}

describe('the CPU meter', () => {
  it('reads a process its own CPU time from /proc, and nothing for one that is gone', async () => {
    const { child, done } = burner(400);
    await done;
    const ms = processCpuMs(child.pid!)!;
    expect(ms).toBeGreaterThanOrEqual(350);
    expect(pidsMatching('dsched-cpu-test-burner')).toContain(child.pid);
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    expect(processCpuMs(child.pid!)).toBeUndefined();
  });

  it('charges each kind what its processes spent inside the window only', async () => {
    const idle = burner(0);
    await idle.done;
    const meter = new CpuMeter({
      busy: () => (busy ? [busy.child.pid!] : []),
      idle: () => [idle.child.pid!],
    });
    let busy: ReturnType<typeof burner> | undefined;
    meter.start();
    // started inside the window: all of its time counts
    busy = burner(300);
    await busy.done;
    const { byKind } = meter.stop();
    expect(byKind.busy).toBeGreaterThanOrEqual(250);
    expect(byKind.idle).toBeLessThan(100);
    for (const p of [idle, busy]) p.child.kill('SIGKILL');
  });
});
