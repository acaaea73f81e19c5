import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { migrateMysql } from '@dsched/mysql/migrations';
import { createPool, type RowDataPacket } from '@dsched/mysql/pool';
import { untilVtgateSeesSchema } from '@dsched/testkit/mysql';
import { VITESS_SERVICE_ENV } from '@dsched/testkit/services';
import { REPO_ROOT } from './paths.ts';

// The run's MySQL as the local Vitess cluster (`scripts/vitess cluster`: etcd, vtctld, one durable
// MySQL 9.7 + vttablet per shard, vtorc, vtgate; docs/vitess.md) in place of one server:
// `DSCHED_MYSQL_TOPOLOGY=vitess pnpm loadtest SCENARIO` or `--topology vitess`. The cluster is
// found by DSCHED_STACK_DIR and DSCHED_VITESS_CLUSTER_PORT (the script's own variables), brought
// up when down and reused when up; the run keeps it up (`scripts/vitess cluster down` stops it).
// Its keyspaces `dsched` and `dsched_global` are fixed (vtgate creates no sharded keyspace), so a
// run's stores are those two, migrated through vtgate and then emptied: one run at a time per
// cluster. History stays a keyspace of the run's own on Cassandra.

export type Topology = 'single' | 'vitess';

export function isTopology(name: string): name is Topology {
  return name === 'single' || name === 'vitess';
}

/** The topology asked for by the environment (scripts/stack's variable), `single` by default. */
export function topologyFromEnv(): Topology {
  const t = process.env.DSCHED_MYSQL_TOPOLOGY ?? 'single';
  if (!isTopology(t)) throw new Error(`DSCHED_MYSQL_TOPOLOGY must be single or vitess (got '${t}')`);
  return t;
}

/** The two keyspaces of the cluster (deploy/vitess's VSchemas). */
export const CLUSTER_KEYSPACES = ['dsched', 'dsched_global'] as const;

export interface ClusterTablet {
  uid: number;
  keyspace: string;
  shard: string;
  /** The tablet's own mysqld (127.0.0.1), reached as root over its socket by `tabletSql`. */
  mysqlPort: number;
}

/**
 * A handle on the cluster for scenarios (reshard, shard-linearity, router-cost): its ports, its
 * processes (`pids`: cgroups, taskset, kills), `ctl` (vtctldclient), its tablets.
 */
export class VitessCluster {
  /** DSCHED_VITESS_CLUSTER_PORT: vtctld http B, grpc B+1, vtgate http B+2, MySQL B+6; tablet U: B+U, B+U+100, B+U+200. */
  readonly basePort: number;
  readonly vtgatePort: number;
  readonly #env: NodeJS.ProcessEnv;

  constructor(env: NodeJS.ProcessEnv = process.env) {
    this.basePort = Number(env.DSCHED_VITESS_CLUSTER_PORT ?? 15400);
    this.vtgatePort = Number(env.DSCHED_VITESS_CLUSTER_MYSQL_PORT ?? this.basePort + 6);
    this.#env = { ...env };
  }

  /** vtgate's MySQL protocol, naming no keyspace (`@primary`: each table routes to its keyspace). */
  get url(): string {
    return `mysql://dsched:dsched@127.0.0.1:${this.vtgatePort}/@primary`;
  }

  get vtgateHttp(): string {
    return `http://127.0.0.1:${this.basePort + 2}`;
  }

  /** `scripts/vitess cluster ARGS…` against this cluster; its stdout. */
  script(args: string[], options: { timeoutMs?: number } = {}): string {
    return execFileSync('bash', [`${REPO_ROOT}scripts/vitess`, 'cluster', ...args], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: this.#env,
      timeout: options.timeoutMs ?? 600_000,
      maxBuffer: 64 * 1024 * 1024,
    });
  }

  /** Starts what is not running (creates the cluster the first time: about 20 s; reuse: about 1 s). */
  up(): void {
    execFileSync('bash', [`${REPO_ROOT}scripts/vitess`, 'cluster', 'up'], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: this.#env,
      timeout: 600_000,
    });
  }

  /** vtctldclient against the cluster (e.g. `ctl(['GetShard', 'dsched/-80'])`). */
  ctl(args: string[]): string {
    return this.script(['ctl', ...args]);
  }

  /** The processes the script started, by name (`vtgate`, `vttablet-101`, `mysqld-101`, `etcd`…). */
  pids(): Map<string, number> {
    const out = new Map<string, number>();
    for (const line of this.script(['pids']).split('\n')) {
      const [name, pid] = line.trim().split(/\s+/);
      if (name && pid) out.set(name, Number(pid));
    }
    return out;
  }

  /** The tablets the script keeps (`uid keyspace shard` lines of `status`). */
  tablets(): ClusterTablet[] {
    return this.script(['status'])
      .split('\n')
      .flatMap((line) => {
        const m = /^\s*tablet (\d+) (\S+) (\S+)\s*$/.exec(line);
        if (!m) return [];
        const uid = Number(m[1]);
        return [{ uid, keyspace: m[2]!, shard: m[3]!, mysqlPort: this.basePort + uid + 200 }];
      });
  }

  /**
   * The unix socket of tablet `uid`'s mysqld (beside the my.cnf its command line names), for a
   * connection straight to it, past vtgate and vttablet: Vitess's users there (`vt_app`,
   * `vt_dba`) are `@localhost` without a password; its databases are `vt_<keyspace>`.
   */
  tabletSocket(uid: number): string {
    const pid = this.pids().get(`mysqld-${uid}`);
    if (pid === undefined) throw new Error(`no mysqld for tablet ${uid}`);
    const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    const cnf = cmd.find((a) => a.startsWith('--defaults-file='))?.slice('--defaults-file='.length);
    if (!cnf) throw new Error(`mysqld ${pid} names no --defaults-file`);
    return cnf.replace(/my\.cnf$/, 'mysql.sock');
  }

  /**
   * The run's MySQL stores: the migrations through vtgate (idempotent), then every table of both
   * keyspaces emptied (schema_migrations kept), once vtgate plans with the migrated columns.
   */
  async freshStores(): Promise<string> {
    const pool = createPool(this.url, { connectionLimit: 4 });
    try {
      await migrateMysql(pool, { topology: 'vitess' });
      await untilVtgateSeesSchema(pool);
      for (const keyspace of CLUSTER_KEYSPACES) {
        const [tables] = await pool.query<RowDataPacket[]>(`SHOW TABLES FROM \`${keyspace}\``);
        for (const row of tables) {
          const table = String(Object.values(row)[0]);
          if (table !== 'schema_migrations') await pool.query(`DELETE FROM \`${keyspace}\`.\`${table}\``);
        }
      }
    } finally {
      await pool.end();
    }
    return this.url;
  }

  /** What the services need beside DATABASE_URL to run on the cluster (the testkit's, for vtgate). */
  serviceEnv(): Record<string, string> {
    return { ...VITESS_SERVICE_ENV, DATABASE_URL: this.url };
  }
}
