import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { eventually, PARENT_WATCH } from '../src/services.ts';

// A service a test started ends when the runner that started it dies without cleaning up: here a
// stand-in runner (a real process) starts a child with the preload, then is killed -9.

/** Running: it exists and is not a zombie (an orphan's exit is reaped by whoever adopted it). */
const alive = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
};

it('a child started with the preload ends when its parent is killed -9', async () => {
  const child = `require('node:child_process').spawn(process.execPath, ['--import', ${JSON.stringify(PARENT_WATCH)}, '-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore', env: { ...process.env, DSCHED_TEST_PARENT_PID: String(process.pid) } }).on('spawn', function () { console.log(this.pid); }); setInterval(() => {}, 1000);`;
  // The environment startService gives a service: none of the test runner's (its NODE_OPTIONS).
  const runner = spawn(process.execPath, ['-e', child], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { PATH: process.env.PATH ?? '' },
  });
  const pid = await new Promise<number>((resolve) =>
    runner.stdout!.once('data', (d: Buffer) => resolve(Number(d.toString()))),
  );
  try {
    expect(alive(pid)).toBe(true);
    runner.kill('SIGKILL');
    await eventually(async () => (alive(pid) ? undefined : true), 10_000, 'the orphaned child to end');
  } finally {
    if (alive(pid)) process.kill(pid, 'SIGKILL');
  }
});
