import { runAllFaults } from './all-faults.ts';
import { runFuzz } from './fuzz.ts';
import { type FleetProfile, isFleetProfile } from './harness/fleet.ts';
import { Run, type RunResult } from './harness/run.ts';
import { isTopology, type Topology, topologyFromEnv } from './harness/vitess-cluster.ts';
import { printResult } from './report/console.ts';
import { writeReport } from './report/report.ts';
import { SCENARIOS } from './scenarios/index.ts';

// pnpm loadtest <scenario> [--<knob> N]... [--env NAME=VALUE]... [--concurrency N] [--no-report]
//                          [--store-prefix NAME] (the run's database/keyspace prefix; default dsched_lt)
//                          [--profile ha|throughput] (the fleet's process counts; default ha)
//                          [--topology single|vitess] (MySQL: one server, or the local Vitess
//                          cluster of scripts/vitess cluster; default DSCHED_MYSQL_TOPOLOGY or single)
//
// Exit code: 0 PASS, 1 FAIL (a no-loss or no-duplicate check failed), 3 INCOMPLETE (passed what it
// could check; a feature it needs is not on this branch yet), 4 EXPECTED-LOSS (it lost only what
// the configuration it was asked for is known to lose: `mysql-failover --async 1 --cut-link 1`),
// 2 usage or harness error.

function usage(): never {
  process.stderr.write(
    `usage: pnpm loadtest <scenario> [--<knob> N] [--env NAME=VALUE] [--concurrency N] [--profile ha|throughput] [--topology single|vitess] [--no-report]\n       pnpm loadtest faults [options]   (every fault scenario in turn, then a summary)\n       pnpm loadtest fuzz [--examples N] [--seed N]   (schemathesis against both APIs, long)\n\nscenarios:\n${SCENARIOS.map(
      (s) =>
        `  ${s.name.padEnd(22)} ${s.summary}${
          s.knobs
            ? ` (${Object.entries(s.knobs)
                .map(([k, v]) => `--${k} ${v}`)
                .join(' ')})`
            : ''
        }`,
    ).join('\n')}\n`,
  );
  process.exit(2);
}

const [name, ...rest] = process.argv.slice(2);
if (name === 'faults') await runAllFaults(rest);
if (name === 'fuzz') await runFuzz(rest);
const scenario = SCENARIOS.find((s) => s.name === name || (name !== undefined && s.aliases?.includes(name)));
if (!scenario) usage();
const knobs: Record<string, number> = {};
const env: Record<string, string> = {};
let concurrency = 64;
let report = true;
let storePrefix: string | undefined;
let profile: FleetProfile | undefined;
let topology: Topology = topologyFromEnv();
for (let i = 0; i < rest.length; i++) {
  const arg = rest[i] ?? '';
  const value = rest[i + 1];
  if (arg === '--no-report') report = false;
  else if (arg === '--env' && value?.includes('=')) {
    const at = value.indexOf('=');
    env[value.slice(0, at)] = value.slice(at + 1);
    i++;
  } else if (arg === '--store-prefix' && value && /^[a-z][a-z0-9_]{0,20}$/.test(value)) {
    storePrefix = value;
    i++;
  } else if (arg === '--profile' && value && isFleetProfile(value)) {
    profile = value;
    i++;
  } else if (arg === '--topology' && value && isTopology(value)) {
    topology = value;
    i++;
  } else if (arg === '--concurrency' && value) {
    concurrency = Number(value);
    i++;
  } else if (arg.startsWith('--') && value !== undefined && Number.isFinite(Number(value))) {
    knobs[arg.slice(2)] = Number(value);
    i++;
  } else usage();
}

const started = Date.now();
const log = (msg: string) =>
  process.stderr.write(`[${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s] ${msg}\n`);
const run = new Run({
  scenario: scenario.name,
  knobs,
  env,
  concurrency,
  log,
  ...(storePrefix ? { storePrefix } : {}),
  ...(profile ? { profile } : {}),
  topology,
});
let result: RunResult;
try {
  result = run.judge(await scenario.run(run));
} catch (err) {
  log(`harness error: ${(err as Error).stack ?? String(err)}`);
  log(`logs: ${run.scratch}logs/`);
  await run.teardown();
  process.exit(2);
}
await run.teardown();
if (report) {
  const where = await writeReport(result, scenario.summary);
  log(`report: ${where}`);
}
printResult(result, (s) => process.stdout.write(`${s}\n`));
process.exit({ PASS: 0, FAIL: 1, INCOMPLETE: 3, 'EXPECTED-LOSS': 4 }[result.verdict]);
