import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { DEFAULT_PARTITIONS } from '@dsched/domain';
import { CASSANDRA_CONTACT_POINT } from './cassandra.ts';
import { REPO_ROOT } from './names.ts';
import { freePort } from './ports.ts';
import { TEST_SECRETS_KEY } from './secrets.ts';

// Starts the real services as separate processes, on the Node that runs the tests.

export type ServiceName = 'task-api' | 'scheduler' | 'executor' | 'reconciler' | 'archiver' | 'job-api';

export const PORT_VARIABLE: Record<ServiceName, string> = {
  'task-api': 'TASK_API_PORT',
  'job-api': 'JOB_API_PORT',
  scheduler: 'METRICS_PORT',
  executor: 'METRICS_PORT',
  reconciler: 'METRICS_PORT',
  archiver: 'METRICS_PORT',
};

export interface RunningService {
  name: ServiceName;
  port: number;
  url: string;
  process: ChildProcess;
  output(): string;
  /** Resolves with the exit code (or signal name). */
  exited: Promise<number | string>;
  stop(signal?: NodeJS.Signals): Promise<number | string>;
}

/** Preloaded into the services started here: they end when the test runner does (parent-watch.ts). */
export const PARENT_WATCH = fileURLToPath(new URL('./parent-watch.ts', import.meta.url));

/**
 * The configuration a service needs to run on the test worker's vttestserver (`pnpm test:vitess`):
 * the topology, the sharded keyspace its shard map reads, and the partitions (the same in every
 * service and the tests). The address is the test database's (`DATABASE_URL`: this worker's vtgate,
 * testkit/mysql.ts); a test's own env overrides any of these.
 */
export const VITESS_SERVICE_ENV: Readonly<Record<string, string>> = {
  MYSQL_TOPOLOGY: 'vitess',
  VITESS_KEYSPACE: 'dsched',
  SCHEDULER_PARTITIONS: process.env.SCHEDULER_PARTITIONS ?? String(DEFAULT_PARTITIONS),
};

/**
 * How long a started service has to answer /readyz (DSCHED_TEST_READY_MS, 30 s unless set). The
 * Vitess leg sets 90 s (scripts/test-vitess.sh): two workers start six services each beside two
 * vttestservers on two cores, and a service starved of CPU can still be loading its modules at
 * 30 s. A tolerance for a slow start, not a check of one.
 */
const READY_MS = Number(process.env.DSCHED_TEST_READY_MS ?? 30_000);

export function serviceEntry(name: ServiceName): string {
  return `${REPO_ROOT}services/${name}/src/main.ts`;
}

export async function startService(
  name: ServiceName,
  env: Record<string, string>,
  options: {
    waitReady?: boolean;
    timeoutMs?: number;
    command?: string[];
    port?: number;
    /** Write a V8 CPU profile of the service into this directory when it exits (benchmarks). */
    cpuProfDir?: string;
  } = {},
): Promise<RunningService> {
  const port = options.port ?? (await freePort());
  const profile = options.cpuProfDir ? ['--cpu-prof', '--cpu-prof-dir', options.cpuProfDir] : [];
  const command = options.command ?? [
    process.execPath,
    ...profile,
    '--import',
    PARENT_WATCH,
    serviceEntry(name),
  ];
  const child = spawn(command[0]!, command.slice(1), {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      LOG_LEVEL: 'warn',
      CASSANDRA_CONTACT_POINTS: CASSANDRA_CONTACT_POINT,
      DSCHED_SECRETS_KEY: TEST_SECRETS_KEY,
      DSCHED_TEST_PARENT_PID: String(process.pid),
      // pnpm test:vitess: the services' statements go through vtgate (testkit/mysql.ts).
      ...(process.env.DSCHED_MYSQL_TOPOLOGY === 'vitess' ? VITESS_SERVICE_ENV : {}),
      ...env,
      [PORT_VARIABLE[name]]: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  const exited = new Promise<number | string>((resolve) => {
    child.on('exit', (code, signal) => resolve(code ?? signal ?? -1));
  });
  const service: RunningService = {
    name,
    port,
    url: `http://127.0.0.1:${port}`,
    process: child,
    output: () => out,
    exited,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  if (options.waitReady !== false) await waitReady(service, options.timeoutMs ?? READY_MS);
  return service;
}

async function waitReady(service: RunningService, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exitedWith: number | string | undefined;
  void service.exited.then((c) => {
    exitedWith = c;
  });
  while (Date.now() < deadline) {
    if (exitedWith !== undefined)
      throw new Error(`${service.name} exited (${exitedWith}) during start:\n${service.output()}`);
    try {
      const res = await fetch(`${service.url}/readyz`);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${service.name} not ready within ${timeoutMs} ms:\n${service.output()}`);
}

/** Polls `check` until it returns a value other than undefined, or fails after `timeoutMs`. */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  timeoutMs = 30_000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} not reached within ${timeoutMs} ms${last ? `: ${String(last)}` : ''}`);
}
