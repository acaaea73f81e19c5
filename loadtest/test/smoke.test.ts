import { expect, it } from 'vitest';
import { resultLine, runCli } from './run-cli.ts';

// The CI smoke of the load harness: `pnpm loadtest smoke` as a process (the real command, real
// services, real MariaDB and Cassandra): 3,000 jobs over 20 s, one executor killed -9 mid-run.
// It fails when any occurrence is lost or any effect is applied twice. No timing is asserted.

it('delivers every occurrence once in effect through an executor kill -9 (loadtest smoke)', {
  timeout: 300_000,
}, async () => {
  const { code, stdout, stderr } = await runCli(['smoke', '--no-report', '--store-prefix', 't_lt']);
  const json = resultLine(stdout);
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
