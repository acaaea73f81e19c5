import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import type { Child } from '../harness/processes.ts';
import type { OwnPostgres } from './postgres.ts';
import { burstCalls, burstTasks, type Peer, type PeerRun, startWorkerProcesses } from './types.ts';

// River (github.com/riverqueue/river, Go) on the harness's own PostgreSQL 15, in a database of its
// own: river/main.go, built with the machine's Go from the Go module proxy into the project's cache
// (keyed by its sources, so a change rebuilds it), its workers calling the same sink. How it is
// tuned is in main.go's header.

const SOURCE = new URL('./river/', import.meta.url).pathname;

export class RiverPeer implements Peer {
  readonly name = 'River';
  readonly key = 'river';
  readonly setup: string;
  readonly #pg: OwnPostgres;
  readonly #url: string;
  readonly #bin: string;
  readonly #workers: Child[] = [];

  private constructor(pg: OwnPostgres, url: string, bin: string, processes: number, concurrency: number) {
    this.#pg = pg;
    this.#url = url;
    this.#bin = bin;
    this.setup = `River ${riverVersion()} (Go) on PostgreSQL 15 (fsync, synchronous_commit on): ${processes} processes × ${concurrency} workers, FetchCooldown 20 ms, FetchPollInterval 50 ms, batch completer (default), jobs inserted with InsertManyFast (COPY)`;
  }

  static async start(
    pg: OwnPostgres,
    options: { processes: number; concurrency: number; sinkUrl: string; logDir: string },
  ): Promise<RiverPeer> {
    const bin = buildRiverPeer();
    const url = await pg.freshDatabase('river');
    execFileSync(bin, [], {
      env: { ...process.env, RIVER_MODE: 'migrate', RIVER_DATABASE_URL: url },
      stdio: 'inherit',
    });
    const peer = new RiverPeer(pg, url, bin, options.processes, options.concurrency);
    peer.#workers.push(
      ...(await startWorkerProcesses(
        'river',
        [bin],
        {
          RIVER_MODE: 'work',
          RIVER_DATABASE_URL: url,
          RIVER_CONCURRENCY: String(options.concurrency),
          SINK_URL: options.sinkUrl,
        },
        options.processes,
        options.logDir,
      )),
    );
    return peer;
  }

  async addBurst(n: number, tenants: number, criticalShare: number): Promise<PeerRun> {
    const criticalEvery = criticalShare >= 1 ? 1 : Math.round(1 / criticalShare);
    const out = execFileSync(this.#bin, [], {
      env: {
        ...process.env,
        RIVER_MODE: 'add',
        RIVER_DATABASE_URL: this.#url,
        RIVER_N: String(n),
        RIVER_TENANTS: String(tenants),
        RIVER_CRITICAL_EVERY: String(criticalEvery),
      },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const { due, addedInS } = JSON.parse(out.trim().split('\n').pop()!) as { due: number; addedInS: number };
    // main.go names its tasks as burstCalls does, with the same tenants and critical ones.
    return { tasks: burstTasks(burstCalls('river', n, tenants, criticalShare), due), due, addedInS };
  }

  cpuKinds(): Record<string, () => number[]> {
    return {
      river: () => this.#workers.filter((w) => w.running()).map((w) => w.pid),
      postgres: () => this.#pg.pids(),
    };
  }

  async stop(): Promise<void> {
    await Promise.all(this.#workers.map((w) => w.stop('SIGTERM', 15_000)));
  }
}

function riverVersion(): string {
  const mod = readFileSync(`${SOURCE}go.mod`, 'utf8');
  return /github\.com\/riverqueue\/river (v[\d.]+)/.exec(mod)?.[1] ?? '';
}

/** Builds main.go into the cache once per version of its sources; returns the binary's path. */
function buildRiverPeer(): string {
  const cache = process.env.DSCHED_CACHE ?? `${homedir()}/.cache/dsched`;
  const hash = createHash('sha256');
  for (const f of ['go.mod', 'go.sum', 'main.go']) hash.update(readFileSync(`${SOURCE}${f}`));
  const bin = `${cache}/tools/river-peer-${hash.digest('hex').slice(0, 12)}`;
  if (existsSync(bin)) return bin;
  mkdirSync(`${cache}/tools`, { recursive: true });
  try {
    execFileSync('go', ['build', '-o', bin, '.'], {
      cwd: SOURCE,
      env: {
        ...process.env,
        GOPATH: `${cache}/go`,
        GOCACHE: `${cache}/go-build`,
        GOFLAGS: '-buildvcs=false',
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
  } catch (cause) {
    throw new Error(
      'the River peer needs Go (1.24 or later) to build loadtest/src/peer/river: run with --river 0 without it',
      { cause },
    );
  }
  return bin;
}
