import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { freePort } from '@dsched/testkit/ports';
import pg from 'pg';
import { REPO_ROOT } from '../harness/paths.ts';
import { type Child, spawnChild } from '../harness/processes.ts';
import { waitFor } from '../harness/wait.ts';

// A PostgreSQL 15 of the harness's own for the durable peers (graphile-worker, River): Debian's
// package, a data directory in the run's scratch, loopback only, on a free port. Durable as
// PostgreSQL ships: fsync and synchronous_commit on (set explicitly, so a changed default cannot
// make the peer faster than it would be in production), full_page_writes on. The rest is sized like
// the stack's MariaDB: a shared buffer pool that holds the run (512 MB, as the harness's own
// mariadbd), and connections for three worker pools of 257.
//
// PostgreSQL refuses to run as root: as root the harness runs it as the package's `postgres` user
// (setpriv execs in place, so the pid the harness holds is the postmaster's).

const BIN = '/usr/lib/postgresql/15/bin';

export class OwnPostgres {
  readonly dir: string;
  readonly port: number;
  #child: Child | undefined;

  private constructor(dir: string, port: number) {
    this.dir = dir;
    this.port = port;
  }

  static async start(dir: string, logFile: string): Promise<OwnPostgres> {
    ensurePostgresInstalled();
    const db = new OwnPostgres(dir, await freePort());
    const asRoot = process.getuid?.() === 0;
    const runAs = (cmd: string[]) =>
      asRoot ? ['setpriv', '--reuid=postgres', '--regid=postgres', '--init-groups', ...cmd] : cmd;
    mkdirSync(dir, { recursive: true });
    if (asRoot) chownTree(dir);
    if (!existsSync(`${dir}/data/PG_VERSION`)) {
      const [file, ...args] = runAs([
        `${BIN}/initdb`,
        '-D',
        `${dir}/data`,
        '-U',
        'postgres',
        '--auth=trust',
        '--encoding=UTF8',
        '--no-instructions',
      ]);
      execFileSync(file!, args, { stdio: ['ignore', 'ignore', 'inherit'] });
    }
    db.#child = spawnChild(
      'postgres-own',
      runAs([
        `${BIN}/postgres`,
        '-D',
        `${dir}/data`,
        '-p',
        String(db.port),
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        `unix_socket_directories=${dir}`,
        '-c',
        'fsync=on',
        '-c',
        'synchronous_commit=on',
        '-c',
        'full_page_writes=on',
        '-c',
        'max_connections=1000',
        '-c',
        'shared_buffers=512MB',
        '-c',
        'log_min_messages=warning',
      ]),
      { logFile },
    );
    await waitFor(
      `own postgres on ${db.port}`,
      async () => {
        const client = new pg.Client({ connectionString: db.url('postgres') });
        try {
          await client.connect();
          await client.query('SELECT 1');
          return true;
        } finally {
          await client.end().catch(() => undefined);
        }
      },
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    return db;
  }

  url(database: string): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  /** A fresh database for one peer (dropped first if a previous run left it). */
  async freshDatabase(name: string): Promise<string> {
    const client = new pg.Client({ connectionString: this.url('postgres') });
    await client.connect();
    try {
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.query(`CREATE DATABASE ${name}`);
    } finally {
      await client.end();
    }
    return this.url(name);
  }

  /** The postmaster and every backend it forked (for the CPU accounting; see cpu.ts's cutime). */
  pids(): number[] {
    const root = this.#child?.pid;
    if (root === undefined) return [];
    return [root, ...childrenOf(root)];
  }

  async stop(): Promise<void> {
    // SIGINT: PostgreSQL's fast shutdown (backends ended, a checkpoint written).
    await this.#child?.stop('SIGINT', 30_000);
    this.#child = undefined;
  }
}

function chownTree(dir: string): void {
  const pw = execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim();
  const gr = execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim();
  // The scratch directory's parents must be reachable by the postgres user.
  chmodSync(dir, 0o700);
  chownSync(dir, Number(pw), Number(gr));
  for (let p = dir.replace(/\/+$/, ''); p.includes('/'); p = p.slice(0, p.lastIndexOf('/'))) {
    if (p === '' || p === '/') break;
    try {
      const mode = Number.parseInt(execFileSync('stat', ['-c', '%a', p], { encoding: 'utf8' }).trim(), 8);
      if ((mode & 0o001) === 0) chmodSync(p, mode | 0o001);
    } catch {
      // not ours to change
    }
  }
}

/** Pids whose parent is `pid` (one level: PostgreSQL's backends are the postmaster's children). */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

function ensurePostgresInstalled(): void {
  try {
    execFileSync('bash', ['-c', `. "${REPO_ROOT}scripts/lib/apt.sh" && dsched_ensure_postgresql`], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  } catch (cause) {
    throw new Error(
      'the graphile-worker and River peers need PostgreSQL 15 and could not install it: run `apt-get install postgresql-15` (as root) and try again',
      { cause },
    );
  }
}
