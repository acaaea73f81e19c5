import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

// The CI smoke of the load harness: `pnpm loadtest smoke` as a process (the real command, real
// services, real MariaDB and Cassandra): 3,000 jobs over 20 s, one executor killed -9 mid-run.
// It fails when any occurrence is lost or any effect is applied twice. No timing is asserted.

const CLI = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

it('delivers every occurrence once in effect through an executor kill -9 (loadtest smoke)', {
  timeout: 300_000,
}, async () => {
  const { code, stdout, stderr } = await runCli(['smoke', '--no-report', '--store-prefix', 't_lt']);
  const lines = stdout.trim().split('\n');
  const json = JSON.parse(lines[lines.length - 1] ?? '{}') as {
    scenario: string;
    metrics: Record<string, number>;
  };
  const context = `${stdout}\n--- stderr ---\n${stderr.slice(-4000)}`;
  expect(json.scenario, context).toBe('smoke');
  expect(stderr, context).toMatch(/kill -9 executor-0/);
  expect(json.metrics.expected, context).toBe(3000);
  expect(json.metrics.lost, context).toBe(0);
  expect(json.metrics.duplicates, context).toBe(0);
  expect(json.metrics.delivered, context).toBe(3000);
  expect(json.metrics.unaccounted_jobs, context).toBe(0);
  expect(stdout, context).toMatch(/^verdict: PASS smoke/m);
  expect(code, context).toBe(0);
});
