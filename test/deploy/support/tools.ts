import { execFileSync, spawnSync } from 'node:child_process';
import { REPO_ROOT } from '@dsched/testkit/names';

// The deploy checks' tools, installed by scripts/deploy-tools into ~/.cache/dsched (scripts/test.sh
// runs `scripts/deploy-tools ensure` first). A missing tool fails the test naming that command.

export type Tool = 'helm' | 'kustomize' | 'promtool' | 'kubernetes-validate' | 'compose-schema';

export function toolPath(tool: Tool): string {
  const result = spawnSync('bash', [`${REPO_ROOT}scripts/deploy-tools`, 'path', tool], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(result.stderr.trim() || `deploy-tools path ${tool} failed`);
  return result.stdout.trim();
}

export interface RunResult {
  status: number;
  stdout: string;
  stderr: string;
}

/** Runs a tool from the repository root; never throws on a non-zero exit. */
export function run(tool: Tool, args: string[], options: { cwd?: string } = {}): RunResult {
  const result = spawnSync(toolPath(tool), args, {
    cwd: options.cwd ?? REPO_ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error) throw result.error;
  return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/** Runs a tool and returns its standard output, throwing with its output when it fails. */
export function runOk(tool: Tool, args: string[], options: { cwd?: string } = {}): string {
  const r = run(tool, args, options);
  if (r.status !== 0)
    throw new Error(`${tool} ${args.join(' ')} exited ${r.status}:\n${r.stderr}${r.stdout}`);
  return r.stdout;
}

export function git(args: string[]): string {
  return execFileSync('git', args, { cwd: REPO_ROOT, encoding: 'utf8' });
}
