import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestKeyspace, type TestKeyspace } from '@dsched/testkit/cassandra';
import { createTestDatabase, type TestDatabase } from '@dsched/testkit/mysql';
import { REPO_ROOT } from '@dsched/testkit/names';
import { type RunningService, startService } from '@dsched/testkit/services';
import { expect } from 'vitest';

// The CLI as a process against task-api and job-api as processes, on the test file's own
// database and keyspace; golden files for what it prints.

export const ADMIN_TOKEN = 'cli-admin-token-0123456789abcdef';
export const CLI_ENTRY = `${REPO_ROOT}packages/cli/src/main.ts`;

export interface Stack {
  db: TestDatabase;
  ks: TestKeyspace;
  taskApi: RunningService;
  jobApi: RunningService;
  configDir: string;
  close(): Promise<void>;
}

export async function startStack(fileUrl: string, env: Record<string, string> = {}): Promise<Stack> {
  const [db, ks] = await Promise.all([createTestDatabase(fileUrl), createTestKeyspace(fileUrl)]);
  const common = {
    DATABASE_URL: db.url,
    CASSANDRA_KEYSPACE: ks.keyspace,
    DSCHED_ADMIN_TOKEN: ADMIN_TOKEN,
    ...env,
  };
  const [taskApi, jobApi] = await Promise.all([
    startService('task-api', common),
    startService('job-api', common),
  ]);
  const configDir = await mkdtemp(join(tmpdir(), 'dsched-cli-'));
  return {
    db,
    ks,
    taskApi,
    jobApi,
    configDir,
    close: async () => {
      await Promise.all([taskApi.stop(), jobApi.stop()]);
      await db.close();
      await ks.close();
    },
  };
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function cliEnv(stack: Stack, env: Record<string, string | undefined> = {}): Record<string, string> {
  const all: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: stack.configDir,
    DSCHED_CONFIG: join(stack.configDir, 'config.json'),
    DSCHED_TASK_API: stack.taskApi.url,
    DSCHED_JOB_API: stack.jobApi.url,
    ...env,
  };
  return Object.fromEntries(Object.entries(all).filter((e): e is [string, string] => e[1] !== undefined));
}

/** Starts `dsched args...`; the caller reads its output as it comes. */
export function spawnCli(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [CLI_ENTRY, ...args], {
    cwd: REPO_ROOT,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/** Runs `dsched args...` to its end. */
export function cli(args: string[], env: Record<string, string>, input?: string): Promise<CliResult> {
  const child = spawnCli(args, env);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  child.stdin!.end(input ?? '');
  return new Promise((resolve) => {
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/**
 * Makes an output comparable across runs: ids become <id1>, <id2>... in order of first
 * appearance, times <time> (unless the command's times are fixed by its flags), keys and
 * secrets <apiKey> and <secret>.
 */
export function normalise(text: string, options: { keepTimes?: boolean } = {}): string {
  const ids = new Map<string, string>();
  let out = text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (id) => {
    if (!ids.has(id)) ids.set(id, `<id${ids.size + 1}>`);
    return ids.get(id)!;
  });
  out = out.replace(/dsk_[A-Za-z0-9_-]+/g, '<apiKey>').replace(/whsec_[A-Za-z0-9+/=]+/g, '<secret>');
  out = out.replace(/"pageToken": "[^"]+"|"nextPageToken": "[^"]+"/g, (m) =>
    m.replace(/: "[^"]+"/, ': "<token>"'),
  );
  if (!options.keepTimes) out = out.replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z?/g, '<time>');
  return out;
}

/** Compares with test/e2e/cli-golden/<name>; UPDATE_GOLDEN=1 rewrites the file instead. */
export async function expectGolden(
  name: string,
  text: string,
  options: { keepTimes?: boolean } = {},
): Promise<void> {
  const path = `${REPO_ROOT}test/e2e/cli-golden/${name}`;
  const actual = normalise(text, options);
  if (process.env.UPDATE_GOLDEN === '1') {
    await writeFile(path, actual);
    return;
  }
  const expected = await readFile(path, 'utf8').catch(
    () => `(no golden file ${name}: run with UPDATE_GOLDEN=1)`,
  );
  expect(actual, `golden ${name}`).toBe(expected);
}
