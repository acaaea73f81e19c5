import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// `pnpm loadtest …` as a process (the real command), for the CI smokes: its exit code and output.

const CLI = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
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

/** The last line of a run's stdout: `{"scenario", "metrics"}`. */
export function resultLine(stdout: string): { scenario: string; metrics: Record<string, number> } {
  const lines = stdout.trim().split('\n');
  return JSON.parse(lines[lines.length - 1] ?? '{}') as { scenario: string; metrics: Record<string, number> };
}
