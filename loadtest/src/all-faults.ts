import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { table } from './report/console.ts';
import { FAULT_SCENARIOS } from './scenarios/index.ts';

// `pnpm loadtest faults`: every fault scenario, one process each (a scenario that dies cannot
// take the others with it), then one summary: the verdict line of each. Exits non-zero when any
// scenario did not pass.

export async function runAllFaults(args: string[]): Promise<never> {
  const cli = fileURLToPath(new URL('./cli.ts', import.meta.url));
  const rows: [string, string][] = [];
  let worst = 0;
  for (const s of FAULT_SCENARIOS) {
    process.stderr.write(`\n=== ${s.name} ===\n`);
    const res = spawnSync(process.execPath, [cli, s.name, ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    process.stdout.write(res.stdout ?? '');
    const verdict =
      (res.stdout ?? '').split('\n').find((l) => l.startsWith('verdict: ')) ??
      `no verdict (exit ${res.status})`;
    rows.push([s.name, verdict.replace(/^verdict: /, '')]);
    worst = Math.max(worst, res.status ?? 2);
  }
  process.stdout.write(`\nfault scenarios\n${table(rows)}\n`);
  process.exit(worst);
}
