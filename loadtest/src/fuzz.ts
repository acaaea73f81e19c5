import { mkdirSync } from 'node:fs';
import { runSchemathesis } from '@dsched/testkit/schemathesis';
import { table } from './report/console.ts';

// `pnpm loadtest fuzz [--examples N] [--seed N]`: the long schemathesis run, the same harness as
// CI's bounded one (test/fuzz/schemathesis.test.ts) with many more examples and, unless given, a
// fresh seed (printed, so a failure replays with --seed). Not a load scenario: nothing is counted
// lost or duplicated, so it sits beside `faults` rather than in SCENARIOS. JUnit reports go to
// loadtest/results/tmp/fuzz-<seed>/. Exits 1 when any target had a failure.

export async function runFuzz(args: string[]): Promise<never> {
  let examples = 1000;
  let seed = Math.floor(Math.random() * 2 ** 31);
  for (let i = 0; i < args.length; i += 2) {
    const value = Number(args[i + 1]);
    if (args[i] === '--examples' && Number.isSafeInteger(value) && value > 0) examples = value;
    else if (args[i] === '--seed' && Number.isSafeInteger(value) && value >= 0) seed = value;
    else {
      process.stderr.write('usage: pnpm loadtest fuzz [--examples N] [--seed N]\n');
      process.exit(2);
    }
  }
  const reportDir = new URL(`../results/tmp/fuzz-${seed}/`, import.meta.url).pathname;
  mkdirSync(reportDir, { recursive: true });
  const started = Date.now();
  const log = (msg: string) =>
    process.stderr.write(`[${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s] ${msg}\n`);
  const results = await runSchemathesis({
    examples,
    seed,
    storeUrl: new URL('./fuzz.ts', import.meta.url).href,
    log,
    reportDir,
  });
  for (const r of results) if (r.exitCode !== 0) process.stdout.write(`\n=== ${r.name} ===\n${r.output}\n`);
  const rows: [string, string][] = results.map((r) => [
    r.name,
    `${r.exitCode === 0 ? 'PASS' : 'FAIL'}: ${r.cases} cases, ${r.operations} operations, ${r.seconds.toFixed(0)} s`,
  ]);
  process.stdout.write(
    `\nschemathesis, ${examples} examples per operation, seed ${seed} (reports: ${reportDir})\n${table(rows)}\n`,
  );
  process.exit(results.every((r) => r.exitCode === 0) ? 0 : 1);
}
