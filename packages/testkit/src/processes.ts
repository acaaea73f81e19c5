import { spawn } from 'node:child_process';

export interface Finished {
  /** The exit code, or -1 when a signal ended the process. */
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end with `input` on stdin, and gives back what it printed. */
export function runToEnd(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string } = {},
): Promise<Finished> {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  child.stdin.end(options.input ?? '');
  return new Promise((resolve) => child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr })));
}
