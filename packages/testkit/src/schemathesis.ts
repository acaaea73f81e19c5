import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { createTestKeyspace } from './cassandra.ts';
import { startFleet } from './fleet.ts';
import { createTestDatabase } from './mysql.ts';
import { REPO_ROOT } from './names.ts';

// schemathesis (PyPI, a tool nobody here wrote) against the two APIs as processes on the real
// MariaDB and Cassandra: task-api as a tenant and, for /v1/admin, as the operator; job-api as a
// tenant. `--checks all`, the stateful phase following the links the documents declare, a seed so
// a run can be replayed. Used by the bounded run in CI (test/fuzz/schemathesis.test.ts) and the
// long one (`pnpm loadtest fuzz`). scripts/lib/apt.sh (dsched_ensure_schemathesis) installs it.

export const SCHEMATHESIS_VERSION = '4.32.5';
export const SCHEMATHESIS_CONFIG = `${REPO_ROOT}test/fuzz/schemathesis.toml`;

export function schemathesisBin(): string {
  const cache = process.env.DSCHED_CACHE ?? `${homedir()}/.cache/dsched`;
  const bin = `${cache}/tools/schemathesis-${SCHEMATHESIS_VERSION}/bin/st`;
  if (!existsSync(bin))
    throw new Error(
      `schemathesis is not installed (${bin}): run scripts/test.sh, or source scripts/lib/apt.sh and run dsched_ensure_schemathesis`,
    );
  return bin;
}

export interface FuzzOptions {
  /** Test cases per operation and phase (`--max-examples`). */
  examples: number;
  seed: number;
  /** Names the run's database and keyspace (a test file's import.meta.url). */
  storeUrl: string;
  log?: (line: string) => void;
  /** Where JUnit reports go (one per target); none when absent. */
  reportDir?: string;
}

export interface FuzzTargetResult {
  name: 'task-api (tenant)' | 'task-api (operator)' | 'job-api (tenant)';
  exitCode: number;
  seconds: number;
  /** Test cases schemathesis generated (its summary's "N generated"), and operations tested. */
  cases: number;
  operations: number;
  /** schemathesis's output, its summary at the end. */
  output: string;
}

const ADMIN_TOKEN = 'fuzz-admin-token-0123456789abcdef';

export async function runSchemathesis(options: FuzzOptions): Promise<FuzzTargetResult[]> {
  const bin = schemathesisBin();
  const log = options.log ?? (() => {});
  const [db, ks] = await Promise.all([
    createTestDatabase(options.storeUrl),
    createTestKeyspace(options.storeUrl),
  ]);
  // The ignored_auth check sends wrong credentials on purpose: a high limit keeps the throttle
  // from answering 429 to everything after the first twenty.
  const fleet = await startFleet(
    {
      DATABASE_URL: db.url,
      CASSANDRA_KEYSPACE: ks.keyspace,
      DSCHED_ADMIN_TOKEN: ADMIN_TOKEN,
      AUTH_FAILURE_LIMIT: '1000000',
    },
    ['task-api', 'job-api'],
  );
  try {
    const taskApi = fleet.service('task-api').url;
    const jobApi = fleet.service('job-api').url;
    // The tenant is made through the API it fuzzes, as an operator would.
    const created = await fetch(`${taskApi}/v1/admin/tenants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'fuzz' }),
    });
    if (created.status !== 201)
      throw new Error(`creating the fuzz tenant: ${created.status} ${await created.text()}`);
    const { apiKey } = (await created.json()) as { apiKey: string };
    const targets: { name: FuzzTargetResult['name']; url: string; token: string; filter: string[] }[] = [
      {
        name: 'task-api (tenant)',
        url: taskApi,
        token: apiKey,
        filter: ['--exclude-path-regex', '^/v1/admin'],
      },
      {
        name: 'task-api (operator)',
        url: taskApi,
        token: ADMIN_TOKEN,
        filter: ['--include-path-regex', '^/v1/admin'],
      },
      { name: 'job-api (tenant)', url: jobApi, token: apiKey, filter: [] },
    ];
    const results: FuzzTargetResult[] = [];
    for (const t of targets) {
      const started = Date.now();
      log(`schemathesis: ${t.name}, ${options.examples} examples per operation, seed ${options.seed}`);
      const args = [
        '--config-file',
        SCHEMATHESIS_CONFIG,
        'run',
        `${t.url}/openapi.json`,
        '--header',
        `Authorization: Bearer ${t.token}`,
        ...t.filter,
        '--checks',
        'all',
        '--max-examples',
        String(options.examples),
        '--seed',
        String(options.seed),
        // One worker: CPython 3.11's parser is not thread-safe under hypothesis's lambda
        // descriptions ("AST constructor recursion depth mismatch"), and the machine has two cores.
        '--workers',
        '1',
        '--no-color',
        ...(options.reportDir
          ? [
              '--report',
              'junit',
              '--report-junit-path',
              `${options.reportDir}/${t.name.replace(/\W+/g, '-')}.xml`,
            ]
          : []),
      ];
      const { code, output } = await run(bin, args);
      const seconds = (Date.now() - started) / 1000;
      const cases = Number(/(\d+) generated/.exec(output)?.[1] ?? 0);
      const operations = Number(/Tested: (\d+)/.exec(output)?.[1] ?? 0);
      log(
        `schemathesis: ${t.name} exited ${code}: ${cases} cases over ${operations} operations in ${seconds.toFixed(1)} s`,
      );
      results.push({ name: t.name, exitCode: code, seconds, cases, operations, output });
    }
    return results;
  } finally {
    await fleet.stop();
    await db.close();
    await ks.close();
  }
}

function run(bin: string, args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code: code ?? -1, output }));
  });
}
