import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { createCassandraClient } from '@dsched/cassandra/client';
import { migrateCassandra } from '@dsched/cassandra/migrations';
import { migrateMysql } from '@dsched/mysql/migrations';
import { createPool } from '@dsched/mysql/pool';
import { freePort } from '@dsched/testkit/ports';
import mysql from 'mysql2/promise';
import { REPO_ROOT } from './paths.ts';
import { type Child, spawnChild } from './processes.ts';
import { waitFor } from './wait.ts';

// The stores a run uses. The shared MariaDB (3306) and Cassandra (9042) come from scripts/stack;
// each run gets a fresh database and keyspace of its own, migrated by the project's migration code.
// The MariaDB fault scenario runs its OWN mariadbd on another port and data dir, never the shared one.

// The shared stack's ports follow scripts/stack (DSCHED_MYSQL_PORT, DSCHED_CASSANDRA_PORT).
export const SHARED_MYSQL = `mysql://dsched:dsched@127.0.0.1:${process.env.DSCHED_MYSQL_PORT ?? 3306}`;
export const CASSANDRA_CONTACT = `127.0.0.1:${process.env.DSCHED_CASSANDRA_PORT ?? 9042}`;

/**
 * Brings up the shared stack when it is down (idempotent; migrations are ours, per run). Always
 * its single-server shape: a run on the Vitess cluster (vitess-cluster.ts) takes Cassandra from
 * the stack, never a vttestserver.
 */
export function ensureSharedStack(): void {
  execFileSync('bash', [`${REPO_ROOT}scripts/stack`, 'up'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      DSCHED_SKIP_MIGRATE: '1',
      DSCHED_MYSQL_TOPOLOGY: 'single',
    },
  });
}

/** dsched_lt_<checkout>_<scenario>: parallel checkouts on one server never share a run's stores. */
export function storeName(scenario: string, prefix = 'dsched_lt'): string {
  const checkout = createHash('sha1').update(REPO_ROOT).digest('hex').slice(0, 4);
  return `${prefix}_${checkout}_${scenario.replace(/[^a-z0-9]+/g, '_')}`.slice(0, 48);
}

export interface Stores {
  databaseUrl: string;
  keyspace: string;
}

/** Where a run's history lives: the shared node (the default) or a cluster of the run's own. */
export interface HistoryCluster {
  contactPoints: string[];
  /** The keyspace's replication map, as CQL writes it. */
  replication: string;
}

export const SHARED_CASSANDRA: HistoryCluster = {
  contactPoints: [CASSANDRA_CONTACT],
  replication: "{'class': 'SimpleStrategy', 'replication_factor': 1}",
};

/** Drops and recreates the run's database and keyspace, then applies every migration. */
export async function freshStores(
  serverUrl: string,
  name: string,
  history: HistoryCluster = SHARED_CASSANDRA,
): Promise<Stores> {
  if (!/^[a-z][a-z0-9_]{0,47}$/.test(name)) throw new Error(`unsafe store name ${name}`);
  const admin = await mysql.createConnection(`${serverUrl}/mysql`);
  try {
    await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
    await admin.query(`CREATE DATABASE \`${name}\``);
  } finally {
    await admin.end();
  }
  const databaseUrl = `${serverUrl}/${name}`;
  const pool = createPool(databaseUrl, { connectionLimit: 1 });
  try {
    await migrateMysql(pool);
  } finally {
    await pool.end();
  }
  await freshHistory(name, history);
  return { databaseUrl, keyspace: name };
}

/** Drops and recreates the run's history keyspace, then applies every Cassandra migration. */
export async function freshHistory(name: string, history: HistoryCluster = SHARED_CASSANDRA): Promise<void> {
  if (!/^[a-z][a-z0-9_]{0,47}$/.test(name)) throw new Error(`unsafe keyspace name ${name}`);
  const cassandra = createCassandraClient({
    contactPoints: history.contactPoints,
    localDataCenter: 'datacenter1',
  });
  try {
    await cassandra.execute(`DROP KEYSPACE IF EXISTS ${name}`);
    await migrateCassandra(cassandra, { keyspace: name, replication: history.replication });
  } finally {
    await cassandra.shutdown();
  }
}

/** A mariadbd of the harness's own, on its own port and data dir: the one a fault may stop. */
export class OwnMariadb {
  readonly dir: string;
  readonly port: number;
  #child: Child | undefined;
  #logFile: string;

  private constructor(dir: string, port: number, logFile: string, extraArgs: string[]) {
    this.dir = dir;
    this.port = port;
    this.#logFile = logFile;
    this.#extraArgs = extraArgs;
  }

  readonly #extraArgs: string[];

  /**
   * `extraArgs`: more server options (db-profile.ts's slow log and performance_schema; a
   * replication member's server id, binary log and semi-sync: replication.ts).
   */
  static async start(dir: string, logFile: string, extraArgs: string[] = []): Promise<OwnMariadb> {
    const db = new OwnMariadb(dir, await freePort(), logFile, extraArgs);
    if (!existsSync(`${dir}/data/mysql`)) {
      mkdirSync(dir, { recursive: true });
      execFileSync(
        'mariadb-install-db',
        [
          '--no-defaults',
          `--datadir=${dir}/data`,
          `--user=${process.env.USER ?? 'root'}`,
          '--auth-root-authentication-method=socket',
          '--skip-test-db',
        ],
        { stdio: 'ignore', env: { ...process.env, PATH: `${process.env.PATH}:/usr/sbin` } },
      );
    }
    await db.up();
    // Each server's own users, kept out of its binary log (a replica's would be transactions of
    // its own that its primary never had).
    db.rootSql(`SET SESSION sql_log_bin = 0;
CREATE USER IF NOT EXISTS 'dsched'@'127.0.0.1' IDENTIFIED BY 'dsched';
GRANT ALL PRIVILEGES ON *.* TO 'dsched'@'127.0.0.1' WITH GRANT OPTION;`);
    return db;
  }

  /**
   * Runs SQL as root over the socket; returns what the client printed (tab-separated, without
   * column names unless `names`: a vertical `\G` listing needs them).
   */
  rootSql(sql: string, names = false): string {
    return execFileSync(
      'mariadb',
      ['--no-defaults', `--socket=${this.dir}/mysqld.sock`, '-uroot', '-B', ...(names ? [] : ['-N'])],
      {
        input: sql,
        encoding: 'utf8',
        stdio: ['pipe', 'pipe', 'inherit'],
      },
    );
  }

  get url(): string {
    return `mysql://dsched:dsched@127.0.0.1:${this.port}`;
  }

  /** Starts (or restarts) the server on the same port and data and waits until it answers. */
  async up(): Promise<void> {
    // Same flags as scripts/stack, with a smaller buffer pool: this one is per run.
    this.#child = spawnChild(
      'mariadbd-own',
      [
        '/usr/sbin/mariadbd',
        '--no-defaults',
        `--user=${process.env.USER ?? 'root'}`,
        `--datadir=${this.dir}/data`,
        `--socket=${this.dir}/mysqld.sock`,
        `--port=${this.port}`,
        '--bind-address=127.0.0.1',
        `--pid-file=${this.dir}/mariadbd.pid`,
        '--skip-name-resolve',
        '--character-set-server=utf8mb4',
        '--collation-server=utf8mb4_bin',
        '--transaction-isolation=READ-COMMITTED',
        '--max-connections=1000',
        '--innodb-buffer-pool-size=512M',
        '--innodb-flush-log-at-trx-commit=1',
        '--innodb-lock-wait-timeout=10',
        '--max-allowed-packet=64M',
        ...this.#extraArgs,
      ],
      { logFile: this.#logFile },
    );
    const socket = `${this.dir}/mysqld.sock`;
    await waitFor(
      `own mariadbd on ${this.port}`,
      () => {
        execFileSync('mariadb-admin', ['--no-defaults', `--socket=${socket}`, '-uroot', 'ping'], {
          stdio: 'ignore',
        });
        return true;
      },
      { timeoutMs: 60_000, intervalMs: 250 },
    );
  }

  /** Stops it: SIGKILL (a crash: InnoDB recovers at the next start) or SIGTERM (a clean shutdown). */
  async down(how: 'kill' | 'term'): Promise<void> {
    if (!this.#child) return;
    if (how === 'kill') this.#child.kill('SIGKILL');
    await this.#child.stop('SIGTERM', 60_000);
    this.#child = undefined;
  }
}
