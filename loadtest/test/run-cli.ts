import { fileURLToPath } from 'node:url';
import { type Finished, runToEnd } from '@dsched/testkit/processes';

// `pnpm loadtest …` as a process (the real command), for the CI smokes: its exit code and output.

const CLI = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export function runCli(args: string[]): Promise<Finished> {
  return runToEnd(process.execPath, [CLI, ...args], { cwd: ROOT });
}

/** The last line of a run's stdout: `{"scenario", "metrics"}`. */
export function resultLine(stdout: string): { scenario: string; metrics: Record<string, number> } {
  const lines = stdout.trim().split('\n');
  return JSON.parse(lines[lines.length - 1] ?? '{}') as { scenario: string; metrics: Record<string, number> };
}
